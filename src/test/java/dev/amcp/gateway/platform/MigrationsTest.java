package dev.amcp.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.audit.control.Retention;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.governance.entity.License;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same migrations on embedded H2 (always) and PostgreSQL (when DB_URL points at one), each in a scratch schema:
 * every table of the data model exists, defaults hold, and JSON columns round-trip the way the app writes them.
 */
class MigrationsTest {

    record Db(String name, String url, String user, String password) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Db> databases() {
        List<Db> dbs = new ArrayList<>();
        dbs.add(new Db("h2", "jdbc:h2:mem:migrations;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1", "sa", ""));
        String url = System.getenv("DB_URL");
        if (url != null && url.startsWith("jdbc:postgresql:")) {
            dbs.add(new Db("postgresql", url, System.getenv().getOrDefault("DB_USER", "postgres"), System.getenv().getOrDefault("DB_PASSWORD", "")));
        }
        return dbs.stream();
    }

    private static final String SCHEMA = "amcp_migrations_test";

    @ParameterizedTest
    @MethodSource("databases")
    void migrationsBuildTheWholeDataModel(Db db) throws Exception {
        Flyway flyway = flyway(db);
        flyway.clean();
        MigrateResult result = flyway.migrate();
        assertTrue(result.success);
        assertTrue(result.migrationsExecuted >= 1);
        try (Connection c = connect(db)) {
            Set<String> tables = new TreeSet<>();
            try (ResultSet rs = c.getMetaData().getTables(null, SCHEMA, "%", new String[]{"TABLE", "BASE TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME").toLowerCase());
                }
            }
            assertTrue(tables.containsAll(Set.of("workspaces", "users", "api_keys", "roles", "role_servers",
                    "mcp_server_configs", "mcp_tools", "code_runs", "code_run_usage", "mcp_cancellations", "kg_skill_suggestions", "license")), tables.toString());
        }
        assertEquals(0, flyway.migrate().migrationsExecuted, "a second migrate applies nothing");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void defaultsAndJsonColumnsRoundTrip(Db db) throws Exception {
        try (Connection c = freshlyMigrated(db)) {
            exec(c, "insert into workspaces(slug, name) values ('w1', 'W1')");
            long ws = id(c, "select id from workspaces where slug = 'w1'");
            exec(c, "insert into mcp_server_configs(workspace_id, slug, name) values (" + ws + ", 's1', 'S1')");
            assertEquals("off", string(c, "select code_mode from mcp_server_configs where slug = 's1'"), "code mode defaults to off");
            long server = id(c, "select id from mcp_server_configs where slug = 's1'");
            String mapping = "{\"method\":\"GET\",\"url\":\"http://x/{id}\",\"query\":{\"q\":\"q\"}}";
            try (PreparedStatement ps = c.prepareStatement("insert into mcp_tools(workspace_id, server_id, name, endpoint_mapping, method, read_only) values (?, ?, 't', ?, 'GET', true)")) {
                ps.setLong(1, ws);
                ps.setLong(2, server);
                ps.setString(3, mapping); // what EclipseLink does through the converter
                ps.executeUpdate();
            }
            var back = JsonSupport.parseObject(readJson(c, "select endpoint_mapping from mcp_tools where name = 't'"));
            assertEquals(JsonSupport.parseObject(mapping), back, "JSON column keeps an object, not a JSON string");
            assertRejected(c, "insert into mcp_server_configs(workspace_id, slug, name, code_mode) values (" + ws + ", 's2', 'S2', 'sometimes')");
            assertRejected(c, "insert into mcp_tools(workspace_id, server_id, name, endpoint_mapping, method, read_only) values (" + ws + ", " + server + ", 't2', '{}', 'HEAD', true)");
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void monthlyUsageStartsFromTheRunsAlreadyRecorded(Db db) throws Exception {
        Flyway flyway = migratedUpTo(db, "2");
        try (Connection c = connect(db)) {
            c.setSchema(SCHEMA);
            exec(c, "insert into workspaces(slug, name) values ('w1', 'W1')");
            long ws = id(c, "select id from workspaces where slug = 'w1'");
            String[][] runs = {
                    {"SUCCESS", null, "2026-10-31 23:59:59"}, {"ERROR", "boom", "2026-11-01 00:00:00"},
                    {"SUCCESS", null, "2026-11-15 12:00:00"}, {"LIMIT", "Monthly code-run quota reached: ...", "2026-11-16 12:00:00"},
                    {"REFUSED", "runner down", "2026-11-17 12:00:00"}, {"LIMIT", "slots busy", "2026-11-18 12:00:00"}};
            int n = 0;
            for (String[] run : runs) {
                try (PreparedStatement ps = c.prepareStatement("insert into code_runs(run_id, workspace_id, inline_run, run_as_mode, run_as_role,"
                        + " code_sha256, status, error, started_at) values (?, ?, true, 'invoker', 'admin', 'x', ?, ?, cast(? as timestamp))")) {
                    ps.setString(1, "r" + n++);
                    ps.setLong(2, ws);
                    ps.setString(3, run[0]);
                    ps.setString(4, run[1]);
                    ps.setString(5, run[2]);
                    ps.executeUpdate();
                }
            }
        }
        assertTrue(flyway.migrate().migrationsExecuted >= 1, "V3 and later apply over the runs");
        try (Connection c = connect(db)) {
            c.setSchema(SCHEMA);
            assertEquals(1, id(c, "select runs from code_run_usage where month_key = 202610"));
            assertEquals(3, id(c, "select runs from code_run_usage where month_key = 202611"),
                    "refused and quota-refused runs do not count; errors and slot limits do");
            assertRejected(c, "update code_run_usage set runs = -1");
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void operatorsStandOutsideWorkspacesAndMembersInsideOne(Db db) throws Exception {
        try (Connection c = freshlyMigrated(db)) {
            exec(c, "insert into workspaces(slug, name) values ('w1', 'W1')");
            long ws = id(c, "select id from workspaces where slug = 'w1'");
            assertEquals(1, id(c, "select count(*) from workspaces where enabled = true and id = " + ws), "workspaces start enabled");
            exec(c, "insert into roles(workspace_id, name, capabilities) values (" + ws + ", 'admin', '[]')");
            long role = id(c, "select id from roles where name = 'admin'");
            exec(c, "insert into users(username, is_operator) values ('op', true)");
            exec(c, "insert into users(workspace_id, username, role_id) values (" + ws + ", 'member', " + role + ")");
            long op = id(c, "select id from users where username = 'op'");
            exec(c, "insert into api_keys(user_id, name, key_prefix, key_hash) values (" + op + ", 'k', 'amcp_', 'h1')");
            assertRejected(c, "insert into users(workspace_id, username, role_id, is_operator) values (" + ws + ", 'both', " + role + ", true)");
            assertRejected(c, "insert into users(username) values ('nowhere')");
            assertRejected(c, "insert into users(workspace_id, username) values (" + ws + ", 'roleless')");
            assertEquals(1, id(c, "select count(*) from instance_locks where name = 'operator-bootstrap'"));
        }
    }

    private static void assertRejected(Connection c, String sql) {
        try {
            exec(c, sql);
            throw new AssertionError("constraint did not reject: " + sql);
        } catch (SQLException expected) {
            // the check constraint holds
        }
    }

    private static Flyway flyway(Db db) throws SQLException {
        String product;
        try (Connection c = connect(db)) {
            product = c.getMetaData().getDatabaseProductName();
        }
        return Flyway.configure(MigrationsTest.class.getClassLoader())
                .dataSource(db.url(), db.user(), db.password())
                .schemas(SCHEMA)
                .cleanDisabled(false)
                .locations("filesystem:db/migration")
                .failOnMissingLocations(true)
                .placeholders(Migrations.placeholdersFor(product))
                .load();
    }

    /** Retention's deletes run as written on both databases: old rows go, one batch at a time, and what stays stays. */
    @ParameterizedTest
    @MethodSource("databases")
    void retentionDeletesRunOnBothDatabases(Db db) throws Exception {
        try (Connection c = freshlyMigrated(db)) {
            exec(c, "insert into workspaces (slug, name) values ('ret', 'Retention')");
            long ws = id(c, "select id from workspaces where slug = 'ret'");
            for (int i = 0; i < 3; i++) {
                exec(c, "insert into code_runs (run_id, workspace_id, inline_run, run_as_mode, run_as_role, code_sha256, status, started_at) "
                        + "values ('old-" + i + "', " + ws + ", true, 'invoker', 'admin', 'x', '" + (i == 2 ? "PAUSED" : "SUCCESS") + "', timestamp '2020-01-01 00:00:00')");
                exec(c, "insert into code_run_recordings (run_id, code, recording) values ('old-" + i + "', 'return 1', '{}')");
            }
            exec(c, "insert into admin_audit (at, actor_username, actor_operator, workspace_id, kind, subject, action) "
                    + "values (timestamp '2020-01-01 00:00:00', 'x', false, " + ws + ", 'tool', 's', 'update')");
            exec(c, "insert into code_approvals (id, workspace_id, run_id, tool_id, tool_name, call_scope, input, planned_tool, planned_args, "
                    + "summary, status, created_at, expires_at) values ('a1', " + ws + ", 'r', 1, 't', '{}', '{}', 't', '{}', 's', 'EXPIRED', "
                    + "timestamp '2020-01-01 00:00:00', timestamp '2020-01-02 00:00:00')");
            exec(c, "insert into login_failures (failure_key, failures, last_failure) values ('account:old', 3, timestamp '2020-01-01 00:00:00')");
            exec(c, "insert into login_failures (failure_key, failures, last_failure) values ('account:new', 1, timestamp '2022-01-01 00:00:00')");
            Map<String, Integer> firstBatch = purgeOneBatch(c, 2, Instant.parse("2021-01-01T00:00:00Z"));
            assertEquals(Map.of("recordings", 2, "codeRuns", 2, "approvals", 1, "audit", 1, "clusterEvents", 0, "loginFailures", 1, "editorSessions", 0), firstBatch,
                    "a batch of 2; the paused run stays");
            assertEquals(1, id(c, "select count(*) from code_runs where workspace_id = " + ws));
            assertEquals(1, id(c, "select count(*) from code_run_recordings"));
        }
    }

    /**
     * The newest migration of the first release. The first wave of work (2026-11-29) ended with V4; the work after it
     * (2026-12-01 on) treats that wave as installed: CodeToolPinUpgrade re-pins code tools "saved by an earlier release"
     * with the hash of their code alone, which only the V1 to V4 code wrote (docs/code-mode.md).
     */
    private static final String FIRST_RELEASE = "4";

    /**
     * An install of the first release (V1 to V4), with data in it, migrates to the current schema and keeps its data:
     * every row with every value, the defaults later migrations give their new columns, enforced foreign keys, and the
     * gateway's reads of the current schema (its entities, the start-time code-tool upgrade, retention) on those rows.
     */
    @ParameterizedTest
    @MethodSource("databases")
    void anInstallOfTheFirstReleaseMigratesToTheCurrentSchemaWithItsData(Db db) throws Exception {
        Flyway flyway = migratedUpTo(db, FIRST_RELEASE);
        Map<String, List<String>> firstReleaseColumns;
        Map<String, List<String>> before;
        try (Connection c = connect(db)) {
            c.setSchema(SCHEMA);
            firstReleaseColumns = columnsByTable(c);
            assertEquals(Set.of("workspaces", "roles", "mcp_server_configs", "role_servers", "users", "api_keys", "mcp_tools", "code_runs",
                    "kg_skill_suggestions", "license", "code_run_usage", "mcp_cancellations"), firstReleaseColumns.keySet());
            writeAsTheFirstReleaseDid(c);
            before = contents(c, firstReleaseColumns);
        }
        before.forEach((table, rows) -> assertFalse(rows.isEmpty(), table + " holds rows, so the comparison below covers it"));

        MigrateResult upgrade = flyway.migrate();
        assertEquals("5", upgrade.migrations.get(0).version, "the upgrade starts right after the first release");
        assertEquals(0, flyway.info().pending().length, "and ends at the newest migration");

        try (Connection c = connect(db)) {
            c.setSchema(SCHEMA);
            Map<String, List<String>> after = contents(c, firstReleaseColumns);
            before.forEach((table, rows) -> assertEquals(rows, after.get(table), "every row of " + table + ", with every value it had"));

            // New NOT NULL columns take the defaults their migrations give; new nullable ones invent nothing.
            assertEquals(List.of("acme"), strings(c, "select slug from workspaces where enabled = true"), "V5: workspaces stay enabled");
            assertEquals(List.of("alice", "bob", "carol"), strings(c, "select username from users where is_operator = false"
                    + " and email is null and sso_issuer is null and sso_subject is null order by username"), "V5, V8: members without SSO");
            assertEquals(List.of("admin", "member", "support", "viewer"), strings(c, "select name from roles where approve_writes = false"
                    + " order by name"), "V12: no role has writes approved by a human until an admin says so");
            assertEquals(List.of("run-inline", "run-refused", "run-tool"), strings(c, "select run_id from code_runs where run_kind = 'live'"
                    + " and replay_of is null and approval_id is null and approval is null and approval_by is null and approval_at is null"
                    + " order by run_id"), "V11, V12: every earlier run was a live run, decided by nobody");
            assertEquals(List.of("operator-bootstrap"), strings(c, "select name from instance_locks"), "V5's seed row");
            assertEquals(List.of("retention", "unfinished-code-runs", "upstream-refresh"), strings(c, "select name from scheduled_work order by name"),
                    "V15's, V17's and V20's seed rows");

            // Foreign keys still hold: V5 made a user's workspace and role optional, not their references.
            long ws = id(c, "select id from workspaces where slug = 'acme'");
            long alice = id(c, "select id from users where username = 'alice'");
            assertRejected(c, "insert into users (workspace_id, username, role_id) values (" + ws + ", 'ghost', 999999)");
            assertRejected(c, "insert into api_keys (workspace_id, user_id, name, key_prefix, key_hash) values (999999, " + alice
                    + ", 'k', 'amcp_', 'no-such-workspace')");
            assertRejected(c, "delete from roles where name = 'admin'"); // alice holds it
            assertRejected(c, "insert into mcp_tools (workspace_id, server_id, name, endpoint_mapping, method, read_only) values ("
                    + ws + ", 999999, 'orphan', '{}', 'GET', true)");
            // and the tables of later releases reference the first release's rows.
            exec(c, "insert into code_run_recordings (run_id, code, recording) values ('run-tool', 'return 1', '{}')");
            assertRejected(c, "insert into code_run_recordings (run_id, code, recording) values ('no-such-run', 'return 1', '{}')");

            // The gateway's reads of the current schema work on these rows: every column its entities map,
            for (Class<?> entity : List.of(Workspace.class, Role.class, McpServerConfig.class, UserAccount.class, ApiKey.class,
                    McpTool.class, CodeRun.class, SkillSuggestion.class, License.class)) {
                String table = entity.getAnnotation(Table.class).name();
                assertEquals(before.get(table).size(), strings(c, "select " + String.join(", ", mappedColumns(entity)) + " from " + table).size(),
                        entity.getSimpleName() + " reads every row of " + table);
            }
            // what CodeToolPinUpgrade picks at the next start (no schema pins yet, pinned to the hash of its code alone),
            var codeTool = CodeToolSpec.from(JsonSupport.parseObject(readJson(c,
                    "select endpoint_mapping from mcp_tools where method = 'code' and uses_schema_pins is null")));
            assertEquals(Hashes.sha256(codeTool.code()), string(c, "select pinned_code_sha256 from mcp_tools where method = 'code'"),
                    "the code-only pin the upgrade re-pins");
            // and retention, which takes the old run and leaves the month's count.
            assertEquals(Map.of("recordings", 0, "codeRuns", 1, "approvals", 0, "audit", 0, "clusterEvents", 0, "loginFailures", 0, "editorSessions", 0),
                    purgeOneBatch(c, 1000, Instant.parse("2026-11-01T00:00:00Z")));
            assertEquals(List.of("run-inline", "run-tool"), strings(c, "select run_id from code_runs order by run_id"));
            assertEquals(2, id(c, "select runs from code_run_usage where month_key = 202611"));
        }
    }

    /**
     * A small but whole install as the first release's code wrote it: the built-in roles and one an admin added, servers
     * with HTTP and code tools, people with a PBKDF2 password hash (or none), keys (one narrowed, one revoked), runs and
     * their monthly count, a forwarded cancellation, a proposed code tool and a license.
     */
    private static void writeAsTheFirstReleaseDid(Connection c) throws SQLException {
        long ws = insert(c, "workspaces", "slug", "acme", "name", "Acme Corp", "created_at", at("2026-11-29 10:00:00"));
        long admin = insert(c, "roles", "workspace_id", ws, "name", "admin", "builtin", true, "capabilities", "[\"admin\",\"tools.write\"]");
        long member = insert(c, "roles", "workspace_id", ws, "name", "member", "builtin", true, "capabilities", "[\"tools.write\"]");
        long viewer = insert(c, "roles", "workspace_id", ws, "name", "viewer", "builtin", true, "capabilities", "[]");
        long support = insert(c, "roles", "workspace_id", ws, "name", "support", "capabilities", "[\"inlineCode\"]", "all_servers", false);
        long shop = insert(c, "mcp_server_configs", "workspace_id", ws, "slug", "shop", "name", "Shop", "description", "Orders and notes",
                "code_mode", "inline");
        long crm = insert(c, "mcp_server_configs", "workspace_id", ws, "slug", "crm", "name", "CRM");
        insert(c, "role_servers", "role_id", support, "server_id", shop);

        long alice = insert(c, "users", "workspace_id", ws, "username", "alice", "display_name", "Alice Admin", "role_id", admin,
                "password_hash", "PBKDF2WithHmacSHA256:210000:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA==");
        long bob = insert(c, "users", "workspace_id", ws, "username", "bob", "role_id", member, "enabled", false,
                "password_hash", "PBKDF2WithHmacSHA256:210000:YW5vdGhlcnNhbHQxMjM0NQ==:b3RoZXJoYXNob3RoZXJoYXNob3RoZXJoYXNo");
        long carol = insert(c, "users", "workspace_id", ws, "username", "carol", "role_id", support); // keys only, no password
        long aliceKey = insert(c, "api_keys", "workspace_id", ws, "user_id", alice, "name", "laptop", "key_prefix", "amcp_Qx7tLw",
                "key_hash", Hashes.sha256("amcp_Qx7tLw0Ypf3mZ1vK8sNc2RaUeJ5hGiDbTq9oXyW4lE6"), "last_used_at", at("2026-11-29 12:00:00"));
        insert(c, "api_keys", "workspace_id", ws, "user_id", bob, "role_id", viewer, "name", "read only", "key_prefix", "amcp_8dKqz2",
                "key_hash", Hashes.sha256("amcp_8dKqz2Vn4bS0cHw7jLr1tYmAeX3uF9gPoQ6iZ5kN2sD"), "expires_at", at("2027-01-01 00:00:00"),
                "revoked_at", at("2026-11-29 13:00:00"));
        long carolKey = insert(c, "api_keys", "workspace_id", ws, "user_id", carol, "name", "agent", "key_prefix", "amcp_Zr5mNc",
                "key_hash", Hashes.sha256("amcp_Zr5mNc1aB7dE2fG8hJ3kL9mP4qR0sT6uV5wX1yZ2aB3"));

        insert(c, "mcp_tools", "workspace_id", ws, "server_id", shop, "name", "get_order", "title", "Get an order",
                "description", "One order by its id", "method", "GET", "read_only", true,
                "input_schema", "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"}},\"required\":[\"orderId\"]}",
                "output_schema", "{\"type\":\"object\",\"properties\":{\"status\":{\"type\":\"string\"}}}",
                "endpoint_mapping", "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_SHOP}/orders/{orderId}\",\"credential\":\"SHOP\"}");
        insert(c, "mcp_tools", "workspace_id", ws, "server_id", crm, "name", "add_note", "method", "POST", "read_only", false, "enabled", false,
                "input_schema", "{\"type\":\"object\",\"properties\":{\"note\":{\"type\":\"string\"}}}",
                "endpoint_mapping", "{\"method\":\"POST\",\"url\":\"https://crm.example/notes\",\"body\":[\"note\"],\"timeoutMs\":5000}");
        String code = "const o = await amcp.run('get_order', {orderId: input.orderId}); return o.status;";
        long summary = insert(c, "mcp_tools", "workspace_id", ws, "server_id", shop, "name", "order_status", "method", "code", "read_only", true,
                "endpoint_mapping", JsonSupport.JSON.createObjectBuilder().add("method", "code").add("code", code)
                        .add("uses", JsonSupport.JSON.createArrayBuilder().add("get_order")).add("runAs", "definer").add("allowWrites", false)
                        .build().toString(),
                "definer_user_id", alice, "definer_role_id", admin, "pinned_code_sha256", Hashes.sha256(code), "version", 2);

        insert(c, "code_runs", "run_id", "run-tool", "workspace_id", ws, "server_id", shop, "tool_id", summary, "tool_name", "order_status",
                "inline_run", false, "invoker_user_id", carol, "invoker_key_id", carolKey, "run_as_mode", "definer", "run_as_role", "admin",
                "code_sha256", Hashes.sha256(code), "status", "SUCCESS", "bridge_trace", "{\"calls\":[{\"tool\":\"get_order\",\"ms\":12}]}",
                "bridge_calls", 1, "input_bytes", 20, "output_bytes", 9, "console_bytes", 6, "console_tail", "done\n",
                "started_at", at("2026-11-29 12:01:00"), "finished_at", at("2026-11-29 12:01:01"), "wall_ms", 140);
        insert(c, "code_runs", "run_id", "run-inline", "workspace_id", ws, "server_id", shop, "inline_run", true, "invoker_user_id", alice,
                "invoker_key_id", aliceKey, "run_as_mode", "invoker", "run_as_role", "admin", "code_sha256", Hashes.sha256("throw 1"),
                "status", "ERROR", "error", "Uncaught 1", "started_at", at("2026-11-29 12:05:00"), "finished_at", at("2026-11-29 12:05:00"), "wall_ms", 30);
        insert(c, "code_runs", "run_id", "run-refused", "workspace_id", ws, "inline_run", true, "run_as_mode", "invoker", "run_as_role", "viewer",
                "code_sha256", Hashes.sha256("return 1"), "status", "REFUSED", "error", "code runner unavailable",
                "started_at", at("2026-10-30 09:00:00"));
        insert(c, "code_run_usage", "workspace_id", ws, "month_key", 202611, "runs", 2L); // the refused run did not count

        insert(c, "mcp_cancellations", "request_key_sha256", Hashes.sha256("acme:session-1:42"), "reason", "user cancelled",
                "created_at", at("2026-11-29 12:06:00"));
        insert(c, "kg_skill_suggestions", "workspace_id", ws, "server_id", shop, "kind", "code_tool", "name", "late_orders",
                "payload", "{\"code\":\"return []\",\"uses\":[\"get_order\"]}", "proposed_by", carol, "created_at", at("2026-11-29 12:10:00"));
        insert(c, "license", "edition", "team", "licensee", "Acme Corp", "document", "{\"licensee\":\"Acme Corp\",\"edition\":\"team\"}",
                "signature", "bWFkZS11cC1zaWduYXR1cmU=", "features", "{\"codeMode\":true,\"monthlyRuns\":10000}",
                "issued_at", at("2026-11-01 00:00:00"), "expires_at", at("2027-11-01 00:00:00"));
    }

    /** The scratch schema cleaned and migrated up to {@code version} only; the Flyway answered migrates the rest. */
    private static Flyway migratedUpTo(Db db, String version) throws SQLException {
        Flyway flyway = flyway(db);
        flyway.clean();
        Flyway.configure(MigrationsTest.class.getClassLoader()).configuration(flyway.getConfiguration()).target(version).load().migrate();
        return flyway;
    }

    /** A connection to the scratch schema, cleaned and migrated to the latest version. */
    private static Connection freshlyMigrated(Db db) throws SQLException {
        Flyway flyway = flyway(db);
        flyway.clean();
        flyway.migrate();
        Connection c = connect(db);
        c.setSchema(SCHEMA);
        return c;
    }

    /** Runs each of retention's deletes once, as the purge does per batch; answers the rows each deleted. */
    private static Map<String, Integer> purgeOneBatch(Connection c, int batch, Instant cutoff) throws SQLException {
        Map<String, Integer> deleted = new LinkedHashMap<>();
        for (var statement : Retention.statements(batch).entrySet()) {
            try (var st = c.prepareStatement(statement.getValue().replace("?1", "?"))) {
                st.setTimestamp(1, Timestamp.from(cutoff));
                deleted.put(statement.getKey(), st.executeUpdate());
            }
        }
        return deleted;
    }

    /** Inserts one row given as column, value, column, value, ...; answers its generated id (0 for a table without one). */
    private static long insert(Connection c, String table, Object... columnsAndValues) throws SQLException {
        StringJoiner columns = new StringJoiner(", ");
        StringJoiner marks = new StringJoiner(", ");
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            columns.add((String) columnsAndValues[i]);
            marks.add("?");
        }
        try (PreparedStatement ps = c.prepareStatement("insert into " + table + " (" + columns + ") values (" + marks + ")",
                Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 1; i < columnsAndValues.length; i += 2) {
                ps.setObject(i / 2 + 1, columnsAndValues[i]);
            }
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (keys.next()) {
                    for (int i = 1; i <= keys.getMetaData().getColumnCount(); i++) {
                        if (keys.getMetaData().getColumnLabel(i).equalsIgnoreCase("id")) {
                            return keys.getLong(i);
                        }
                    }
                }
                return 0;
            }
        }
    }

