-- Issue #29: work one node of a cluster does at a time (retention now; upstream refreshes and approval expiry may
-- follow). A node takes the lease by updating leased_until when it has passed, so two nodes never run it together,
-- and last_finished_at tells every node when it last ran. Runs on PostgreSQL and on H2 (PostgreSQL mode).
create table scheduled_work (
    name              varchar(64)   primary key,
    leased_by         varchar(200),
    leased_until      timestamp,
    last_started_at   timestamp,
    last_finished_at  timestamp,
    last_result       varchar(4000)
);
insert into scheduled_work (name) values ('retention');

-- The purge reads old rows by age across workspaces.
create index ix_runs_started on code_runs (started_at);
create index ix_approvals_created on code_approvals (created_at);
