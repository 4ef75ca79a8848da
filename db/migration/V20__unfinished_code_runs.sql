-- A node that dies leaves its runs' rows RUNNING; one node at a time closes them (codemode UnfinishedRuns), looking
-- for RUNNING rows older than the wall time, so the look needs an index on the status and the start.
insert into scheduled_work (name) values ('unfinished-code-runs');
create index ix_runs_status_started on code_runs (status, started_at);
