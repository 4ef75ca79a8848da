-- Two levels of administration. An operator runs the instance (workspaces, the license) and belongs to no
-- workspace: a row of users with is_operator = true, no workspace and no role; its API keys have no workspace.
-- Everyone else is a workspace member with a role, as before. Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
alter table users add column is_operator boolean not null default false;
alter table users alter column workspace_id drop not null;
alter table users alter column role_id drop not null;
alter table users add constraint ck_users_level check (
    (is_operator = true and workspace_id is null and role_id is null)
    or (is_operator = false and workspace_id is not null and role_id is not null));
alter table api_keys alter column workspace_id drop not null;
alter table users add column email varchar(320);

-- A disabled workspace's keys and editor sign-ins stop working; its data stays.
alter table workspaces add column enabled boolean not null default true;

-- Rows that start-up work locks (select ... for update) so that only one node of a cluster does it at a time.
create table instance_locks (
    name varchar(64) primary key
);
insert into instance_locks (name) values ('operator-bootstrap');
