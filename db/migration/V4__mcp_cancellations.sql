-- Cancellations of MCP calls that arrived at a node not running the call. The node running it picks them up
-- (it polls only while it has calls in flight) and deletes them; old rows are purged.
-- The key is the SHA-256 of the call's request key, so its size is fixed whatever id the client chose.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
create table mcp_cancellations (
    request_key_sha256 varchar(64)  primary key,
    reason             varchar(200),
    created_at         timestamp    not null
);
create index ix_cancellations_created on mcp_cancellations (created_at);
