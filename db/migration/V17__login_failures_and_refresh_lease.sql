-- Issue #29: the editor's sign-in throttle counts in the database, so every node of a cluster counts the same failures
-- (an attacker no longer gets the limits once per node). A key is a hash of the account name or client address, so the
-- table names no account. Rows are forgotten by the retention purge a day after their last failure.
create table login_failures (
    failure_key   varchar(80)   primary key,
    failures      integer       not null,
    last_failure  timestamp     not null,
    locked_until  timestamp
);
create index ix_login_failures_last on login_failures (last_failure);

-- Scheduled upstream MCP refreshes run on one node at a time (ScheduledWork's lease), like the retention purge.
insert into scheduled_work (name) values ('upstream-refresh');
