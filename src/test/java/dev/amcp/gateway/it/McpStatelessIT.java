package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A 2026-07-28 client written from the revision's schema: raw, stateless requests (revision and client capabilities
 * in every request's {@code _meta}, the standard headers repeating the body), against the same endpoints that keep
 * serving 2025-11-25 clients.
 */
@ExtendWith(ArquillianExtension.class)
class McpStatelessIT {

    static final String V = "2026-07-28";
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + V + "\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"it\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    private String key;

    @BeforeEach
    void tenant() throws Exception {
        key = McpHttp.tenant("mcp-tenant").getString("adminKey");
    }

    /** A 2026-07-28 request: {@code params} gets the request {@code _meta}; {@code extra} are more header pairs. */
    static HttpResponse<String> send(String endpoint, String key, Object id, String method, String params, String... extra) throws Exception {
        String body = McpHttp.request(id, method, "{" + META + (params == null ? "" : "," + params) + "}");
        List<String> headers = new ArrayList<>(List.of("MCP-Protocol-Version", V, "Mcp-Method", method));
        headers.addAll(List.of(extra));
        return McpHttp.post(endpoint, key, body, headers.toArray(String[]::new));
    }

    static JsonObject json(HttpResponse<String> r) {
        return McpHttp.parse(r.body()).asJsonObject();
    }

    @Test
    void discoverListAndCallWithoutInitialize() throws Exception {
        HttpResponse<String> discover = send("/mcp/main", key, 1, "server/discover", null);
        assertEquals(200, discover.statusCode(), discover.body());
        JsonObject d = json(discover).getJsonObject("result");
        assertEquals("complete", d.getString("resultType"));
        assertTrue(d.getJsonArray("supportedVersions").toString().contains("\"2026-07-28\""), d.toString());
        assertTrue(d.getJsonArray("supportedVersions").toString().contains("\"2025-11-25\""), d.toString());
        assertTrue(d.getJsonObject("capabilities").getJsonObject("tools").getBoolean("listChanged"));
        assertEquals("amcp-gateway", d.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));
        assertNull(discover.headers().firstValue("Mcp-Session-Id").orElse(null), "no sessions in 2026-07-28");

        HttpResponse<String> list = send("/mcp/main", key, 2, "tools/list", null);
        assertEquals(200, list.statusCode(), list.body());
        JsonObject l = json(list).getJsonObject("result");
        assertEquals("complete", l.getString("resultType"));
        assertEquals("private", l.getString("cacheScope"), "the list depends on the caller's role");
        assertTrue(l.getJsonNumber("ttlMs").longValue() >= 0);
        assertEquals(json(send("/mcp/main", key, 3, "tools/list", null)).getJsonObject("result").getJsonArray("tools"),
                l.getJsonArray("tools"), "the same tools in the same order");

        HttpResponse<String> call = send("/mcp/main", key, 4, "tools/call", "\"name\":\"echo_post\",\"arguments\":{\"a\":1}",
                "Mcp-Name", "echo_post");
        assertEquals(200, call.statusCode(), call.body());
        JsonObject c = json(call).getJsonObject("result");
        assertEquals("complete", c.getString("resultType"));
        assertFalse(c.getBoolean("isError"), c.toString());
        assertNotNull(c.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo"));

        // the same endpoint still speaks 2025-11-25 to an old client, with its own result shapes
        HttpResponse<String> old = McpHttp.post("/mcp/main", key, McpHttp.request(5, "tools/list", null), "MCP-Protocol-Version", "2025-11-25");
        assertEquals(200, old.statusCode(), old.body());
        assertFalse(json(old).getJsonObject("result").containsKey("resultType"), old.body());
        assertFalse(json(old).getJsonObject("result").containsKey("ttlMs"), old.body());
    }

