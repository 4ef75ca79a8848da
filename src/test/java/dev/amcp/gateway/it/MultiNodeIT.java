package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Several gateway nodes, proven (issue #29): {@code bench/cluster.sh} starts two Open Liberty servers running the
 * built WAR on one fresh PostgreSQL database, each with its own code runner, behind HAProxy balancing round-robin with
 * no affinity; the official MCP Java SDK client then talks to the demo server through HAProxy only, and each node's
 * own log says which of the client's requests it served.
 *
 * <p>No Arquillian: this class has no {@code ArquillianExtension} and no {@code @Deployment}, so failsafe runs it as
 * a plain JUnit test and the managed Arquillian server is neither needed nor started for it (it starts lazily, with
 * the first Arquillian test class of the run). It needs PostgreSQL (two nodes cannot share an embedded H2 file):
 * {@code DB_URL}'s server when that is a PostgreSQL URL, else {@code 127.0.0.1:5432} as {@code postgres}; without one
 * it is skipped. The database it hands the topology, {@code it.cluster.db} (default {@code cluster}), is dropped and
 * created anew first, so the first node migrates an empty schema and seeds the demo with this test's fixed key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiNodeIT {

    static final Path SCRIPT = Path.of("bench", "cluster.sh").toAbsolutePath();
    static final Path CLUSTER = Path.of("target", "cluster").toAbsolutePath();
    static final int PORT = Integer.getInteger("it.cluster.port", 9300);
    static final String BALANCER = "http://127.0.0.1:" + PORT;
    static final String STATS = "http://127.0.0.1:" + (PORT + 90) + "/stats;csv";
    static final String DEMO_KEY = "amcp_multinode-it-demo-key-0123456789abcdef";
    static final String DATABASE = System.getProperty("it.cluster.db", "cluster");
    static final int CALLS = 20;
    /** A node's summary line of one request (AMCP_REQUEST_LOG=all): {@code request <id> <method> <path> -> <status>}. */
    static final Pattern SUMMARY = Pattern.compile("request (\\S+) (\\S+) (\\S+) -> (\\S+) in");

    boolean started;

    @BeforeAll
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void startTopology() throws Exception {
        String dbUrl = freshDatabase();
        started = true; // from here on, always stop: a start that fails half-way stops itself, a later one may not
        Map<String, String> env = new HashMap<>();
        env.put("DB_URL", dbUrl);
        env.put("DB_USER", dbUser());
        env.put("DB_PASSWORD", dbPassword());
        env.put("CLUSTER_PORT", String.valueOf(PORT));
        env.put("AMCP_DEMO_API_KEY", DEMO_KEY);
        Result start = cluster("start", env, Duration.ofMinutes(25));
        if (start.exit != 0) {
            fail("bench/cluster.sh start failed (exit " + start.exit + "):\n" + start.output);
        }
    }

    @AfterAll
    void stopTopology() throws Exception {
        if (started) {
            Result stop = cluster("stop", Map.of(), Duration.ofMinutes(5));
            System.out.println("[multinode-it] bench/cluster.sh stop -> " + stop.exit + "\n" + stop.output);
        }
    }

    @Test
    void mcpCallsThroughTheBalancerAllSucceedAndBothNodesServeThem() throws Exception {
        Map<String, Long> before = sessionsPerNode();
        // Every request the SDK client sends carries an id of this run; each node logs the ids it served.
        String run = "multinode-" + UUID.randomUUID().toString().substring(0, 8);
        AtomicInteger sent = new AtomicInteger();
        Set<String> ids = Collections.synchronizedSet(new LinkedHashSet<>());
        McpSyncClient client = McpHttp.sdkClientAt(BALANCER, "/mcp/demo", request -> {
            String id = run + "-" + sent.incrementAndGet();
            ids.add(id);
            request.setHeader("Authorization", "Bearer " + DEMO_KEY);
            request.setHeader("X-Request-Id", id);
        });
        try (client) {
            client.initialize();
            for (int i = 1; i <= CALLS; i++) {
                McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", 7)));
                assertFalse(Boolean.TRUE.equals(result.isError()), "call " + i + ": " + result);
                Object structured = result.structuredContent();
                assertTrue(structured instanceof Map<?, ?> customer && "7".equals(String.valueOf(customer.get("id"))),
                        "call " + i + " answers customer 7: " + result);
            }
        }

        // Each node's own evidence: the summary lines of this run's requests in its messages.log.
        Map<String, List<String>> served = awaitServed(run, ids);
        List<String> onA = served.get("a");
        List<String> onB = served.get("b");
        Set<String> both = new LinkedHashSet<>(onA);
        both.retainAll(onB);
        assertTrue(both.isEmpty(), "no request is served by both nodes: " + both);
        Set<String> logged = new LinkedHashSet<>(onA);
        logged.addAll(onB);
        assertEquals(ids, logged, "every request the client sent is in exactly one node's log");
        assertTrue(ids.size() >= CALLS + 1, "the client sent initialize and " + CALLS + " calls: " + ids);
        // Round-robin without affinity alternates the nodes request by request; a balancer that kept the client's
        // connection on one node (or sent everything to one node) leaves the other with none.
        int least = ids.size() / 4;
        assertTrue(onA.size() >= least && onB.size() >= least, "both nodes served MCP requests (each at least "
                + least + " of " + ids.size() + "): node a " + onA.size() + ", node b " + onB.size());

        // HAProxy's own count agrees: sessions per backend server went up on both.
        Map<String, Long> after = sessionsPerNode();
        long deltaA = after.get("node-a") - before.get("node-a");
        long deltaB = after.get("node-b") - before.get("node-b");
        System.out.printf("[multinode-it] %d MCP requests: node a served %d, node b %d; HAProxy sessions node-a +%d, node-b +%d%n",
                ids.size(), onA.size(), onB.size(), deltaA, deltaB);
        assertTrue(deltaA >= onA.size() && deltaB >= onB.size(), "HAProxy counts at least the requests each node logged: node-a +"
                + deltaA + " (logged " + onA.size() + "), node-b +" + deltaB + " (logged " + onB.size() + ")");
    }

    /**
     * A key revoked on node a is refused on node b within a second, although node b had just accepted it and keeps
     * who a key is for {@code AMCP_ACCESS_CACHE_SECONDS} (5 s): node a tells node b through {@code cluster_events}.
     */
    @Test
    void aKeyRevokedOnOneNodeIsRefusedOnTheOtherWithinASecond() throws Exception {
        String nodeA = "http://127.0.0.1:" + (PORT + 1);
        String nodeB = "http://127.0.0.1:" + (PORT + 2);
        String slug = "mn-" + UUID.randomUUID().toString().substring(0, 8);
        var created = McpHttp.parse(send(nodeA, "POST", "/api/workspaces", OPERATOR_KEY, "{\"slug\":\"" + slug + "\",\"name\":\"Multi node\","
                + "\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"a-long-password-1234\"}}", 201)).asJsonObject();
        String adminKey = created.getJsonObject("admin").getString("apiKey");
        var issued = McpHttp.parse(send(nodeA, "POST", "/api/users/" + slug + "-admin/keys", adminKey, "{\"name\":\"to revoke\"}", 201)).asJsonObject();
        String key = issued.getString("key");
        send(nodeB, "GET", "/api/tools", key, null, 200); // node b now keeps who this key is

        send(nodeA, "DELETE", "/api/users/" + slug + "-admin/keys/" + issued.getJsonNumber("id").longValue(), adminKey, null, 204);
        long revoked = System.nanoTime();
        int status = 200;
        while (status == 200 && System.nanoTime() - revoked < TimeUnit.SECONDS.toNanos(3)) {
            status = request(nodeB, "GET", "/api/tools", key, null).statusCode();
            if (status == 200) {
                Thread.sleep(25);
            }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revoked);
        System.out.printf("[multinode-it] a key revoked on node a was refused on node b after %d ms%n", millis);
        assertEquals(401, status, "node b refuses the revoked key");
        assertTrue(millis <= 1000, "node b refused the revoked key within 1 s, not after its cache's 5 s: " + millis + " ms");
    }

    static final String OPERATOR_KEY = "amcp_cluster-operator-key-0123456789abcdef";

    static HttpResponse<String> request(String base, String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", "Bearer " + key);
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String send(String base, String method, String path, String key, String body, int expected) throws Exception {
        HttpResponse<String> r = request(base, method, path, key, body);
        assertEquals(expected, r.statusCode(), method + " " + path + ": " + r.body());
        return r.body();
    }

    /** The ids of this run each node logged, per node ("a", "b"), once all sent ids are logged (or after 20 s). */
    Map<String, List<String>> awaitServed(String run, Set<String> ids) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Map<String, List<String>> served = Map.of("a", servedBy("a", run), "b", servedBy("b", run));
            if (served.get("a").size() + served.get("b").size() >= ids.size() || System.nanoTime() > deadline) {
                return served;
            }
            Thread.sleep(500);
        }
    }

    static List<String> servedBy(String node, String run) throws IOException {
        Path log = CLUSTER.resolve("usr/servers/amcp-node-" + node + "/logs/messages.log");
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = SUMMARY.matcher(line);
            if (m.find() && m.group(1).startsWith(run + "-") && m.group(3).equals("/mcp/demo")) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    /** HAProxy's cumulative sessions ({@code stot}) per backend server, from its statistics CSV. */
    static Map<String, Long> sessionsPerNode() throws Exception {
        HttpResponse<String> csv = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(STATS)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, csv.statusCode(), "HAProxy statistics: " + csv.body());
        String[] lines = csv.body().split("\n");
        List<String> header = List.of(lines[0].replaceFirst("^# ", "").split(","));
        int stot = header.indexOf("stot");
        int status = header.indexOf("status");
        Map<String, Long> sessions = new HashMap<>();
        for (String line : lines) {
            String[] f = line.split(",", -1);
            if (f.length > stot && f[0].equals("gateways") && f[1].startsWith("node-")) {
                assertEquals("UP", f[status], "HAProxy sees " + f[1] + " UP: " + line);
                sessions.put(f[1], Long.parseLong(f[stot]));
            }
        }
        assertEquals(Set.of("node-a", "node-b"), sessions.keySet(), "HAProxy balances over both nodes: " + csv.body());
        return sessions;
    }

    // --- the database and the script ---

    /**
     * Drops and creates the topology's database on the PostgreSQL server of {@code DB_URL} (or the local one) and
     * answers its JDBC URL; skips the test when no PostgreSQL is configured and none answers locally.
     */
    static String freshDatabase() throws SQLException {
        String configured = System.getenv("DB_URL");
        boolean postgres = configured != null && configured.startsWith("jdbc:postgresql:");
        Matcher server = Pattern.compile("^(jdbc:postgresql://[^/?]+)").matcher(postgres ? configured : "jdbc:postgresql://127.0.0.1:5432");
        assertTrue(server.find(), "a PostgreSQL URL with a host: " + configured);
        // The server's maintenance database, never DB_URL's own: that one may be the database to drop.
        String admin = server.group(1) + "/postgres";
        Connection connection;
        try {
            DriverManager.setLoginTimeout(10);
            connection = DriverManager.getConnection(admin, dbUser(), dbPassword());
        } catch (SQLException e) {
            if (postgres) {
                throw e;
            }
            Assumptions.abort("MultiNodeIT needs PostgreSQL (two nodes share one database): DB_URL is not a PostgreSQL URL and "
                    + admin + " does not answer (" + e.getMessage() + ")");
            throw e;
        }
        try (connection; Statement s = connection.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS \"" + DATABASE + "\" WITH (FORCE)");
            s.execute("CREATE DATABASE \"" + DATABASE + "\"");
        }
        return server.group(1) + "/" + DATABASE;
    }

    static String dbUser() {
        return postgresEnv("DB_USER", "postgres");
    }

    static String dbPassword() {
        return postgresEnv("DB_PASSWORD", "postgres");
    }

    /** DB_USER and DB_PASSWORD count only with a PostgreSQL DB_URL (with H2 they name H2's user). */
    static String postgresEnv(String name, String fallback) {
        String url = System.getenv("DB_URL");
        String value = System.getenv(name);
        return url != null && url.startsWith("jdbc:postgresql:") && value != null ? value : fallback;
    }

    record Result(int exit, String output) {}

    /** Runs {@code bench/cluster.sh <command>}; its output goes to a file (never a pipe a background child could hold). */
    static Result cluster(String command, Map<String, String> env, Duration timeout) throws Exception {
        Files.createDirectories(CLUSTER.getParent());
        Path output = CLUSTER.getParent().resolve("multinode-it-cluster-" + command + ".log");
        ProcessBuilder builder = new ProcessBuilder(SCRIPT.toString(), command).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        return new Result(finished ? process.exitValue() : -1,
                finished ? text : text + "\n(killed after " + timeout.toSeconds() + " s; log " + output + ")");
    }
}
