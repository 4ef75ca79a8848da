-- Replay and dry run (docs/code-mode.md#replay). A run row says what kind of run it was: a live run, a replay of a
-- recorded run (replay_of names it; its bridge was answered from the recording, never by tools), or a dry run (writes
-- planned, not made). A replay that met a call its recording lacks ends DIVERGED.
-- The recording of a run is a row of its own: the code it ran, and a JSON document with its input, the value it
-- returned and each amcp.run call's tool, canonical arguments and result, each capped by AMCP_CODE_RECORD_MAX_BYTES.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
alter table code_runs add column run_kind varchar(16) default 'live' not null;
alter table code_runs add column replay_of varchar(64);
alter table code_runs drop constraint ck_runs_status;
alter table code_runs add constraint ck_runs_status
    check (status in ('RUNNING', 'SUCCESS', 'ERROR', 'TIMEOUT', 'REFUSED', 'CANCELLED', 'LIMIT', 'DIVERGED'));
create index ix_runs_tool_kind_started on code_runs (tool_id, run_kind, started_at);

create table code_run_recordings (
    run_id      varchar(64)  primary key references code_runs(run_id) on delete cascade,
    code        text         not null,
    recording   ${json}      not null
);
