-- Code runs counted against the license's monthly quota, one row per workspace and calendar month (UTC).
-- The quota gate admits a run with one conditional update of this row instead of counting code_runs,
-- which grew with every run and could admit two racing runs past the limit.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
create table code_run_usage (
    workspace_id bigint  not null references workspaces(id) on delete cascade,
    month_key    integer not null,
    runs         bigint  not null,
    primary key (workspace_id, month_key),
    constraint ck_usage_month check (month_key between 190001 and 999912),
    constraint ck_usage_runs check (runs >= 0)
);

-- Existing runs keep counting: what counted before (every run but refused and quota-refused ones).
insert into code_run_usage (workspace_id, month_key, runs)
select workspace_id, month_key, count(*)
from (select workspace_id, cast(extract(year from started_at) * 100 + extract(month from started_at) as integer) as month_key
      from code_runs
      where status <> 'REFUSED' and (error is null or error not like 'Monthly code-run quota%')) counted
group by workspace_id, month_key;
