package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The standalone SSE stream of a 2025-11-25 session ({@code GET /mcp/{server}}): the official Java SDK client hears of
 * a tool saved through the admin API; the GET's errors; and, on a node with one stream slot, what the SDK client gets
 * when the slot is taken (405: it goes on with POSTs), that a closed SDK client gives its slot back at once, and that a
 * draining node ends its streams and opens no new ones (405, so no client comes straight back).
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpEventStreamIT {

    static final String S = "/amcp-stream";
    /** A node that holds one stream at most; drained by the last test. */
    static final String ONE = "/amcp-stream-one";

    @Deployment(name = "stream", testable = false)
    static WebArchive stream() {
        return Deployments.gateway("amcp-stream", false, Map.of());
    }

    @Deployment(name = "one", testable = false)
    static WebArchive one() {
        return Deployments.gateway("amcp-stream-one", false, Map.of("AMCP_MCP_MAX_LISTEN_STREAMS", "1"));
    }

    static String tenantKey(String context) throws Exception {
        HttpResponse<String> setup = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + context + "/it-setup/mcp-tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, setup.statusCode(), setup.body());
        return McpHttp.parse(setup.body()).asJsonObject().getString("adminKey");
    }

    /** A new 2025-11-25 session's id on the endpoint at {@code url}. */
    static String session(String url, String key) throws Exception {
        HttpResponse<String> init = McpHttp.HTTP.send(McpHttp.postRequest(url, key, McpHttp.initialize(McpHttp.LATEST)),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, init.statusCode(), init.body());
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** A GET that is answered at once (an error); {@code Accept: text/event-stream} unless {@code headers} name one. */
    static HttpResponse<String> get(String url, String key, String session, String... headers) throws Exception {
        return send("GET", url, key, session, headers);
    }

    static HttpResponse<String> send(String method, String url, String key, String session, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        boolean accept = false;
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
            accept |= headers[i].equalsIgnoreCase("Accept");
        }
        if (!accept) {
            b.header("Accept", "text/event-stream");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String message(HttpResponse<String> r) {
        return McpHttp.parse(r.body()).asJsonObject().getJsonObject("error").getString("message");
    }

    static List<String> names(List<McpSchema.Tool> tools) {
        return tools.stream().map(McpSchema.Tool::name).toList();
    }

    /**
     * Saves tools until the SDK client's tools change consumer hears of one. The SDK opens its GET stream on its own
     * after {@code initialize}, and a tool saved before the stream took the caller's list is part of what it started
     * from; once one change was heard, the stream is known to be open.
     */
    static List<McpSchema.Tool> saveUntilHeard(String context, String key, String prefix, BlockingQueue<List<McpSchema.Tool>> changes)
            throws Exception {
        for (int i = 0; i < 5; i++) {
            McpStatelessIT.createTool(context, key, "main", prefix + i);
            List<McpSchema.Tool> heard = changes.poll(3, TimeUnit.SECONDS);
            if (heard != null) {
                return heard;
            }
        }
        throw new AssertionError("the SDK client's tools change consumer heard of none of 5 saved tools");
    }

    /**
     * Opens an event stream on the node at {@code url} as soon as its one slot is free (a stream whose client went away
     * gives its slot back at the server's next heartbeat); fails after 5 s.
     */
    static McpStatelessIT.Listener holdSlot(String url, String key, String session) throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
            McpStatelessIT.Listener probe = McpStatelessIT.Listener.openGet(url, key, session);
            if (probe.response().statusCode() == 200) {
                return probe;
            }
            probe.close();
            Thread.sleep(50);
        }
        throw new AssertionError("the node's stream slot was not free within 5 s");
    }

    /** A workspace's admin key, its 2025-11-25 session on server main of the node at {@code context}, and that endpoint's URL. */
    record Session(String key, String url, String id) {
        static Session on(String context) throws Exception {
            String key = tenantKey(context);
            String url = McpHttp.base() + context + "/mcp/main";
            return new Session(key, url, session(url, key));
        }
    }

    /** How long, from now, until the node's one slot is free again (taken by {@link #holdSlot} and given back). */
    static long slotBack(Session on) throws Exception {
        long since = System.nanoTime();
        holdSlot(on.url(), on.key(), on.id()).close();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    @Test
    @Order(1)
    void getChecksComeInPostsOrderAndOtherMethodsAre405() throws Exception {
        String key = tenantKey(S);
        String url = McpHttp.base() + S + "/mcp/main";
        String session = session(url, key);

        HttpResponse<String> origin = get(url, key, session, "Origin", "http://evil.example.com");
        assertEquals(403, origin.statusCode(), origin.body());
        assertEquals(401, get(url, null, session).statusCode(), "no key");
        assertEquals(404, get(McpHttp.base() + S + "/mcp/nope", key, session).statusCode(), "no such server");
        HttpResponse<String> missing = get(url, key, null);
        assertEquals(400, missing.statusCode(), missing.body());
        assertEquals("GET opens a session's event stream: send the Mcp-Session-Id header that initialize returned", message(missing));
        HttpResponse<String> forged = get(url, key, session + "x");
        assertEquals(404, forged.statusCode(), "a session this gateway did not sign: " + forged.body());
        assertEquals(404, get(McpHttp.base() + S + "/mcp", key, session).statusCode(), "a session is bound to its endpoint");
        HttpResponse<String> json = get(url, key, session, "Accept", "application/json");
        assertEquals(406, json.statusCode(), json.body());
        assertTrue(message(json).contains("text/event-stream"), json.body());
        HttpResponse<String> unknownRevision = get(url, key, session, "MCP-Protocol-Version", "1999-01-01");
        assertEquals(400, unknownRevision.statusCode());
        assertTrue(unknownRevision.body().contains("2025-11-25"), unknownRevision.body());
        HttpResponse<String> stateless = get(url, key, null, "MCP-Protocol-Version", "2026-07-28");
        assertEquals(405, stateless.statusCode(), "2026-07-28 has no sessions and no GET stream: " + stateless.body());
        assertTrue(message(stateless).contains("subscriptions/listen"), stateless.body());
        for (String method : new String[] {"PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> r = send(method, url, key, session);
            assertEquals(405, r.statusCode(), method);
            assertEquals("GET, POST", r.headers().firstValue("Allow").orElse(""), method);
        }

        String shared = McpHttp.base() + S + "/mcp";
        try (McpStatelessIT.Listener stream = McpStatelessIT.Listener.openGet(shared, key, session(shared, key))) {
            assertEquals(200, stream.response().statusCode(), "the shared endpoint has its event stream too");
            assertTrue(stream.response().headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            assertEquals(":", stream.firstLine(), "a comment first, once the stream watches the list");
        }
    }

    @Test
    @Order(2)
    void theSdkClientHearsOfAToolSavedThroughTheAdminApi() throws Exception {
        String key = tenantKey(S);
        BlockingQueue<List<McpSchema.Tool>> changes = new LinkedBlockingQueue<>();
        try (McpSyncClient client = McpHttp.sdkSpec(S + "/mcp/main", key).toolsChangeConsumer(changes::add).build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals(McpHttp.LATEST, init.protocolVersion());
            assertEquals(Boolean.TRUE, init.capabilities().tools().listChanged(), "initialize says the tool list tells of changes");
            List<McpSchema.Tool> heard = saveUntilHeard(S, key, "stream_tool_", changes);
            assertTrue(names(heard).contains("stream_tool_0") && names(heard).contains("echo_get"), names(heard).toString());

            // the stream is open now: the next change is heard, with the tool in the list the SDK reads again
            changes.clear();
            long saved = System.nanoTime();
            McpStatelessIT.createTool(S, key, "main", "stream_tool_after");
            List<McpSchema.Tool> after = null;
            while (after == null || !names(after).contains("stream_tool_after")) {
                after = changes.poll(10, TimeUnit.SECONDS);
                assertNotNull(after, "the SDK client heard of stream_tool_after");
            }
            System.out.printf("[event-stream-it] a saved tool reached the SDK client's tools change consumer after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - saved));
        }
    }

    @Test
    @Order(4)
    void overTheSlotLimitAGetIs405AndTheSdkClientGoesOnWithPosts() throws Exception {
        Session on = Session.on(ONE);
        String key = on.key(), url = on.url(), session = on.id();
        try (McpStatelessIT.Listener held = holdSlot(url, key, session)) {
            assertEquals(":", held.firstLine());
            HttpResponse<String> full = get(url, key, session);
            assertEquals(405, full.statusCode(), "the spec allows a stream or 405 only: " + full.body());
            assertEquals("POST", full.headers().firstValue("Allow").orElse(""), "what this node serves now");
            assertTrue(message(full).contains("AMCP_MCP_MAX_LISTEN_STREAMS"), full.body());
            try (McpStatelessIT.Listener listen = McpStatelessIT.Listener.openAt(url, key, 3)) {
                assertEquals(503, listen.response().statusCode(), "listen streams share the slots");
            }
            try (McpSyncClient client = McpHttp.sdkClient(ONE + "/mcp/main", key)) {
                client.initialize();
                assertTrue(names(client.listTools().tools()).contains("echo_get"));
                McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", "5")));
                assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result));
            }
        }
        System.out.printf("[event-stream-it] a raw client's closed stream gave its slot back after %d ms%n", slotBack(on));
    }

    /** Runs first on its node: the SDK client opens its stream once, and only a free slot gives it one. */
    @Test
    @Order(3)
    void aClosedSdkClientGivesItsStreamSlotBackAtOnce() throws Exception {
        Session on = Session.on(ONE);
        String key = on.key(), url = on.url(), session = on.id();
        BlockingQueue<List<McpSchema.Tool>> changes = new LinkedBlockingQueue<>();
        try (McpSyncClient client = McpHttp.sdkSpec(ONE + "/mcp/main", key).toolsChangeConsumer(changes::add).build()) {
            client.initialize();
            saveUntilHeard(ONE, key, "one_tool_", changes);
            assertEquals(405, get(url, key, session).statusCode(), "the SDK client's stream holds the node's one slot");
        }
        long freed = slotBack(on);
        System.out.printf("[event-stream-it] a closed SDK client's stream gave its slot back after %d ms%n", freed);
        assertTrue(freed < 2000, "within a heartbeat or two (200 ms here), not at the stream's end: " + freed + " ms");
    }

    @Test
    @Order(5)
    void aDrainingNodeEndsItsStreamsAndOpensNoNewOnes() throws Exception {
        assertEquals(204, McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + ONE + "/it-setup/operator"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        Session on = Session.on(ONE);
        String key = on.key(), url = on.url(), session = on.id();
        try (McpStatelessIT.Listener held = holdSlot(url, key, session)) {
            held.firstLine();
            HttpResponse<String> drain = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + ONE + "/api/node/drain"))
                    .header("Authorization", "Bearer " + Operators.API_KEY).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, drain.statusCode(), drain.body());
            held.awaitEnd();
        }
        HttpResponse<String> again = get(url, key, session);
        assertEquals(405, again.statusCode(), "a client that comes back at once finds no stream here: " + again.body());
        assertEquals("POST", again.headers().firstValue("Allow").orElse(""));
        assertTrue(message(again).contains("draining"), again.body());
        try (McpSyncClient client = McpHttp.sdkClient(ONE + "/mcp/main", key)) {
            client.initialize();
            assertTrue(names(client.listTools().tools()).contains("echo_get"), "requests go on while the node drains");
        }
    }
}
