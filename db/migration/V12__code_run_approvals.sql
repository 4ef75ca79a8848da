-- Human approval of writes (docs/code-mode.md#approvals). A code tool with allowWrites may declare approval
-- "always" | "never" (in its endpoint mapping) or follow its caller's role (roles.approve_writes). A run that needs
-- approval runs its reads, stops at its first write (status PAUSED) and leaves a pending approval: the planned write,
-- bound to the caller who asked, until it expires. Approving resumes the run by replaying its recorded reads, then
-- makes the write; refusing, expiring or a diverging replay makes none. The run rows say who decided.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
alter table roles add column approve_writes boolean default false not null;

alter table code_runs drop constraint ck_runs_status;
alter table code_runs add constraint ck_runs_status
    check (status in ('RUNNING', 'SUCCESS', 'ERROR', 'TIMEOUT', 'REFUSED', 'CANCELLED', 'LIMIT', 'DIVERGED', 'PAUSED'));
alter table code_runs add column approval_id varchar(64);
alter table code_runs add column approval varchar(16);
alter table code_runs add column approval_by varchar(200);
alter table code_runs add column approval_at timestamp;

create table code_approvals (
    id                 varchar(64)   primary key,
    workspace_id       bigint        not null references workspaces(id) on delete cascade,
    run_id             varchar(64)   not null,
    server_id          bigint,
    tool_id            bigint        not null,
    tool_name          varchar(200)  not null,
    requester_user_id  bigint,
    requester_key_id   bigint,
    requester_name     varchar(200),
    call_scope         ${json}       not null,
    input              ${json}       not null,
    planned_tool       varchar(200)  not null,
    planned_args       ${json}       not null,
    summary            varchar(2000) not null,
    status             varchar(16)   not null,
    created_at         timestamp     not null,
    expires_at         timestamp     not null,
    decided_by         varchar(200),
    decided_at         timestamp,
    resume_run_id      varchar(64),
    outcome            ${json},
    constraint ck_approvals_status check (status in ('PENDING', 'APPROVED', 'REFUSED', 'EXPIRED', 'DIVERGED', 'FAILED'))
);
create index ix_approvals_ws_status on code_approvals (workspace_id, status, created_at);