    @Test
    void protocolErrorsCarryTheirCodesStatusesAndIds() throws Exception {
        HttpResponse<String> unknown = McpHttp.post("/mcp/main", key, McpHttp.request(7, "server/discover",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\",\"io.modelcontextprotocol/clientCapabilities\":{}}}"),
                "MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "server/discover");
        assertEquals(400, unknown.statusCode());
        JsonObject error = json(unknown).getJsonObject("error");
        assertEquals(-32022, error.getInt("code"));
        assertEquals("2099-01-01", error.getJsonObject("data").getString("requested"));
        assertTrue(error.getJsonObject("data").getJsonArray("supported").toString().contains("2026-07-28"));
        assertEquals(7, json(unknown).getInt("id"));

        HttpResponse<String> mismatch = McpHttp.post("/mcp/main", key, McpHttp.request(8, "tools/list", "{" + META + "}"),
                "MCP-Protocol-Version", V, "Mcp-Method", "prompts/list");
        assertEquals(400, mismatch.statusCode());
        assertEquals(-32020, json(mismatch).getJsonObject("error").getInt("code"));
        assertEquals(8, json(mismatch).getInt("id"));
        HttpResponse<String> noMethodHeader = McpHttp.post("/mcp/main", key, McpHttp.request(9, "tools/list", "{" + META + "}"),
                "MCP-Protocol-Version", V);
        assertEquals(-32020, json(noMethodHeader).getJsonObject("error").getInt("code"));
        HttpResponse<String> wrongName = send("/mcp/main", key, 10, "tools/call", "\"name\":\"echo_post\"", "Mcp-Name", "echo_get");
        assertEquals(400, wrongName.statusCode());
        assertEquals(-32020, json(wrongName).getJsonObject("error").getInt("code"));
        HttpResponse<String> versionMismatch = McpHttp.post("/mcp/main", key, McpHttp.request(11, "tools/list",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"io.modelcontextprotocol/clientCapabilities\":{}}}"),
                "MCP-Protocol-Version", V, "Mcp-Method", "tools/list");
        assertEquals(-32020, json(versionMismatch).getJsonObject("error").getInt("code"));

        HttpResponse<String> noMeta = McpHttp.post("/mcp/main", key, McpHttp.request(12, "tools/list", "{}"),
                "MCP-Protocol-Version", V, "Mcp-Method", "tools/list");
        assertEquals(400, noMeta.statusCode());
        assertEquals(-32602, json(noMeta).getJsonObject("error").getInt("code"));
        assertEquals(12, json(noMeta).getInt("id"));

        for (String removed : List.of("ping", "initialize", "logging/setLevel", "no/such")) {
            HttpResponse<String> r = send("/mcp/main", key, 13, removed, null);
            assertEquals(404, r.statusCode(), removed + ": " + r.body());
            assertEquals(-32601, json(r).getJsonObject("error").getInt("code"));
        }
    }

    /**
     * server/discover declares the prompts and resources capabilities (empty lists), so reading one is not an unknown
     * method but a prompt or resource that does not exist: -32602 naming it in {@code data} (SEP-2164), never an empty
     * result.
     */
    @Test
    void promptsAndResourcesAreEmptyAndReadingOneFindsNothing() throws Exception {
        HttpResponse<String> list = send("/mcp/main", key, 14, "resources/list", null);
        assertEquals(200, list.statusCode(), list.body());
        assertEquals(0, json(list).getJsonObject("result").getJsonArray("resources").size(), list.body());
        String uri = "test://nonexistent";
        HttpResponse<String> read = send("/mcp/main", key, 15, "resources/read", "\"uri\":\"" + uri + "\"", "Mcp-Name", uri);
        assertEquals(200, read.statusCode(), read.body());
        JsonObject error = json(read).getJsonObject("error");
        assertNotNull(error, read.body());
        assertEquals(-32602, error.getInt("code"), read.body());
        assertEquals(uri, error.getJsonObject("data").getString("uri"), read.body());
        assertEquals(15, json(read).getInt("id"));
        HttpResponse<String> prompt = send("/mcp/main", key, 16, "prompts/get", "\"name\":\"greeting\"", "Mcp-Name", "greeting");
        assertEquals(-32602, json(prompt).getJsonObject("error").getInt("code"), prompt.body());
        assertEquals("greeting", json(prompt).getJsonObject("error").getJsonObject("data").getString("name"), prompt.body());
    }

    @Test
    void aToolNeedingAnUndeclaredClientCapabilityIsRefusedBeforeItRuns() throws Exception {
        String confKey = McpHttp.tenant("conformance-tenant").getString("adminKey");
        HttpResponse<String> r = send("/mcp/conf", confKey, 20, "tools/call", "\"name\":\"test_missing_capability\"",
                "Mcp-Name", "test_missing_capability");
        assertEquals(400, r.statusCode(), r.body());
        JsonObject error = json(r).getJsonObject("error");
        assertEquals(-32021, error.getInt("code"));
        assertTrue(error.getJsonObject("data").getJsonObject("requiredCapabilities").containsKey("sampling"), r.body());
        String declared = McpHttp.request(21, "tools/call", "{\"name\":\"test_missing_capability\",\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"" + V + "\",\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}}");
        HttpResponse<String> ok = McpHttp.post("/mcp/conf", confKey, declared, "MCP-Protocol-Version", V, "Mcp-Method", "tools/call",
                "Mcp-Name", "test_missing_capability");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("complete", json(ok).getJsonObject("result").getString("resultType"));
    }

    @Test
    void paramHeadersMustRepeatTheArguments() throws Exception {
        String confKey = McpHttp.tenant("conformance-tenant").getString("adminKey");
        String args = "\"name\":\"test_header_param\",\"arguments\":{\"region\":\"eu-süd\"}";
        assertEquals(-32020, json(send("/mcp/conf", confKey, 30, "tools/call", args, "Mcp-Name", "test_header_param"))
                .getJsonObject("error").getInt("code"), "header missing");
        assertEquals(-32020, json(send("/mcp/conf", confKey, 31, "tools/call", args, "Mcp-Name", "test_header_param",
                "Mcp-Param-Region", "eu-nord")).getJsonObject("error").getInt("code"), "header differs");
        String encoded = java.util.Base64.getEncoder().encodeToString("eu-süd".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpResponse<String> ok = send("/mcp/conf", confKey, 32, "tools/call", args, "Mcp-Name", "test_header_param",
                "Mcp-Param-Region", "=?base64?" + encoded + "?=");
        assertEquals(200, ok.statusCode(), ok.body());
        assertTrue(json(ok).containsKey("result"), ok.body());
    }

    @Test
    void progressStaysOnTheRequestsOwnStream() throws Exception {
        HttpResponse<String> r = send("/mcp/main", key, 40, "tools/call",
                "\"name\":\"test_tool_with_progress\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + V
                        + "\",\"io.modelcontextprotocol/clientCapabilities\":{},\"progressToken\":\"p1\"}",
                "Mcp-Name", "test_tool_with_progress");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        List<JsonObject> events = r.body().lines().filter(line -> line.startsWith("data: "))
                .map(line -> McpHttp.parse(line.substring(6)).asJsonObject()).toList();
        assertEquals(4, events.size(), r.body());
        assertEquals("notifications/progress", events.get(0).getString("method"));
        assertEquals("p1", events.get(0).getJsonObject("params").getString("progressToken"));
        assertEquals("complete", events.get(3).getJsonObject("result").getString("resultType"));
    }

    /** An admin's change that affects the listener's tool list arrives on its stream; one that does not, does not. */
    @Test
    void listenStreamsTellOfToolListChanges() throws Exception {
        try (Listener listener = Listener.open("", "/mcp/main", key, 50)) {
            JsonObject ack = listener.next();
            assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"), ack.toString());
            assertTrue(ack.getJsonObject("params").getJsonObject("notifications").getBoolean("toolsListChanged"));
            assertEquals(50, ack.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));

            createTool("", key, "other", "elsewhere_tool");
            assertNull(listener.poll(1500), "a tool of another server does not change this caller's list on /mcp/main");

            createTool("", key, "main", "added_tool");
            JsonObject changed = listener.next();
            assertEquals("notifications/tools/list_changed", changed.getString("method"), changed.toString());
            assertEquals(50, changed.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
        }
    }

    /**
     * A change of the listener's role reaches its stream: widening the viewer's scope changes what its shared endpoint
     * lists; taking away the server a listener is on ends that stream with the listen result.
     */
    @Test
    void roleScopeChangesReachListeners() throws Exception {
        JsonObject tenant = McpHttp.tenant("mcp-tenant");
        String admin = tenant.getString("adminKey");
        String viewer = tenant.getString("viewerKey");
        try (Listener shared = Listener.open("", "/mcp", viewer, 60); Listener onMain = Listener.open("", "/mcp/main", viewer, 61)) {
            assertEquals("notifications/subscriptions/acknowledged", shared.next().getString("method"));
            assertEquals("notifications/subscriptions/acknowledged", onMain.next().getString("method"));
            updateRole(admin, "viewer", "{\"servers\":[\"main\",\"other\"]}");
            JsonObject changed = shared.next();
            assertEquals("notifications/tools/list_changed", changed.getString("method"), "other_echo is now on /mcp: " + changed);
            assertNull(onMain.poll(1500), "/mcp/main lists the same tools as before");

            updateRole(admin, "viewer", "{\"servers\":[\"other\"]}");
            JsonObject ended = onMain.next();
            assertEquals(61, ended.getInt("id"), "the stream ends with the listen result once main is no longer the viewer's: " + ended);
            assertEquals(61, ended.getJsonObject("result").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
            assertEquals("notifications/tools/list_changed", shared.next().getString("method"), "main's tools left /mcp");
        }
    }

    static void updateRole(String key, String role, String body) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/roles/" + role))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    /** Creates an HTTP tool through the admin REST API of the deployment under {@code context}. */
    static void createTool(String context, String key, String server, String name) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + context + "/api/tools"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"server\":\"" + server + "\",\"name\":\"" + name
                        + "\",\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.statusCode() + " " + r.body());
    }

    /**
     * An open tool list stream, read line by line on the HTTP client's thread: a 2026-07-28 {@code subscriptions/listen}
     * stream, or a session's standalone {@code GET} stream.
     */
    static final class Listener implements AutoCloseable {
        private final BlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
        private final CompletableFuture<HttpResponse<Stream<String>>> response;
        private final java.util.concurrent.atomic.AtomicReference<Stream<String>> lines = new java.util.concurrent.atomic.AtomicReference<>();
        /** Completes with the first line the server sent, or at the end of a stream without any. */
        private final CompletableFuture<String> first = new CompletableFuture<>();
        /** Completes when the server ended the stream. */
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private volatile boolean closed;

        private Listener(CompletableFuture<HttpResponse<Stream<String>>> response) {
            this.response = response;
        }

        static Listener open(String context, String endpoint, String key, int id) {
            return openAt(McpHttp.base() + context + endpoint, key, id);
        }

        /** A stream on the MCP endpoint at {@code url} (any node's). */
        static Listener openAt(String url, String key, int id) {
            String body = McpHttp.request(id, "subscriptions/listen", "{" + META + ",\"notifications\":{\"toolsListChanged\":true}}");
            return read(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").header("Authorization", "Bearer " + key)
                    .header("MCP-Protocol-Version", V).header("Mcp-Method", "subscriptions/listen")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        }

        /** The standalone SSE stream of a 2025-11-25 session on the MCP endpoint at {@code url}, as a client opens it. */
        static Listener openGet(String url, String key, String session) {
            return read(HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + key).header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", McpHttp.LATEST).GET().build());
        }

        private static Listener read(HttpRequest request) {
            Listener listener = new Listener(McpHttp.HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofLines()));
            listener.response.thenAcceptAsync(r -> {
                listener.lines.set(r.body());
                if (listener.closed) { // closed before the answer came: close() found no stream to end
                    r.body().close();
                }
                try {
                    r.body().peek(listener.first::complete).filter(line -> line.startsWith("data: "))
                            .forEach(line -> listener.messages.add(McpHttp.parse(line.substring(6)).asJsonObject()));
                } catch (RuntimeException closed) {
                    // close() ended the stream
                }
                listener.first.complete(null);
                listener.ended.complete(null);
            });
            return listener;
        }

        /** The answer's status and headers (the body is this stream). */
        HttpResponse<Stream<String>> response() throws Exception {
            return response.get(10, TimeUnit.SECONDS);
        }

        /**
         * Waits for the first line the server sent: on a session's stream a comment, sent once the stream watches the
         * caller's tool list, so that a change made from here on is reported.
         */
        String firstLine() throws Exception {
            return first.get(10, TimeUnit.SECONDS);
        }

        /** Waits for the server to end the stream. */
        void awaitEnd() throws Exception {
            ended.get(10, TimeUnit.SECONDS);
        }

        JsonObject next() throws InterruptedException {
            JsonObject message = messages.poll(10, TimeUnit.SECONDS);
            assertNotNull(message, "no message on the listen stream within 10 s");
            return message;
        }

        JsonObject poll(long millis) throws InterruptedException {
            return messages.poll(millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            closed = true;
            Stream<String> open = lines.get();
            if (open != null) {
                open.close();
            }
            response.cancel(true);
        }
    }
}
