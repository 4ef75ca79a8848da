package dev.amcp.gateway.it;

import static dev.amcp.gateway.it.McpHttp.initialize;
import static dev.amcp.gateway.it.McpHttp.post;
import static dev.amcp.gateway.it.McpHttp.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Raw HTTP checks of the Streamable HTTP transport rules of the MCP endpoints. */
@ExtendWith(ArquillianExtension.class)
class McpTransportIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return McpHttp.deployment(3);
    }

    private String key;

    @BeforeEach
    void tenant() throws Exception {
        key = McpHttp.tenant("mcp-tenant").getString("adminKey");
    }

    private static JsonObject json(HttpResponse<String> r) {
        return McpHttp.parse(r.body()).asJsonObject();
    }

    private static int errorCode(HttpResponse<String> r) {
        return json(r).getJsonObject("error").getInt("code");
    }

    @Test
    void initializeNegotiatesAndIssuesAStatelessSession() throws Exception {
        for (String v : new String[] {"2025-11-25", "2025-06-18", "2025-03-26"}) {
            HttpResponse<String> r = post("/mcp/main", key, initialize(v));
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(v, json(r).getJsonObject("result").getString("protocolVersion"));
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        }
        HttpResponse<String> old = post("/mcp/main", key, initialize("2024-11-05"));
        assertEquals("2025-11-25", json(old).getJsonObject("result").getString("protocolVersion"), "unknown revision: we offer our latest");
        String session = old.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(200, post("/mcp/main", key, request(2, "ping", null), "Mcp-Session-Id", session).statusCode());
        assertEquals(404, post("/mcp/main", key, request(2, "ping", null), "Mcp-Session-Id", session + "x").statusCode());
        assertEquals(404, post("/mcp", key, request(2, "ping", null), "Mcp-Session-Id", session).statusCode(), "bound to its endpoint");
    }

    @Test
    void originAllowList() throws Exception {
        HttpResponse<String> evil = post("/mcp/main", key, initialize("2025-11-25"), "Origin", "http://evil.example.com");
        assertEquals(403, evil.statusCode());
        assertEquals(-32600, errorCode(evil));
        assertEquals(200, post("/mcp/main", key, initialize("2025-11-25"), "Origin", "http://localhost:6274").statusCode());
        assertEquals(200, post("/mcp/main", key, initialize("2025-11-25")).statusCode(), "no Origin: not a browser");
        assertEquals(403, post("/mcp/main", key, initialize("2025-11-25"), "Origin", "null").statusCode());
    }

    @Test
    void protocolVersionHeaderIsChecked() throws Exception {
        HttpResponse<String> bad = post("/mcp/main", key, request(1, "ping", null), "MCP-Protocol-Version", "1999-01-01");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("2025-11-25"), bad.body());
        assertEquals(200, post("/mcp/main", key, request(1, "ping", null), "MCP-Protocol-Version", "2025-06-18").statusCode());
    }

    @Test
    void notificationsAndResponsesGet202() throws Exception {
        HttpResponse<String> n = post("/mcp/main", key, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertEquals(202, n.statusCode());
        assertEquals("", n.body());
        assertEquals(202, post("/mcp/main", key, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}").statusCode());
        assertEquals(202, post("/mcp/main", key,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5,\"reason\":\"user\"}}").statusCode());
    }

    @Test
    void everyMethodButPostAndGetGets405AsJsonRpc() throws Exception {
        for (String method : new String[] {"DELETE", "PUT", "PATCH"}) {
            for (String path : new String[] {"/mcp/main", "/mcp"}) {
                HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + key)
                        .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(405, r.statusCode(), method + " " + path);
                assertEquals("GET, POST", r.headers().firstValue("Allow").orElse(""), method + " " + path);
                assertEquals(-32600, errorCode(r), method + " " + path);
            }
        }
    }

    @Test
    void theEndpointPathIsTheServerAndNothingBelowIt() throws Exception {
        HttpResponse<String> trailing = post("/mcp/main/", key, request(1, "ping", null));
        assertEquals(200, trailing.statusCode(), trailing.body());
        assertEquals(200, post("/mcp/", key, request(1, "ping", null)).statusCode());
        HttpResponse<String> below = post("/mcp/main/tools", key, request(1, "ping", null));
        assertEquals(404, below.statusCode(), below.body());
        assertTrue(json(below).getJsonObject("error").getString("message").contains("main/tools"), below.body());
        assertEquals(401, post("/mcp/main/tools", "wrong", request(1, "ping", null)).statusCode(), "the key is checked first");
    }

    @Test
    void theBodyMustBeDeclaredJson() throws Exception {
        assertEquals(200, post("/mcp/main", key, request(1, "ping", null), "Content-Type", "application/json; charset=utf-8").statusCode());
        assertEquals(200, post("/mcp/main", key, request(1, "ping", null), "Content-Type", "Application/JSON").statusCode());
        for (String type : new String[] {"application/json-patch+json", "application/*", "*/*", "text/json", "application/jsonx"}) {
            HttpResponse<String> r = post("/mcp/main", key, request(1, "ping", null), "Content-Type", type);
            assertEquals(415, r.statusCode(), type);
            assertEquals(-32600, errorCode(r), type);
        }
    }

    @Test
    void aRepeatedProtocolVersionHeaderIsNotReadAsItsFirstValue() throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/mcp/main"))
                .POST(HttpRequest.BodyPublishers.ofString(request(1, "ping", null))).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25").header("MCP-Protocol-Version", "1999-01-01").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode(), r.body());
        assertEquals(-32022, errorCode(r), r.body());
    }

    @Test
    void oversizeBodyGets413() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}}";
        assertEquals(413, post("/mcp/main", key, big).statusCode());
    }

    @Test
    void jsonRpcErrors() throws Exception {
        HttpResponse<String> parse = post("/mcp/main", key, "{\"jsonrpc\":\"2.0\",\"id\":1,");
        assertEquals(400, parse.statusCode());
        assertEquals(-32700, errorCode(parse));
        HttpResponse<String> unknown = post("/mcp/main", key, request(1, "resources/list", null));
        assertEquals(200, unknown.statusCode());
        assertEquals(-32601, errorCode(unknown));
        assertEquals(1, json(unknown).getInt("id"));
        assertEquals(-32602, errorCode(post("/mcp/main", key, request("a", "tools/call", "{\"arguments\":{}}"))));
        assertEquals(-32602, errorCode(post("/mcp/main", key, request("a", "tools/call", "{\"name\":\"echo_get\",\"arguments\":[1]}"))));
        assertEquals(-32602, errorCode(post("/mcp/main", key, request("a", "tools/call", "{\"name\":\"nope\"}"))));
        HttpResponse<String> invalid = post("/mcp/main", key, "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals(400, invalid.statusCode());
        assertEquals(-32600, errorCode(invalid));
        assertEquals(415, post("/mcp/main", key, request(1, "ping", null), "Content-Type", "text/plain").statusCode());
        assertEquals(406, post("/mcp/main", key, request(1, "ping", null), "Accept", "text/html").statusCode());
    }

    @Test
    void batchesFollowTheRevision() throws Exception {
        String batch = "[" + request(1, "ping", null) + ",{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + request(2, "nope", null) + "]";
        HttpResponse<String> old = post("/mcp/main", key, batch, "MCP-Protocol-Version", "2025-03-26");
        assertEquals(200, old.statusCode(), old.body());
        JsonArray replies = McpHttp.parse(old.body()).asJsonArray();
        assertEquals(2, replies.size());
        assertEquals(-32601, replies.getJsonObject(1).getJsonObject("error").getInt("code"));
        HttpResponse<String> current = post("/mcp/main", key, batch, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(400, current.statusCode());
        assertEquals(-32600, errorCode(current));
        assertEquals(202, post("/mcp/main", key, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]").statusCode());
    }

    @Test
    void authIsRequired() throws Exception {
        HttpResponse<String> none = post("/mcp/main", null, initialize("2025-11-25"));
        assertEquals(401, none.statusCode());
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
        HttpResponse<String> bad = post("/mcp", "amcp_wrong-key-0000000000000000000000", initialize("2025-11-25"));
        assertEquals(401, bad.statusCode());
        assertTrue(bad.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
    }

    @Test
    void unknownServerAndForbiddenServerLookAlike() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        HttpResponse<String> missing = post("/mcp/nope", t.getString("viewerKey"), initialize("2025-11-25"));
        HttpResponse<String> forbidden = post("/mcp/other", t.getString("viewerKey"), initialize("2025-11-25"));
        assertEquals(404, missing.statusCode());
        assertEquals(404, forbidden.statusCode());
        assertEquals(json(missing).getJsonObject("error").getInt("code"), json(forbidden).getJsonObject("error").getInt("code"));
    }

    @Test
    void progressTokenWithSseAcceptGetsAnEventStream() throws Exception {
        String call = request(9, "tools/call", "{\"name\":\"test_tool_with_progress\",\"_meta\":{\"progressToken\":77}}");
        HttpResponse<String> sse = post("/mcp/main", key, call);
        assertEquals(200, sse.statusCode());
        assertTrue(sse.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        // Heartbeat comments (":") may come between events while the tool runs; clients ignore them.
        String[] events = java.util.Arrays.stream(sse.body().split("\n\n")).filter(e -> !e.startsWith(":")).toArray(String[]::new);
        assertEquals(4, events.length, sse.body());
        for (int i = 0; i < 3; i++) {
            assertTrue(events[i].contains("notifications/progress") && events[i].contains("\"progressToken\":77")
                    && events[i].contains("\"progress\":" + (i * 50)), "progress in order on the wire: " + events[i]);
        }
        assertTrue(events[3].contains("\"id\":9") && events[3].contains("\"result\""), events[3]);
        HttpResponse<String> plain = post("/mcp/main", key, call, "Accept", "application/json");
        assertTrue(plain.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertFalse(plain.body().contains("notifications/progress"));
    }

    @Test
    void structuredContentFollowsTheRevision() throws Exception {
        String call = request(3, "tools/call", "{\"name\":\"echo_get\",\"arguments\":{\"id\":\"x\"}}");
        JsonObject current = json(post("/mcp/main", key, call, "MCP-Protocol-Version", "2025-11-25")).getJsonObject("result");
        assertEquals("x", current.getJsonObject("structuredContent").getString("id"));
        assertEquals(current.getJsonObject("structuredContent"),
                McpHttp.parse(current.getJsonArray("content").getJsonObject(0).getString("text")));
        JsonObject old = json(post("/mcp/main", key, call, "MCP-Protocol-Version", "2025-03-26")).getJsonObject("result");
        assertFalse(old.containsKey("structuredContent"));
        JsonObject list = json(post("/mcp/main", key, request(4, "tools/list", null), "MCP-Protocol-Version", "2025-03-26")).getJsonObject("result");
        assertFalse(list.getJsonArray("tools").getJsonObject(0).containsKey("outputSchema"));
        assertTrue(list.containsKey("nextCursor"));
    }
}