    private static Timestamp at(String localDateTime) {
        return Timestamp.valueOf(localDateTime);
    }

    /** Every table of the scratch schema but Flyway's own, with its columns in their order. */
    private static Map<String, List<String>> columnsByTable(Connection c) throws SQLException {
        Map<String, List<String>> columns = new TreeMap<>();
        try (ResultSet rs = c.getMetaData().getColumns(null, SCHEMA, "%", "%")) {
            while (rs.next()) {
                String table = rs.getString("TABLE_NAME").toLowerCase();
                if (!table.equals("flyway_schema_history")) {
                    columns.computeIfAbsent(table, t -> new ArrayList<>()).add(rs.getString("COLUMN_NAME").toLowerCase());
                }
            }
        }
        return columns;
    }

    /** Each table's rows over the given columns, a row as one sorted "column=value, ..." line. */
    private static Map<String, List<String>> contents(Connection c, Map<String, List<String>> columnsByTable) throws SQLException {
        Map<String, List<String>> contents = new TreeMap<>();
        for (var table : columnsByTable.entrySet()) {
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = c.createStatement().executeQuery("select " + String.join(", ", table.getValue()) + " from " + table.getKey())) {
                while (rs.next()) {
                    StringJoiner row = new StringJoiner(", ");
                    for (String column : table.getValue()) {
                        row.add(column + "=" + rs.getString(column));
                    }
                    rows.add(row.toString());
                }
            }
            rows.sort(null);
            contents.put(table.getKey(), rows);
        }
        return contents;
    }

    /** The columns the gateway's JPA provider reads for an entity: each persistent field's column name, or its own name. */
    private static List<String> mappedColumns(Class<?> entity) {
        List<String> columns = new ArrayList<>();
        for (Field field : entity.getDeclaredFields()) {
            boolean persistent = !Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())
                    && !field.isAnnotationPresent(Transient.class) && !field.isAnnotationPresent(ElementCollection.class);
            if (persistent) {
                Column column = field.getAnnotation(Column.class);
                columns.add(column == null || column.name().isEmpty() ? field.getName() : column.name());
            }
        }
        return columns;
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static Connection connect(Db db) throws SQLException {
        var props = new java.util.Properties();
        props.setProperty("user", db.user());
        props.setProperty("password", db.password());
        props.setProperty("stringtype", "unspecified"); // as the server's data source sets it
        return DriverManager.getConnection(db.url(), props);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        c.createStatement().execute(sql);
    }

    private static long id(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String string(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String readJson(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getObject(1).toString(); // PGobject on PostgreSQL, String on H2: the converter's path
        }
    }
}
