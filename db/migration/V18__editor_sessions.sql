-- Issue #29: the editor's sessions live in the database, so any node behind a balancer without affinity serves them.
-- A row is found by the SHA-256 of the browser's session cookie and its attributes are sealed (AES-GCM) under a key
-- derived from that cookie: the table alone opens no session and holds no secret (a new API key shown once, say).
-- version orders two nodes writing one session at once. Idle rows go with the retention purge.
create table editor_sessions (
    id_hash         varchar(64)     primary key,
    data            varchar(16000)  not null,
    version         bigint          not null,
    created_at      timestamp       not null,
    last_access_at  timestamp       not null
);
create index ix_editor_sessions_access on editor_sessions (last_access_at);
