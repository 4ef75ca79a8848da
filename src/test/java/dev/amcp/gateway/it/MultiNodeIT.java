package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.amcp.gateway.governance.TestLicenses;
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
 * Several gateway nodes, proven: {@code bench/cluster.sh} starts two Open Liberty servers running the
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
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
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
    /** The topology's database (JDBC URL), for reading its rows. */
    String databaseUrl;
    /** The nodes reach PostgreSQL through this relay, so that a test can stop the database for them alone. */
    CuttablePort database;

    @BeforeAll
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void startTopology() throws Exception {
        String dbUrl = freshDatabase();
        databaseUrl = dbUrl;
        Matcher server = Pattern.compile("^jdbc:postgresql://([^/:]+)(?::(\\d+))?/(.*)$").matcher(dbUrl);
        assertTrue(server.find(), dbUrl);
        database = new CuttablePort(server.group(1), server.group(2) == null ? 5432 : Integer.parseInt(server.group(2)));
        started = true; // from here on, always stop: a start that fails half-way stops itself, a later one may not
        Map<String, String> env = new HashMap<>();
        env.put("DB_URL", "jdbc:postgresql://127.0.0.1:" + database.port() + "/" + server.group(3));
        env.put("DB_USER", dbUser());
        env.put("DB_PASSWORD", dbPassword());
        env.put("CLUSTER_PORT", String.valueOf(PORT));
        env.put("AMCP_DEMO_API_KEY", DEMO_KEY);
        // A tool list stream (listen or GET) looks again on its own only every minute, so a change it reports in time came
        // from the other node.
        env.put("AMCP_MCP_LISTEN_POLL_MS", "60000");
        env.put("AMCP_LICENSE_EXTRA_TRUSTED_KEYS", TestLicenses.TEST_PUBLIC_KEY); // the approval test writes, an Enterprise feature
        env.put("AMCP_UPSTREAM_REFRESH_MINUTES", "1"); // scheduled work, to see that one node at a time does it
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
        if (database != null) {
            database.close();
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
        String nodeA = NODE_A;
        String nodeB = NODE_B;
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
    static final String NODE_A = "http://127.0.0.1:" + (PORT + 1);
    static final String NODE_B = "http://127.0.0.1:" + (PORT + 2);

    /**
     * The sign-in throttle counts across nodes: three wrong passwords on node a and two on node b lock the account
     * (the limit is five), and the right password is then refused on node a too. Counted per node, neither would lock.
     */
    @Test
    void loginFailuresCountAcrossNodes() throws Exception {
        String slug = "mn-" + UUID.randomUUID().toString().substring(0, 8);
        send(NODE_A, "POST", "/api/workspaces", OPERATOR_KEY, "{\"slug\":\"" + slug + "\",\"name\":\"Throttle\","
                + "\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"a-long-password-1234\"}}", 201);
        String account = slug + "-admin";
        for (String node : List.of(NODE_A, NODE_B, NODE_A, NODE_B)) {
            assertEquals("/admin/login?error=true", signIn(node, account, "wrong-password").location, "an ordinary failure on " + node);
        }
        SignIn fifth = signIn(NODE_A, account, "wrong-password");
        assertEquals("/admin/login?error=throttled", fifth.location, "the fifth failure, the third on node a, locks the account");
        SignIn right = signIn(NODE_B, account, "a-long-password-1234");
        assertEquals("/admin/login?error=throttled", right.location, "node b knows of the lock: even the right password waits");
        assertTrue(right.retryAfter > 0, "node b says how long: " + right.retryAfter);
    }

    /**
     * The editor needs no affinity: through round-robin HAProxy a person signs in, opens pages and creates an API key,
     * whose one-time display (kept in the session between the form's post and the page it redirects to) reaches them
     * on whichever node serves that page; both nodes served editor pages of this browser, and the session rows hold
     * neither the key nor the user name in clear. With sessions in each node's memory the sign-in itself fails.
     */
    @Test
    void theEditorWorksThroughTheBalancerWithoutAffinity() throws Exception {
        String slug = "mn-" + UUID.randomUUID().toString().substring(0, 8);
        send(NODE_A, "POST", "/api/workspaces", OPERATOR_KEY, "{\"slug\":\"" + slug + "\",\"name\":\"Editor\","
                + "\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"a-long-password-1234\"}}", 201);
        String run = "editor-" + UUID.randomUUID().toString().substring(0, 8);
        AtomicInteger sent = new AtomicInteger();
        var browser = SsoLoginIT.client();
        HttpResponse<String> login = editor(browser, run, sent, "GET", "/admin/login", null);
        HttpResponse<String> signedIn = editor(browser, run, sent, "POST", "/admin/login", SsoLoginIT.form(Map.of(
                "_csrf", SsoLoginIT.csrf(login.body()), "j_username", slug + "-admin", "j_password", "a-long-password-1234")));
        assertEquals(302, signedIn.statusCode());
        String target = signedIn.headers().firstValue("Location").orElse("");
        assertFalse(target.contains("/admin/login"), "signed in through the balancer: " + target);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, editor(browser, run, sent, "GET", "/admin/keys", null).statusCode(), "page " + i);
        }
        HttpResponse<String> keys = editor(browser, run, sent, "GET", "/admin/keys", null);
        HttpResponse<String> created = editor(browser, run, sent, "POST", "/admin/keys",
                SsoLoginIT.form(Map.of("_csrf", SsoLoginIT.csrf(keys.body()), "name", "made through the balancer", "role", "")));
        assertEquals(302, created.statusCode(), created.body());
        HttpResponse<String> shown = editor(browser, run, sent, "GET", "/admin/keys", null);
        Matcher key = Pattern.compile("id=\"new-key\"[^>]*>(amcp_[A-Za-z0-9_-]+)<").matcher(shown.body());
        assertTrue(key.find(), "the new key is shown once, on the page after the post: " + shown.body());
        assertFalse(editor(browser, run, sent, "GET", "/admin/keys", null).body().contains(key.group(1)), "and only once");
        assertEquals(200, request(BALANCER, "GET", "/api/tools", key.group(1), null).statusCode(), "the key works");

        Map<String, List<String>> served = Map.of("a", servedBy("a", run, "/admin"), "b", servedBy("b", run, "/admin"));
        System.out.printf("[multinode-it] %d editor requests through HAProxy: node a served %d, node b %d%n",
                sent.get(), served.get("a").size(), served.get("b").size());
        assertTrue(!served.get("a").isEmpty() && !served.get("b").isEmpty(), "both nodes served this browser's pages: " + served);
        try (Connection c = DriverManager.getConnection(databaseUrl, dbUser(), dbPassword());
             Statement st = c.createStatement(); var rows = st.executeQuery("select id_hash, data from editor_sessions")) {
            int count = 0;
            while (rows.next()) {
                count++;
                String row = rows.getString(1) + " " + rows.getString(2);
                assertFalse(row.contains(key.group(1)) || row.contains(slug), "a session row in clear: " + row);
            }
            assertTrue(count > 0, "the sessions are rows");
        }
    }

    /** One editor request through HAProxy with this browser's cookies, tagged with an id of this run. */
    static HttpResponse<String> editor(java.net.http.HttpClient browser, String run, AtomicInteger sent, String method, String path,
                                       String form) throws Exception {
        return SsoLoginIT.send(browser, method, BALANCER + path, null, form, "X-Request-Id", run + "-" + sent.incrementAndGet());
    }

    record SignIn(String location, long retryAfter) {}

    /** A password sign-in on one node, in a browser of its own (its session and CSRF token are that node's). */
    static SignIn signIn(String node, String username, String password) throws Exception {
        var browser = SsoLoginIT.client();
        HttpResponse<String> page = SsoLoginIT.send(browser, "GET", node + "/admin/login", null, null);
        HttpResponse<String> posted = SsoLoginIT.send(browser, "POST", node + "/admin/login", null,
                SsoLoginIT.form(Map.of("_csrf", SsoLoginIT.csrf(page.body()), "j_username", username, "j_password", password)));
        assertEquals(302, posted.statusCode(), posted.body());
        String location = posted.headers().firstValue("Location").orElse("").replaceFirst("^https?://[^/]+", "");
        return new SignIn(location, posted.headers().firstValue("Retry-After").map(Long::parseLong).orElse(0L));
    }

    /**
     * A tool saved on node a reaches a 2026-07-28 {@code subscriptions/listen} stream held by node b at once: the stream
     * looks again on its own only every minute here, so only node a's change event can tell it in time.
     */
    @Test
    void aToolSavedOnOneNodeReachesAListenStreamOnTheOther() throws Exception {
        String tool = "mn_listen_" + UUID.randomUUID().toString().substring(0, 8);
        try (McpStatelessIT.Listener listener = McpStatelessIT.Listener.openAt(NODE_B + "/mcp/demo", DEMO_KEY, 9)) {
            assertEquals("notifications/subscriptions/acknowledged", listener.next().getString("method"));
            var changed = saveOnNodeA(tool, listener, "listen stream");
            assertEquals("notifications/tools/list_changed", changed.getString("method"), changed.toString());
            assertEquals(9, changed.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
        }
    }

    /**
     * A tool saved on node a reaches a 2025-11-25 session's standalone {@code GET} event stream held by node b at once, as
     * it reaches a listen stream (above): the stream looks again on its own only every minute here.
     */
    @Test
    void aToolSavedOnOneNodeReachesASessionEventStreamOnTheOther() throws Exception {
        String tool = "mn_get_" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> init = mcp(NODE_B, null, McpHttp.initialize(McpHttp.LATEST));
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        try (McpStatelessIT.Listener stream = McpStatelessIT.Listener.openGet(NODE_B + "/mcp/demo", DEMO_KEY, session)) {
            assertEquals(200, stream.response().statusCode(), "node b opens the session's event stream");
            assertEquals(":", stream.firstLine(), "the stream watches the tool list from here on");
            var changed = saveOnNodeA(tool, stream, "session's GET event stream");
            assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}", changed.toString());
        }
    }

    /**
     * Saves a tool on node a and answers the first message node b's {@code stream} sends after it, which must come within
     * 2 s: the streams' own look is a minute away here, so only node a's change event can make it.
     */
    static jakarta.json.JsonObject saveOnNodeA(String tool, McpStatelessIT.Listener stream, String kind) throws Exception {
        send(NODE_A, "POST", "/api/tools", DEMO_KEY, "{\"server\":\"demo\",\"name\":\"" + tool
                + "\",\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_DEMO}/customers/1\"}}", 201);
        long saved = System.nanoTime();
        var changed = stream.poll(10_000);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - saved);
        assertTrue(changed != null, "node b's " + kind + " tells of the tool saved on node a");
        System.out.printf("[multinode-it] a tool saved on node a reached a %s on node b after %d ms%n", kind, millis);
        assertTrue(millis <= 2000, "within 2 s, not at the stream's own look a minute later: " + millis + " ms");
        return changed;
    }

    /** A 2025-11-25 session that node a started goes on at node b: the session id is a signed token, not node state. */
    @Test
    void aSessionStartedOnOneNodeContinuesOnTheOther() throws Exception {
        HttpResponse<String> init = mcp(NODE_A, null, McpHttp.initialize(McpHttp.LATEST));
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, mcp(NODE_B, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
        HttpResponse<String> call = mcp(NODE_B, session, McpHttp.request(2, "tools/call",
                "{\"name\":\"customer_get\",\"arguments\":{\"customerId\":3}}"));
        assertEquals(200, call.statusCode(), call.body());
        assertTrue(call.body().contains("\"isError\":false") && call.body().contains("\"id\":3"), call.body());
        HttpResponse<String> forged = mcp(NODE_B, session + "x", McpHttp.request(3, "tools/list", "{}"));
        assertEquals(404, forged.statusCode(), "a session id node a did not sign is unknown on node b too: " + forged.body());
    }

    /**
     * A {@code notifications/cancelled} that reaches node b stops the code run node a is executing, long before the run's
     * 10 s timeout: node b records it, node a's run hears of it.
     */
    @Test
    void aCancellationSentToTheOtherNodeStopsTheRun() throws Exception {
        HttpResponse<String> init = mcp(NODE_A, null, McpHttp.initialize(McpHttp.LATEST));
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        long start = System.nanoTime();
        var running = McpHttp.HTTP.sendAsync(mcpRequest(NODE_A, session, McpHttp.request(42, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"while (true) {}\"}}")), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1000); // the run is busy on node a
        HttpResponse<String> cancel = mcp(NODE_B, session,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":42,\"reason\":\"stop\"}}");
        assertEquals(202, cancel.statusCode(), cancel.body());
        HttpResponse<String> answer = running.get(30, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"isError\":true"), answer.body());
        var runs = McpHttp.parse(send(NODE_B, "GET", "/api/code-runs?limit=1", DEMO_KEY, null, 200)).asJsonObject().getJsonArray("runs");
        assertEquals("CANCELLED", runs.getJsonObject(0).getString("status"), runs.toString());
        System.out.printf("[multinode-it] a run on node a, cancelled through node b, ended after %d ms%n", millis);
        assertTrue(millis < 5000, "stopped by the cancellation through node b, not by the 10 s timeout: " + millis + " ms");
    }

    static final String ORDER_CODE = """
            const c = await amcp.run('customer_get', {customerId: input.customerId});
            const o = await amcp.run('order_create', {customerId: c.id, sku: 'SKU-001', quantity: 1, note: input.note});
            return {customer: c.id, order: o.id};
            """;

    /**
     * A write paused through node a is approved on node b, which resumes the run; the caller collects the result through
     * node a, and exactly one order was written (each node has its own demo shop, so both are counted).
     */
    @Test
    @SuppressWarnings("unchecked")
    void anApprovalDecidedOnTheOtherNodeResumesTheRun() throws Exception {
        send(NODE_A, "PUT", "/api/license", OPERATOR_KEY, TestLicenses.sign("enterprise", 100, 10_000), 200);
        String tool = "mn_order_" + UUID.randomUUID().toString().substring(0, 8);
        String schema = "{\"type\":\"object\",\"properties\":{\"customerId\":{\"type\":\"integer\"},\"note\":{\"type\":\"string\"}},"
                + "\"required\":[\"customerId\",\"note\"]}";
        send(NODE_A, "POST", "/api/code-tools", DEMO_KEY, jakarta.json.Json.createObjectBuilder().add("server", "demo").add("name", tool)
                .add("description", "Orders one SKU-001 for a customer").add("inputSchema", McpHttp.parse(schema))
                .add("code", ORDER_CODE).add("uses", jakarta.json.Json.createArrayBuilder().add("customer_get").add("order_create"))
                .add("runAs", "invoker").add("allowWrites", true).add("approval", "always").build().toString(), 201);
        int customer = 4;
        int before = orders(customer);
        Map<String, Object> args = Map.of("customerId", customer, "note", "approved on node b");

        McpSchema.CallToolResult paused = callOn(NODE_A, tool, args, null);
        assertTrue(paused.meta() != null && paused.meta().get("amcp/approval") instanceof Map, paused.toString());
        String id = (String) ((Map<String, Object>) paused.meta().get("amcp/approval")).get("id");
        assertEquals(before, orders(customer), "nothing is written before the approval");

        var approved = McpHttp.parse(send(NODE_B, "POST", "/api/approvals/" + id + "/approve", DEMO_KEY, "", 200)).asJsonObject();
        assertEquals("APPROVED", approved.getString("status"), approved.toString());
        McpSchema.CallToolResult collected = callOn(NODE_A, tool, args, id);
        assertFalse(Boolean.TRUE.equals(collected.isError()), collected.toString());
        Map<String, Object> value = (Map<String, Object>) collected.structuredContent();
        assertEquals(customer, ((Number) value.get("customer")).intValue(), collected.toString());
        assertTrue(value.get("order") != null, collected.toString());
        assertEquals(before + 1, orders(customer), "one order, written once by the resumed run");
    }

    /** A node's log line for a scheduled upstream refresh it ran: its time. */
    static final Pattern REFRESHED = Pattern.compile("^\\[(\\d+/\\d+/\\d+, \\d+:\\d+:\\d+:\\d+) [A-Z]+\\].*Scheduled refresh of upstream MCP servers done");

    /**
     * Scheduled work runs on one node at a time, once per period across the cluster: with a refresh every minute, the
     * refreshes both nodes logged are at least a minute apart. Without the lease each node refreshes every minute on its
     * own, and two of their refreshes fall less than a minute apart whatever the nodes' phase.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 1)
    void theScheduledRefreshRunsOnOneNodeAtATime() throws Exception {
        List<java.time.LocalDateTime> runs = List.of();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            runs = new ArrayList<>(refreshes("a"));
            runs.addAll(refreshes("b"));
            if (runs.size() >= 3) {
                break;
            }
            Thread.sleep(5000);
        }
        List<java.time.LocalDateTime> sorted = runs.stream().sorted().toList();
        System.out.printf("[multinode-it] scheduled refreshes: node a %d, node b %d, at %s%n", refreshes("a").size(), refreshes("b").size(), sorted);
        assertTrue(sorted.size() >= 3, "three scheduled refreshes within the test's time: " + sorted);
        for (int i = 1; i < sorted.size(); i++) {
            long seconds = Duration.between(sorted.get(i - 1), sorted.get(i)).toSeconds();
            assertTrue(seconds >= 59, "one refresh a minute across both nodes, not one per node: " + sorted);
        }
    }

    static List<java.time.LocalDateTime> refreshes(String node) throws IOException {
        var format = java.time.format.DateTimeFormatter.ofPattern("M/d/yy, H:mm:ss:SSS");
        List<java.time.LocalDateTime> at = new ArrayList<>();
        for (String line : Files.readAllLines(CLUSTER.resolve("usr/servers/amcp-node-" + node + "/logs/messages.log"), StandardCharsets.UTF_8)) {
            Matcher m = REFRESHED.matcher(line);
            if (m.find()) {
                at.add(java.time.LocalDateTime.parse(m.group(1), format));
            }
        }
        return at;
    }

    static final int CLIENTS = 8;
    /**
     * Each client's pause between calls: users, not a load test. Back to back, 8 clients kept both cores busy (load
     * average 22: every code run starts a sandbox) and the restarted node took more than 5 minutes to start; with
     * 250 ms, about 3 minutes.
     */
    static final long PAUSE_MS = 500;

    /**
     * A rolling restart loses nothing: eight SDK clients call {@code tools/call} and {@code code_execute} through HAProxy
     * all along while node a, then node b, is drained (readiness DOWN until HAProxy sends it nothing, then what is
     * in flight runs to its end), stopped and started again. Every call succeeds; each node served calls after its restart.
     * Runs last: it restarts both nodes.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void aRollingRestartLosesNoRequest() throws Exception {
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var ok = new AtomicInteger();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        var pool = java.util.concurrent.Executors.newFixedThreadPool(CLIENTS);
        List<java.util.concurrent.Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int customer = c + 1;
            clients.add(pool.submit(() -> callWithoutPause(customer, stop, ok, failures)));
        }
        try {
            awaitCalls(ok, 40);
            for (String node : List.of("a", "b")) {
                int before = ok.get();
                Result restart = cluster("restart " + node, Map.of("CLUSTER_START_TIMEOUT", "600"), Duration.ofMinutes(12));
                System.out.println("[multinode-it] bench/cluster.sh restart " + node + " -> " + restart.exit + "\n" + restart.output);
                System.out.printf("[multinode-it] while node %s restarted: %d calls succeeded, %d failed%n", node, ok.get() - before, failures.size());
                assertEquals(0, restart.exit, "restart " + node + ":\n" + restart.output);
                awaitCalls(ok, 40);
            }
        } finally {
            stop.set(true);
            pool.shutdown();
            assertTrue(pool.awaitTermination(2, TimeUnit.MINUTES), "the clients stop");
        }
        for (var client : clients) {
            client.get();
        }
        System.out.printf("[multinode-it] rolling restart of both nodes under %d clients: %d calls succeeded, %d failed%n",
                CLIENTS, ok.get(), failures.size());
        assertEquals(List.of(), failures, "no call fails while the nodes restart one after the other");
        for (String node : List.of(NODE_A, NODE_B)) {
            var state = McpHttp.parse(send(node, "GET", "/api/node/drain", OPERATOR_KEY, null, 200)).asJsonObject();
            assertFalse(state.getBoolean("draining"), "the restarted node starts ready: " + state);
        }
    }

    /**
     * A node dies under load (SIGKILL: no drain, nothing in flight ends): eight SDK clients call {@code tools/call} and
     * {@code code_execute} through HAProxy, and three code runs that wait 6 s are in flight on node b itself when it
     * is killed. Only what node b held fails: at most one call per client, and the three runs, whose clients get an
     * error at once. Their rows, which the dead node left {@code RUNNING}, are closed as {@code ERROR} by node a
     * within the wall time plus 30 s of their start ({@code UnfinishedRuns}); every call after HAProxy saw node b
     * DOWN succeeds. Node b is then started again, for the rolling restart that runs last.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 1)
    void aNodeKilledUnderLoadLosesOnlyWhatItHeldAndTheOtherClosesItsRuns() throws Exception {
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var ok = new AtomicInteger();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        var pool = java.util.concurrent.Executors.newFixedThreadPool(CLIENTS + 3);
        List<java.util.concurrent.Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int customer = c + 1;
            clients.add(pool.submit(() -> callWithoutPause(customer, stop, ok, failures)));
        }
        String marker = java.util.UUID.randomUUID().toString();
        String slow = "// " + marker + "\nawait new Promise(r => setTimeout(r, 6000)); return 1;";
        String sha = dev.amcp.gateway.platform.control.Hashes.sha256(slow);
        List<java.util.concurrent.Future<String>> inFlight;
        try {
            awaitCalls(ok, 40);
            inFlight = codeRuns(pool, NODE_B, slow, 3);
            long waited = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (runs(sha, "RUNNING") < 3 && System.nanoTime() < waited) {
                Thread.sleep(100);
            }
            assertEquals(3, runs(sha, "RUNNING"), "the three slow runs are running on node b");
            int okBefore = ok.get();
            int failedBefore = failures.size();
            Result kill = cluster("kill b", Map.of(), Duration.ofMinutes(1));
            long killedAt = System.nanoTime();
            assertEquals(0, kill.exit, "kill b:\n" + kill.output);
            for (var run : inFlight) {
                String answer = run.get(30, TimeUnit.SECONDS);
                assertTrue(answer.startsWith("failed: "), "a run on the killed node fails for its client: " + answer);
            }
            double answeredIn = (System.nanoTime() - killedAt) / 1e9;
            await(() -> backend("b").startsWith("DOWN"), Duration.ofSeconds(30), "haproxy sees node b DOWN");
            int failedByKill = failures.size() - failedBefore;
            int failedAtDown = failures.size();
            awaitCalls(ok, 40);
            long closedWait = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (runs(sha, "RUNNING") > 0 && System.nanoTime() < closedWait) {
                Thread.sleep(250);
            }
            double closedIn = (System.nanoTime() - killedAt) / 1e9;
            System.out.printf("[multinode-it] node b killed under %d clients: %d calls failed (%s), %d succeeded meanwhile; "
                            + "its 3 runs' clients answered within %.1f s; their rows closed %.1f s after the kill%n",
                    CLIENTS, failedByKill, failures.subList(failedBefore, failures.size()), ok.get() - okBefore, answeredIn, closedIn);
            assertEquals(3, runs(sha, "ERROR"), "node a closed the dead node's runs as ERROR");
            assertTrue(closedIn <= 10 + 15 + 15 + 5, "closed within the wall time (10 s) + 30 s of their start: " + closedIn);
            assertTrue(failedByKill <= CLIENTS, "at most the one call each client had in flight fails: " + failures);
            assertEquals(failedAtDown, failures.size(), "every call after HAProxy saw node b DOWN succeeds: " + failures);
            Result restart = cluster("restart b", Map.of("CLUSTER_START_TIMEOUT", "600"), Duration.ofMinutes(12));
            assertEquals(0, restart.exit, "node b starts again:\n" + restart.output);
        } finally {
            stop.set(true);
            pool.shutdown();
            assertTrue(pool.awaitTermination(2, TimeUnit.MINUTES), "the clients stop");
        }
    }

    /** How long PostgreSQL is away in {@link #aDatabaseStoppedUnderLoadFailsCallsFastAndLosesNothing}. */
    static final Duration OUTAGE = Duration.ofSeconds(30);
    /** HAProxy's own answer when no node is ready. */
    static final String HAPROXY_NO_SERVER = "No server is available to handle this request";
    /** How long the load goes on once both nodes are ready again. */
    static final Duration AFTER = Duration.ofSeconds(20);

    /**
     * PostgreSQL stops for 30 s under load (the nodes' line to it is cut: connecting is refused and open connections
     * close, as when the server stops). Eight SDK clients call {@code tools/call} and {@code code_execute} through
     * HAProxy, an admin creates roles, a caller pauses runs at a write that waits for approval, and two code runs are in
     * flight on node a when the database goes. Calls fail fast with a clear error, both nodes' readiness goes DOWN and
     * comes back UP by itself, and afterwards nothing is half-written: no run left {@code RUNNING}, every approval has
     * its run, every acknowledged role exists and every role has its one audit row.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 2)
    void aDatabaseStoppedUnderLoadFailsCallsFastAndLosesNothing() throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 8);
        send(NODE_A, "PUT", "/api/license", OPERATOR_KEY, TestLicenses.sign("enterprise", 100, 10_000), 200);
        String tool = "cut_order_" + id;
        send(NODE_A, "POST", "/api/code-tools", DEMO_KEY, jakarta.json.Json.createObjectBuilder().add("server", "demo").add("name", tool)
                .add("description", "Orders one SKU-001 for a customer, after approval").add("inputSchema", McpHttp.parse(
                        "{\"type\":\"object\",\"properties\":{\"customerId\":{\"type\":\"integer\"},\"note\":{\"type\":\"string\"}}}"))
                .add("code", ORDER_CODE).add("uses", jakarta.json.Json.createArrayBuilder().add("customer_get").add("order_create"))
                .add("runAs", "invoker").add("allowWrites", true).add("approval", "always").build().toString(), 201);
        String slow = "// " + id + "\nawait new Promise(r => setTimeout(r, 5000)); return 1;";
        String sha = dev.amcp.gateway.platform.control.Hashes.sha256(slow);
        String rolePrefix = "cut-" + id;
        var inFlight = java.util.concurrent.Executors.newFixedThreadPool(2);
        List<java.util.concurrent.Future<String>> runsAtCut;
        long cutAt;
        long restoredAt;
        long upAt;
        HttpResponse<String> direct;
        double directSeconds;
        FaultLoad load = new FaultLoad(BALANCER, DEMO_KEY);
        try (load) {
            load.watchReadiness(Map.of("a", NODE_A, "b", NODE_B));
            load.mcpClients(CLIENTS);
            load.roleCreator(rolePrefix);
            load.approvalCaller(tool);
            await(() -> load.succeeded() >= 40, Duration.ofMinutes(2), "the load's calls succeed");
            runsAtCut = codeRuns(inFlight, NODE_A, slow, 2);
            await(() -> runs(sha, "RUNNING") == 2, Duration.ofSeconds(30), "two slow runs running on node a");

            cutAt = System.nanoTime();
            database.cut();
            Thread.sleep(5000);
            long asked = System.nanoTime();
            direct = mcp(NODE_A, null, McpHttp.initialize(McpHttp.LATEST)); // what a node itself answers meanwhile
            directSeconds = (System.nanoTime() - asked) / 1e9;
            Thread.sleep(Math.max(0, OUTAGE.toMillis() - (System.nanoTime() - cutAt) / 1_000_000));
            database.restore();
            restoredAt = System.nanoTime();
            await(() -> load.firstReadiness("a", st -> st == 200, restoredAt) > 0 && load.firstReadiness("b", st -> st == 200, restoredAt) > 0,
                    Duration.ofMinutes(2), "both nodes ready again");
            upAt = Math.max(load.firstReadiness("a", st -> st == 200, restoredAt), load.firstReadiness("b", st -> st == 200, restoredAt));
            long succeededAtUp = load.succeeded();
            await(() -> load.succeeded() >= succeededAtUp + 40, Duration.ofMinutes(2), "calls succeed again after the database is back");
            Thread.sleep(Math.max(0, AFTER.toMillis() - (System.nanoTime() - upAt) / 1_000_000));
        } finally {
            inFlight.shutdown();
        }
        List<String> atCut = new ArrayList<>();
        for (var run : runsAtCut) {
            atCut.add(run.get(60, TimeUnit.SECONDS));
        }
        await(() -> runs(sha, "RUNNING") == 0, Duration.ofSeconds(60), "the runs in flight at the cut are closed");
        double runsClosedIn = (System.nanoTime() - restoredAt) / 1e9;

        // What the clients saw.
        List<FaultLoad.Call> before = load.startedBetween(0, cutAt);
        List<FaultLoad.Call> during = load.startedBetween(cutAt, restoredAt);
        List<FaultLoad.Call> recovering = load.startedBetween(restoredAt, upAt);
        // HAProxy asks each node every 2 s, so it may answer 503 for up to that long after a node is ready again.
        List<FaultLoad.Call> after = load.startedBetween(upAt + TimeUnit.SECONDS.toNanos(3), Long.MAX_VALUE);
        List<FaultLoad.Call> failed = load.calls.stream().filter(FaultLoad.Call::failed).toList();
        long slowestFailure = failed.stream().mapToLong(FaultLoad.Call::millis).max().orElse(0);
        java.util.function.Function<String, Double> downIn = node -> (load.firstReadiness(node, st -> st != 200, cutAt) - cutAt) / 1e9;
        java.util.function.Function<String, Double> upIn = node -> (load.firstReadiness(node, st -> st == 200, restoredAt) - restoredAt) / 1e9;
        Map<String, Long> messages = new java.util.TreeMap<>();
        failed.forEach(c -> messages.merge(c.what() + ": " + c.failure().replaceAll("[0-9a-f-]{36}", "<id>").replaceAll("\\d+ ms", "<n> ms"), 1L, Long::sum));
        System.out.printf("[multinode-it] PostgreSQL stopped %d s under %d clients: before %d calls (%d failed); during %d (%d failed, "
                        + "slowest failure %d ms); recovering %d (%d failed); after %d (%d failed). Readiness DOWN a %.1f s, b %.1f s after the cut; "
                        + "UP a %.1f s, b %.1f s after the restore. A node asked directly meanwhile: %d in %.2f s: %s. Runs in flight: %s, rows closed %.1f s "
                        + "after the restore. Roles acknowledged %d, approvals given %d. Failures: %s%n",
                OUTAGE.toSeconds(), CLIENTS, before.size(), before.stream().filter(FaultLoad.Call::failed).count(), during.size(),
                during.stream().filter(FaultLoad.Call::failed).count(), slowestFailure, recovering.size(),
                recovering.stream().filter(FaultLoad.Call::failed).count(), after.size(), after.stream().filter(FaultLoad.Call::failed).count(),
                downIn.apply("a"), downIn.apply("b"), upIn.apply("a"), upIn.apply("b"), direct.statusCode(), directSeconds, direct.body(),
                atCut, runsClosedIn, load.rolesCreated.size(), load.approvalsGiven.size(), messages);

        // What the database holds.
        try (Connection c = DriverManager.getConnection(databaseUrl, dbUser(), dbPassword()); Statement st = c.createStatement()) {
            Set<String> roles = new java.util.HashSet<>(strings(st, "select name from roles where name like '" + rolePrefix + "-%'"));
            List<String> audited = strings(st, "select subject from admin_audit where kind = 'role' and action = 'create' and subject like '" + rolePrefix + "-%'");
            Set<String> approvals = new java.util.HashSet<>(strings(st, "select a.id from code_approvals a join code_runs r on r.run_id = a.run_id "
                    + "where a.tool_name = '" + tool + "'"));
            List<String> orphans = strings(st, "select a.id from code_approvals a where not exists (select 1 from code_runs r where r.run_id = a.run_id)");
            assertTrue(roles.containsAll(load.rolesCreated), "every role answered 201 exists");
            assertEquals(roles, new java.util.HashSet<>(audited), "every role has its audit row, and every audit row its role");
            assertEquals(audited.size(), new java.util.HashSet<>(audited).size(), "one audit row per role");
            assertTrue(approvals.containsAll(load.approvalsGiven), "every approval a caller was given exists with its run");
            assertEquals(List.of(), orphans, "no approval without its run");
        }
        assertEquals(0, runs(sha, "RUNNING"), "no run left RUNNING");
        assertTrue(slowestFailure < 5_000, "every failed call failed fast (the client waits 30 s): " + slowestFailure + " ms");
        assertEquals(503, direct.statusCode(), "a node asked directly answers 503: " + direct.body());
        assertTrue(direct.body().contains(dev.amcp.gateway.platform.control.DatabaseOutage.MESSAGE), direct.body());
        assertEquals(java.util.Optional.of("5"), direct.headers().firstValue("Retry-After"), "and asks the client to try again later");
        assertTrue(directSeconds < 2, "at once: " + directSeconds + " s");
        for (String answer : atCut) {
            assertTrue(answer.contains(dev.amcp.gateway.platform.control.DatabaseOutage.MESSAGE), "a run in flight says why it failed: " + answer);
        }
        assertTrue(downIn.apply("a") >= 0 && downIn.apply("a") < 10 && downIn.apply("b") >= 0 && downIn.apply("b") < 10,
                "both nodes' readiness goes DOWN soon after the cut: a " + downIn.apply("a") + " s, b " + downIn.apply("b") + " s");
        assertTrue(during.stream().anyMatch(FaultLoad.Call::failed), "calls fail while the database is away");
        List<String> unclear = failed.stream().map(FaultLoad.Call::failure)
                .filter(f -> !f.contains(dev.amcp.gateway.platform.control.DatabaseOutage.MESSAGE) && !f.contains(HAPROXY_NO_SERVER)).toList();
        assertEquals(List.of(), unclear, "every failure says the database is unavailable (or, once HAProxy saw both nodes DOWN, that no node is)");
        assertEquals(List.of(), after.stream().filter(FaultLoad.Call::failed).toList(), "every call succeeds once both nodes are ready again");
        assertFalse(load.rolesCreated.isEmpty() || load.approvalsGiven.isEmpty(), "roles were created and approvals given");
    }

    static List<String> strings(Statement statement, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (var rows = statement.executeQuery(query)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    /** {@code count} runs of this code on one node, each answering its content, or "failed: " and why its call failed. */
    static List<java.util.concurrent.Future<String>> codeRuns(java.util.concurrent.ExecutorService pool, String node, String code, int count) {
        List<java.util.concurrent.Future<String>> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            runs.add(pool.submit(() -> {
                try {
                    return String.valueOf(callOn(node, "code_execute", Map.of("code", code), null).content());
                } catch (RuntimeException e) {
                    return "failed: " + e;
                }
            }));
        }
        return runs;
    }

    /** How many code runs of this code hash have this status. */
    int runs(String codeSha256, String status) throws Exception {
        try (Connection c = DriverManager.getConnection(databaseUrl, dbUser(), dbPassword());
             var st = c.prepareStatement("select count(*) from code_runs where code_sha256 = ? and status = ?")) {
            st.setString(1, codeSha256);
            st.setString(2, status);
            try (var rows = st.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    /** Waits until {@code more} further calls have succeeded (the clients are running and a node serves them). */
    static void awaitCalls(AtomicInteger ok, int more) throws InterruptedException {
        int target = ok.get() + more;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (ok.get() < target && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(ok.get() >= target, "the clients make calls: " + ok.get() + " of " + target);
    }

    /**
     * One client: a tool call, then a code run calling it, with a short pause after each, until told to stop; a new
     * client after a failure.
     */
    static void callWithoutPause(int customer, java.util.concurrent.atomic.AtomicBoolean stop, AtomicInteger ok, List<String> failures) {
        String code = "const c = await amcp.run('customer_get', {customerId: " + customer + "}); return {id: c.id};";
        while (!stop.get()) {
            try (McpSyncClient client = McpHttp.sdkClientAt(BALANCER, "/mcp/demo", r -> r.setHeader("Authorization", "Bearer " + DEMO_KEY))) {
                client.initialize();
                while (!stop.get()) {
                    record(client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", customer))), "customer_get", ok, failures);
                    Thread.sleep(PAUSE_MS);
                    record(client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", code))), "code_execute", ok, failures);
                    Thread.sleep(PAUSE_MS);
                }
            } catch (RuntimeException e) {
                failures.add("client " + customer + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void record(McpSchema.CallToolResult result, String tool, AtomicInteger ok, List<String> failures) {
        if (Boolean.TRUE.equals(result.isError())) {
            failures.add(tool + ": " + result.content());
        } else {
            ok.incrementAndGet();
        }
    }

    /** A 2025-11-25 SDK client on one node, calling one tool (with an approval id to collect, or none). */
    static McpSchema.CallToolResult callOn(String node, String tool, Map<String, Object> args, String approvalId) {
        try (McpSyncClient client = McpHttp.sdkClientAt(node, "/mcp/demo", request -> request.setHeader("Authorization", "Bearer " + DEMO_KEY))) {
            client.initialize();
            return client.callTool(approvalId == null ? new McpSchema.CallToolRequest(tool, args)
                    : new McpSchema.CallToolRequest(tool, args, Map.of("amcp/approvalId", approvalId)));
        }
    }

    /** A customer's orders in both nodes' demo shops (each node's demo tools call its own). */
    static int orders(int customer) throws Exception {
        int count = 0;
        for (String node : List.of(NODE_A, NODE_B)) {
            count += McpHttp.parse(send(node, "GET", "/demo-api/orders?customerId=" + customer + "&limit=500", DEMO_KEY, null, 200))
                    .asJsonObject().getInt("count");
        }
        return count;
    }

    /** A 2025-11-25 request of the demo key to one node's {@code /mcp/demo}, in {@code session} unless that is null. */
    static HttpRequest mcpRequest(String node, String session, String body) {
        return session == null
                ? McpHttp.postRequest(node + "/mcp/demo", DEMO_KEY, body, "MCP-Protocol-Version", McpHttp.LATEST)
                : McpHttp.postRequest(node + "/mcp/demo", DEMO_KEY, body, "MCP-Protocol-Version", McpHttp.LATEST, "Mcp-Session-Id", session);
    }

    static HttpResponse<String> mcp(String node, String session, String body) throws Exception {
        return McpHttp.HTTP.send(mcpRequest(node, session, body), HttpResponse.BodyHandlers.ofString());
    }

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
        return servedBy(node, run, "/mcp/demo");
    }

    /** The ids of this run a node logged for requests to {@code path} or below it. */
    static List<String> servedBy(String node, String run, String path) throws IOException {
        Path log = CLUSTER.resolve("usr/servers/amcp-node-" + node + "/logs/messages.log");
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = SUMMARY.matcher(line);
            if (m.find() && m.group(1).startsWith(run + "-") && (m.group(3).equals(path) || m.group(3).startsWith(path + "/"))) {
                ids.add(m.group(1));
            }
        }
        return ids;
    }

    /** HAProxy's status of one node ("UP", "DOWN", "DOWN 1/2", ...), from its statistics CSV. */
    static String backend(String node) throws Exception {
        String[] lines = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(STATS)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body().split("\n");
        int status = List.of(lines[0].replaceFirst("^# ", "").split(",")).indexOf("status");
        for (String line : lines) {
            String[] f = line.split(",", -1);
            if (f.length > status && f[0].equals("gateways") && f[1].equals("node-" + node)) {
                return f[status];
            }
        }
        return "absent";
    }

    /** Waits until {@code condition} holds, at most {@code limit}; fails with {@code what} otherwise. */
    static void await(java.util.concurrent.Callable<Boolean> condition, Duration limit, String what) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within " + limit.toSeconds() + " s");
            Thread.sleep(200);
        }
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
        Path output = CLUSTER.getParent().resolve("multinode-it-cluster-" + command.replace(' ', '-') + ".log");
        List<String> line = new ArrayList<>(List.of(SCRIPT.toString()));
        line.addAll(List.of(command.split(" ")));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true)
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
