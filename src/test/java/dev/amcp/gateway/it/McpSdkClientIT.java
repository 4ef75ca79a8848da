package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official MCP Java SDK client (Streamable HTTP transport) against the real gateway: initialize, list, call,
 * error cases, endpoint scope and two workspaces side by side. Runs as a client; the workspace is set up in the
 * server through {@link McpItSetup}.
 */
@ExtendWith(ArquillianExtension.class)
class McpSdkClientIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return McpHttp.deployment(3);
    }

    private static Set<String> names(McpSyncClient client) {
        Set<String> names = new TreeSet<>();
        String cursor = null;
        int pages = 0;
        do {
            McpSchema.ListToolsResult page = client.listTools(cursor);
            page.tools().forEach(t -> names.add(t.name()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null && pages < 50);
        return names;
    }

    private static List<McpSchema.Tool> allTools(McpSyncClient client) {
        List<McpSchema.Tool> tools = new ArrayList<>();
        String cursor = null;
        do {
            McpSchema.ListToolsResult page = client.listTools(cursor);
            assertTrue(page.tools().size() <= 3, "page size is 3 in this deployment");
            tools.addAll(page.tools());
            cursor = page.nextCursor();
        } while (cursor != null);
        return tools;
    }

    @Test
    void initializeNegotiatesLatestRevisionAndDeclaresTools() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"))) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals(McpHttp.LATEST, init.protocolVersion());
            assertEquals("amcp-gateway", init.serverInfo().name());
            assertNotNull(init.capabilities().tools());
            assertNotNull(client.ping());
        }
    }

    @Test
    void listsServerToolsWithAnnotationsAcrossPages() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"))) {
            client.initialize();
            List<McpSchema.Tool> tools = allTools(client);
            Set<String> names = tools.stream().map(McpSchema.Tool::name).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(new TreeSet<>(List.of("code_execute", "code_summary", "echo_get", "echo_post", "test_tool_with_progress",
                    "upstream_fail")), names, "server endpoint: its HTTP tools, its code tool and virtual tools; not other_echo");
            McpSchema.Tool echo = tools.stream().filter(x -> x.name().equals("echo_get")).findFirst().orElseThrow();
            assertEquals("Echo by id", echo.title());
            assertEquals("Echoes an id and a query", echo.description());
            assertEquals("object", echo.inputSchema().get("type"));
            assertEquals(List.of("id"), echo.inputSchema().get("required"));
            assertNotNull(echo.outputSchema());
            assertEquals(Boolean.TRUE, echo.annotations().readOnlyHint());
            assertEquals(Boolean.FALSE, echo.annotations().destructiveHint());
            assertEquals(Boolean.TRUE, echo.annotations().idempotentHint());
            McpSchema.Tool post = tools.stream().filter(x -> x.name().equals("echo_post")).findFirst().orElseThrow();
            assertEquals(Boolean.FALSE, post.annotations().readOnlyHint());
            assertEquals(Boolean.FALSE, post.annotations().idempotentHint());
        }
    }

    @Test
    void callReturnsStructuredContentWithItsJsonText() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("memberKey"))) {
            client.initialize();
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", "42", "q", "hi")));
            assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result));
            @SuppressWarnings("unchecked")
            Map<String, Object> structured = (Map<String, Object>) result.structuredContent();
            assertEquals("42", structured.get("id"));
            assertEquals("hi", structured.get("q"));
            String text = ((McpSchema.TextContent) result.content().get(0)).text();
            assertEquals(McpHttp.parse(text), McpHttp.parse(McpHttp.parse(text).toString()));
            assertEquals("42", McpHttp.parse(text).asJsonObject().getString("id"));
        }
    }

    @Test
    void toolFailuresAreResultsWithoutStackTraces() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"))) {
            client.initialize();
            McpSchema.CallToolResult upstream = client.callTool(new McpSchema.CallToolRequest("upstream_fail", Map.of()));
            assertEquals(Boolean.TRUE, upstream.isError());
            String text = ((McpSchema.TextContent) upstream.content().get(0)).text();
            assertTrue(text.contains("HTTP 500"), text);
            assertFalse(text.contains("Exception") || text.contains("at dev.") || text.contains(".java:"), text);

            McpSchema.CallToolResult invalid = client.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", 5, "nope", true)));
            assertEquals(Boolean.TRUE, invalid.isError());
            assertTrue(((McpSchema.TextContent) invalid.content().get(0)).text().contains("Invalid arguments"));
        }
    }

    @Test
    void unknownToolAndBadParamsAreJsonRpcErrors() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"))) {
            client.initialize();
            McpError unknown = assertThrows(McpError.class, () -> client.callTool(new McpSchema.CallToolRequest("no_such_tool", Map.of())));
            assertEquals(-32602, unknown.getJsonRpcError().code());
            McpError otherServer = assertThrows(McpError.class, () -> client.callTool(new McpSchema.CallToolRequest("other_echo", Map.of("id", "1"))));
            assertEquals(-32602, otherServer.getJsonRpcError().code(), "a tool of another server is unknown here");
            McpError cursor = assertThrows(McpError.class, () -> client.listTools("not-a-cursor"));
            assertEquals(-32602, cursor.getJsonRpcError().code());
            McpError method = assertThrows(McpError.class, () -> client.listPrompts());
            assertEquals(-32601, method.getJsonRpcError().code());
        }
    }

    @Test
    void sharedEndpointServesHttpToolsOfAllServersButNoCodeTools() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp", t.getString("adminKey"))) {
            client.initialize();
            assertEquals(new TreeSet<>(List.of("echo_get", "echo_post", "other_echo", "upstream_fail")), names(client));
            McpSchema.CallToolResult other = client.callTool(new McpSchema.CallToolRequest("other_echo", Map.of("id", "9")));
            assertFalse(Boolean.TRUE.equals(other.isError()), String.valueOf(other));
            for (String code : List.of("code_execute", "code_summary")) {
                McpError e = assertThrows(McpError.class, () -> client.callTool(new McpSchema.CallToolRequest(code, Map.of())));
                assertEquals(-32602, e.getJsonRpcError().code(), code + " must not be callable on /mcp");
            }
        }
    }

    @Test
    void roleScopeLimitsServersAndWrites() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        String viewer = t.getString("viewerKey");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp", viewer)) {
            client.initialize();
            assertEquals(new TreeSet<>(List.of("echo_get", "upstream_fail")), names(client),
                    "viewer: read-only tools of 'main' only");
            McpError write = assertThrows(McpError.class, () -> client.callTool(new McpSchema.CallToolRequest("echo_post", Map.of())));
            assertEquals(-32602, write.getJsonRpcError().code());
        }
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/other", viewer)) {
            assertThrows(RuntimeException.class, client::initialize, "a server outside the role is not reachable");
        }
    }

    @Test
    void twoWorkspacesSideBySideNeverSeeEachOther() throws Exception {
        JsonObject a = McpHttp.tenant("mcp-tenant");
        JsonObject b = McpHttp.tenant("mcp-tenant");
        try (McpSyncClient ca = McpHttp.sdkClient("/mcp/main", a.getString("adminKey"));
             McpSyncClient cb = McpHttp.sdkClient("/mcp/main", b.getString("adminKey"))) {
            ca.initialize();
            cb.initialize();
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            McpSchema.CallToolResult ra = ca.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", "from-a")));
            McpSchema.CallToolResult rb = cb.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", "from-b")));
            seen.add(String.valueOf(((Map<?, ?>) ra.structuredContent()).get("id")));
            seen.add(String.valueOf(((Map<?, ?>) rb.structuredContent()).get("id")));
            assertEquals(List.of("from-a", "from-b"), seen);
            assertEquals(names(ca), names(cb), "same tool names, each in its own workspace");
        }
        // a key of workspace A gets nothing of workspace B: not B's server id, slug or tools
        var r = McpHttp.post("/mcp/" + b.getJsonNumber("otherServerId").longValue(), a.getString("adminKey"), McpHttp.initialize(McpHttp.LATEST));
        assertEquals(404, r.statusCode());
        var r2 = McpHttp.post("/mcp/" + b.getString("workspace"), a.getString("adminKey"), McpHttp.initialize(McpHttp.LATEST));
        assertEquals(404, r2.statusCode());
    }

    @Test
    void progressArrivesOverSseBeforeTheResult() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        List<McpSchema.ProgressNotification> progress = Collections.synchronizedList(new ArrayList<>());
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"), progress::add)) {
            client.initialize();
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("test_tool_with_progress",
                    Map.of(), Map.of("progressToken", "tok-1")));
            assertFalse(Boolean.TRUE.equals(result.isError()));
            McpHttp.awaitNotifications(progress, 3);
            assertEquals(3, progress.size(), String.valueOf(progress));
            assertTrue(progress.stream().allMatch(p -> "tok-1".equals(p.progressToken())), String.valueOf(progress));
            // The SDK may hand notifications that arrive together to the consumer in any order; the order on the
            // wire is asserted by McpTransportIT.progressTokenWithSseAcceptGetsAnEventStream.
            assertEquals(List.of(0.0, 50.0, 100.0), progress.stream().map(McpSchema.ProgressNotification::progress).sorted().toList());
            assertNull(progress.stream().filter(p -> p.progress() < 0).findAny().orElse(null));
        }
    }
}
