-- The tail of a code run's console output, so the audit (and the editor's test run and run detail) can show it.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
alter table code_runs add column console_tail varchar(4000);
