package dev.amcp.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Migrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        Flyway flyway = flyway(db);
        flyway.clean();
        Flyway.configure(MigrationsTest.class.getClassLoader()).configuration(flyway.getConfiguration()).target("2").load().migrate();
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
            Map<String, Integer> firstBatch = new java.util.LinkedHashMap<>();
            for (var statement : dev.amcp.gateway.audit.control.Retention.statements(2).entrySet()) {
                try (var st = c.prepareStatement(statement.getValue().replace("?1", "?"))) {
                    st.setTimestamp(1, java.sql.Timestamp.from(java.time.Instant.parse("2021-01-01T00:00:00Z")));
                    firstBatch.put(statement.getKey(), st.executeUpdate());
                }
            }
            assertEquals(Map.of("recordings", 2, "codeRuns", 2, "approvals", 1, "audit", 1, "clusterEvents", 0, "loginFailures", 1), firstBatch,
                    "a batch of 2; the paused run stays");
            assertEquals(1, id(c, "select count(*) from code_runs where workspace_id = " + ws));
            assertEquals(1, id(c, "select count(*) from code_run_recordings"));
        }
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
