#!/usr/bin/env bash
# Rows, bytes on disk (table, TOAST and indexes) and bytes per row of the tables that grow with use, in a gateway's
# PostgreSQL database: what docs/scaling.md's retention figures come from.
#   bench/table-sizes.sh [psql connection args, default: -h 127.0.0.1 -U postgres -d test]
set -euo pipefail
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-h 127.0.0.1 -U postgres -d test)
psql "${args[@]}" -X -q -P pager=off <<'SQL'
select t.name as "table",
       t.rows,
       pg_size_pretty(pg_total_relation_size(t.name::regclass)) as "on disk",
       case when t.rows > 0 then pg_total_relation_size(t.name::regclass) / t.rows end as "bytes per row",
       case when t.rows > 0 then pg_size_pretty(pg_total_relation_size(t.name::regclass) * 1000 / t.rows) end as "per 1,000 rows"
from (select 'code_runs' as name, (select count(*) from code_runs) as rows
      union all select 'code_run_recordings', (select count(*) from code_run_recordings)
      union all select 'code_approvals', (select count(*) from code_approvals)
      union all select 'admin_audit', (select count(*) from admin_audit)) t
order by 1;
SQL
