package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Upstream MCP servers against the real thing: {@code @modelcontextprotocol/server-everything} from npm in its
 * Streamable HTTP mode, registered over REST under an {@code AMCP_UPSTREAM_EVERYTHING} base. Its tools become tools of
 * a workspace server, and the official MCP Java SDK client calls them through the gateway: results, structured
 * content, an upstream error, the upstream's progress relayed, a cancellation, read/write from the hints, a refresh
 * diff applied in part, code mode using one (with the live runner), and deletion.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class UpstreamMcpIT {

    static final String APP = "/amcp-upstream-mcp";
    @RegisterExtension
    static final EverythingUpstream EVERYTHING = new EverythingUpstream();

    @Deployment(testable = false)
    static WebArchive gateway() {
        Map<String, String> settings = new java.util.LinkedHashMap<>(Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_UPSTREAM_EVERYTHING", "http://127.0.0.1:" + EverythingUpstream.port(),
                "AMCP_UPSTREAM_MCP_TIMEOUT_MS", "20000"));
        // server-everything behind a proxy that wants the test provider's tokens, and that provider
        settings.put("AMCP_UPSTREAM_GUARDED", "http://127.0.0.1:" + EverythingProxy.guardedPort());
        // server-everything behind a proxy that shows what the gateway sent
        settings.put("AMCP_UPSTREAM_PROXIED", "http://127.0.0.1:" + EverythingProxy.openPort());
        settings.put("AMCP_UPSTREAM_AUTH", "http://127.0.0.1:" + OidcTestProvider.PORT);
        settings.put("AMCP_CREDENTIAL_GUARDED_TOKEN_URL", "${AMCP_UPSTREAM_AUTH}/" + OidcTestProvider.ISSUER_ID + "/token");
        settings.put("AMCP_CREDENTIAL_GUARDED_CLIENT_ID", "upstream-client");
        settings.put("AMCP_CREDENTIAL_GUARDED_CLIENT_SECRET", "upstream-secret");
        settings.put("AMCP_CREDENTIAL_GUARDED_SCOPE", "mcp:tools");
        // bound to the same upstream, but its token endpoint is the cloud metadata address
        settings.put("AMCP_CREDENTIAL_LEAKY_UPSTREAM", "GUARDED");
        settings.put("AMCP_CREDENTIAL_LEAKY_TOKEN_URL", "http://169.254.169.254/latest/api/token");
        settings.put("AMCP_CREDENTIAL_LEAKY_CLIENT_ID", "upstream-client");
        settings.put("AMCP_CREDENTIAL_LEAKY_CLIENT_SECRET", "upstream-secret");
        // No access cache: each request to an upstream reads its rule (the workspace's grants) from the database, also
        // those the SDK sends from its own threads (notifications/initialized once the event stream is open, the
        // re-listing after list_changed). Cached, that read happened there only after an access change, now and then.
        settings.put("AMCP_ACCESS_CACHE_SECONDS", "0");
        return Deployments.gateway("amcp-upstream-mcp", false, settings);
    }

    record Ws(String slug, String adminKey, String memberKey) {}

    static Ws workspace() throws Exception {
        String slug = "ups-" + OperatorIT.suffix();
        String admin = EmptyInstallToCodeExecuteIT.workspaceWithCodeMode(APP, slug);
        String member = OperatorIT.json(send("POST", "/api/users/" + slug + "-ada/keys", admin, "{\"name\":\"Ada\"}")).getString("key");
        return new Ws(slug, admin, member);
    }

    static JsonObject register(Ws ws, String body, int status) throws Exception {
        HttpResponse<String> r = send("POST", "/api/upstream-servers", ws.adminKey(), body);
        assertEquals(status, r.statusCode(), r.body());
        return OperatorIT.json(r);
    }

    static JsonObject registerEverything(Ws ws) throws Exception {
        return register(ws, "{\"server\":\"main\",\"name\":\"everything\",\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\",\"prefix\":\"ev_\"}", 201);
    }

    static List<String> names(JsonObject json, String key) {
        return json.getJsonArray(key).getValuesAs(JsonString.class).stream().map(JsonString::getString).sorted().toList();
    }

    @Test
    void registersDiscoversAndCallsThroughTheGatewayWithTheSdkClient() throws Exception {
        Ws ws = workspace();
        JsonObject registered = registerEverything(ws);
        List<String> tools = names(registered, "tools");
        assertTrue(tools.containsAll(List.of("ev_echo", "ev_get-sum", "ev_get-structured-content", "ev_trigger-long-running-operation",
                "ev_toggle-simulated-logging")), tools.toString());
        long id = registered.getJsonNumber("id").longValue();

        JsonObject listed = OperatorIT.json(send("GET", "/api/upstream-servers", ws.adminKey(), null)).getJsonArray("upstreamServers").getJsonObject(0);
        assertEquals("everything", listed.getString("name"));
        assertEquals("${AMCP_UPSTREAM_EVERYTHING}/mcp", listed.getString("url"));
        assertTrue(listed.isNull("credential"));
        Map<String, JsonObject> byName = listed.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(t -> t.getString("name"), Function.identity()));
        assertTrue(byName.get("ev_echo").getBoolean("readOnly"), "readOnlyHint: true");
        assertFalse(byName.get("ev_toggle-simulated-logging").getBoolean("readOnly"), "readOnlyHint: false");
        assertEquals(200, send("GET", "/api/upstream-servers/" + id, ws.adminKey(), null).statusCode());

        // an admin may mark a write tool read-only, never the reverse
        HttpResponse<String> marked = send("PUT", "/api/upstream-servers/" + id + "/tools/ev_toggle-simulated-logging", ws.adminKey(), "{\"readOnly\":true}");
        assertEquals(200, marked.statusCode(), marked.body());
        assertTrue(OperatorIT.json(marked).getBoolean("readOnly"));
        HttpResponse<String> reverse = send("PUT", "/api/upstream-servers/" + id + "/tools/ev_echo", ws.adminKey(), "{\"readOnly\":false}");
        assertEquals(400, reverse.statusCode(), reverse.body());
        assertTrue(reverse.body().contains("read-only by its upstream"), reverse.body());

        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/main", ws.memberKey(), progress::add)) {
            client.initialize();
            Map<String, McpSchema.Tool> offered = client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
            assertTrue(offered.get("ev_echo").annotations().readOnlyHint());
            assertNotNull(offered.get("ev_get-structured-content").outputSchema(), "the upstream's output schema is advertised");
            assertTrue(offered.get("ev_get-sum").inputSchema().toString().contains("First number"), offered.get("ev_get-sum").inputSchema().toString());

            McpSchema.CallToolResult sum = client.callTool(new McpSchema.CallToolRequest("ev_get-sum", Map.of("a", 2, "b", 40)));
            assertFalse(Boolean.TRUE.equals(sum.isError()), sum.toString());
            assertTrue(((McpSchema.TextContent) sum.content().get(0)).text().contains("42"), sum.toString());

            McpSchema.CallToolResult weather = client.callTool(new McpSchema.CallToolRequest("ev_get-structured-content", Map.of("location", "Chicago")));
            assertFalse(Boolean.TRUE.equals(weather.isError()), weather.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> structured = (Map<String, Object>) weather.structuredContent();
            assertEquals(36, ((Number) structured.get("temperature")).intValue(), weather.toString());

            // the upstream's own error, with its message
            McpSchema.CallToolResult failed = client.callTool(new McpSchema.CallToolRequest("ev_get-resource-reference", Map.of("resourceId", 0)));
            assertTrue(Boolean.TRUE.equals(failed.isError()), failed.toString());
            assertTrue(((McpSchema.TextContent) failed.content().get(0)).text().contains("Invalid resourceId: 0"), failed.toString());

            // the gateway's own validation comes first
            McpSchema.CallToolResult invalid = client.callTool(new McpSchema.CallToolRequest("ev_get-sum", Map.of("a", "two", "b", 1)));
            assertTrue(Boolean.TRUE.equals(invalid.isError()));
            assertTrue(((McpSchema.TextContent) invalid.content().get(0)).text().contains("Invalid arguments"), invalid.toString());

            // the upstream's progress reaches the caller under the caller's token
            McpSchema.CallToolResult longRun = client.callTool(McpSchema.CallToolRequest.builder().name("ev_trigger-long-running-operation")
                    .arguments(Map.of("duration", 1, "steps", 3)).progressToken("caller-token-7").build());
            assertFalse(Boolean.TRUE.equals(longRun.isError()), longRun.toString());
            assertTrue(((McpSchema.TextContent) longRun.content().get(0)).text().contains("Long running operation completed"), longRun.toString());
            // the sync client may hand the last notification over just after the result, and in any order
            McpHttp.awaitNotifications(progress, 3);
            assertEquals(List.of(1.0, 2.0, 3.0), progress.stream().map(McpSchema.ProgressNotification::progress).sorted().toList(), progress.toString());
            assertTrue(progress.stream().allMatch(p -> "caller-token-7".equals(p.progressToken()) && Double.valueOf(3).equals(p.total())), progress.toString());
        }
    }

    /**
     * The caller's {@code notifications/cancelled} is forwarded upstream, naming the request the gateway sent there, and
     * the call ends once the upstream has taken it: the proxy in front of server-everything, slow to take it, sees both.
     */
    @Test
    void aCallerCancellationStopsTheUpstreamCall() throws Exception {
        try (EverythingProxy proxy = EverythingProxy.open()) {
            Ws ws = workspace();
            register(ws, "{\"server\":\"main\",\"name\":\"proxied\",\"url\":\"${AMCP_UPSTREAM_PROXIED}/mcp\",\"prefix\":\"ev_\"}", 201);
            HttpResponse<String> init = McpHttp.post(APP + "/mcp/main", ws.memberKey(), McpHttp.initialize(McpHttp.LATEST));
            assertEquals(200, init.statusCode(), init.body());
            String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            CompletableFuture<HttpResponse<String>> running = McpHttp.HTTP.sendAsync(HttpRequest.newBuilder(URI.create(McpHttp.base() + APP + "/mcp/main"))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("Authorization", "Bearer " + ws.memberKey()).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", McpHttp.LATEST)
                    .POST(HttpRequest.BodyPublishers.ofString(McpHttp.request(42, "tools/call",
                            "{\"name\":\"ev_trigger-long-running-operation\",\"arguments\":{\"duration\":15,\"steps\":15}}"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonObject upstreamCall = null;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); upstreamCall == null && System.nanoTime() < deadline; ) {
                Thread.sleep(100); // until the call is in flight upstream
                upstreamCall = proxy.bodies().stream().map(b -> McpHttp.parse(b).asJsonObject())
                        .filter(m -> "tools/call".equals(m.getString("method", ""))).findFirst().orElse(null);
            }
            assertNotNull(upstreamCall, "the call reached the upstream: " + proxy.bodies());
            // a slow upstream: the caller's "cancelled" answer must still come only after the upstream took the notice
            proxy.delayCancellations(1000);
            HttpResponse<String> cancel = McpHttp.post(APP + "/mcp/main", ws.memberKey(),
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":42,\"reason\":\"user pressed stop\"}}",
                    "Mcp-Session-Id", session, "MCP-Protocol-Version", McpHttp.LATEST);
            assertEquals(202, cancel.statusCode(), cancel.body());
            HttpResponse<String> answer = running.get(60, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("\"isError\":true") && answer.body().contains("cancelled"), answer.body());
            assertFalse(answer.body().contains("Long running operation completed"), answer.body());

            JsonObject forwarded = proxy.bodies().stream().map(b -> McpHttp.parse(b).asJsonObject())
                    .filter(m -> "notifications/cancelled".equals(m.getString("method", ""))).findFirst().orElse(null);
            assertNotNull(forwarded, "the cancellation went upstream before the caller was answered (" + answer.body() + "): " + proxy.bodies());
            assertEquals(upstreamCall.get("id"), forwarded.getJsonObject("params").get("requestId"), forwarded.toString());
            assertEquals("user pressed stop", forwarded.getJsonObject("params").getString("reason", ""), forwarded.toString());
        }
    }

    @Test
    void codeModeCallsAnUpstreamToolLikeAnyOther() throws Exception {
        Deployments.requireRunner();
        Ws ws = workspace();
        registerEverything(ws);
        HttpResponse<String> call = McpHttp.post(APP + "/mcp/main", ws.memberKey(), McpHttp.request(2, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"const a = await amcp.run('ev_get-sum', {a: 20, b: 1}); "
                        + "const w = await amcp.run('ev_get-structured-content', {location: 'New York'}); return a + ' / ' + w.temperature;\"}}"));
        assertEquals(200, call.statusCode(), call.body());
        assertTrue(call.body().contains("\"isError\":false"), call.body());
        assertTrue(call.body().contains("21") && call.body().contains(" / 33"), call.body());
    }

    @Test
    void refreshShowsTheDiffAndAppliesOnlyWhatIsAcceptedThenDeleteRemovesTheTools() throws Exception {
        Ws ws = workspace();
        long id = registerEverything(ws).getJsonNumber("id").longValue();
        HttpResponse<String> none = send("GET", "/api/upstream-servers/" + id + "/refresh", ws.adminKey(), null);
        assertEquals(404, none.statusCode(), "nothing staged yet: " + none.body());

        // two tools go missing on the gateway's side; the refresh offers them back
        JsonObject toolsList = OperatorIT.json(send("GET", "/api/upstream-servers/" + id, ws.adminKey(), null));
        for (JsonObject tool : toolsList.getJsonArray("tools").getValuesAs(JsonObject.class)) {
            if (List.of("ev_echo", "ev_get-sum").contains(tool.getString("name"))) {
                assertEquals(204, send("DELETE", "/api/tools/" + tool.getJsonNumber("id"), ws.adminKey(), null).statusCode());
            }
        }
        HttpResponse<String> refreshed = send("POST", "/api/upstream-servers/" + id + "/refresh", ws.adminKey(), null);
        assertEquals(200, refreshed.statusCode(), refreshed.body());
        Map<String, JsonObject> rows = OperatorIT.json(refreshed).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(r -> r.getString("name"), Function.identity()));
        assertEquals("added", rows.get("ev_echo").getString("status"));
        assertEquals("added", rows.get("ev_get-sum").getString("status"));
        assertEquals("unchanged", rows.get("ev_get-structured-content").getString("status"));
        assertTrue(OperatorIT.json(refreshed).getJsonArray("removed").isEmpty());

        HttpResponse<String> applied = send("POST", "/api/upstream-servers/" + id + "/refresh/apply", ws.adminKey(), "{\"tools\":[\"ev_echo\"]}");
        assertEquals(200, applied.statusCode(), applied.body());
        assertEquals(List.of("ev_echo"), names(OperatorIT.json(applied), "created"));
        assertTrue(names(OperatorIT.json(applied), "skipped").contains("ev_get-sum"));
        String tools = send("GET", "/api/tools", ws.adminKey(), null).body();
        assertTrue(tools.contains("\"ev_echo\"") && !tools.contains("\"ev_get-sum\""), tools);

        assertEquals(204, send("DELETE", "/api/upstream-servers/" + id, ws.adminKey(), null).statusCode());
        assertEquals(404, send("GET", "/api/upstream-servers/" + id, ws.adminKey(), null).statusCode());
        assertFalse(send("GET", "/api/tools", ws.adminKey(), null).body().contains("ev_"), "the upstream's tools went with it");
    }

    /**
     * server-everything registers a task tool once a session is initialized and announces it with
     * {@code notifications/tools/list_changed} on the session's stream: the gateway's connection (opened by the first
     * call) hears it and stages a refresh, flagged {@code listChanged}, without changing a tool.
     */
    @Test
    void anUpstreamListChangeStagesARefreshForTheAdmin() throws Exception {
        Ws ws = workspace();
        long id = registerEverything(ws).getJsonNumber("id").longValue();
        assertFalse(OperatorIT.json(send("GET", "/api/upstream-servers/" + id, ws.adminKey(), null)).getBoolean("listChanged"));
        assertEquals(404, send("GET", "/api/upstream-servers/" + id + "/refresh", ws.adminKey(), null).statusCode(), "nothing staged yet");
        String tools = send("GET", "/api/tools", ws.adminKey(), null).body();

        HttpResponse<String> call = McpHttp.post(APP + "/mcp/main", ws.memberKey(), McpHttp.request(1, "tools/call",
                "{\"name\":\"ev_echo\",\"arguments\":{\"message\":\"open the connection\"}}"));
        assertTrue(call.body().contains("Echo: open the connection"), call.body());
        boolean flagged = false;
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); !flagged && System.nanoTime() < deadline; ) {
            Thread.sleep(200); // the notification, the SDK's re-listing and the staged diff run after the call
            flagged = OperatorIT.json(send("GET", "/api/upstream-servers/" + id, ws.adminKey(), null)).getBoolean("listChanged");
        }
        assertTrue(flagged, "the upstream's list_changed staged a refresh");
        HttpResponse<String> staged = send("GET", "/api/upstream-servers/" + id + "/refresh", ws.adminKey(), null);
        assertEquals(200, staged.statusCode(), staged.body());
        assertTrue(OperatorIT.json(staged).getBoolean("listChanged"), staged.body());
        assertTrue(OperatorIT.json(staged).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .anyMatch(r -> r.getString("name").equals("ev_echo") && r.getString("status").equals("unchanged")), staged.body());
        assertEquals(tools, send("GET", "/api/tools", ws.adminKey(), null).body(), "staged only: no tool changed");
    }

    /**
     * OAuth client credentials against a real authorization server (mock-oauth2-server): the gateway fetches one token
     * (client id and secret in HTTP Basic, the configured scope), reuses it for every request of the discovery and the
     * call connection, and the upstream (a proxy that accepts only tokens that provider signed) sees it. A token
     * endpoint outside the upstream rules is refused before anything is sent; without the credential the upstream
     * refuses.
     */
    @Test
    void anOAuthClientCredentialsTokenIsFetchedOnceReusedAndSentToTheUpstream() throws Exception {
        try (OidcTestProvider provider = OidcTestProvider.start(); EverythingProxy guard = EverythingProxy.guarded(provider.jwksUrl())) {
            provider.tokenRequests(); // the provider's own start-up requests
            Ws ws = workspace();
            JsonObject leaky = register(ws, "{\"server\":\"main\",\"name\":\"leaky\",\"url\":\"${AMCP_UPSTREAM_GUARDED}/mcp\",\"credential\":\"LEAKY\"}", 400);
            assertTrue(leaky.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), leaky.toString());
            assertEquals(0, guard.accepted() + guard.refused(), "nothing reached the upstream without its token");
            JsonObject bare = register(ws, "{\"server\":\"main\",\"name\":\"bare\",\"url\":\"${AMCP_UPSTREAM_GUARDED}/mcp\"}", 400);
            assertTrue(bare.getString("message").contains("Listing the tools"), bare.toString());
            assertTrue(guard.refused() > 0 && guard.accepted() == 0, "the upstream refused a call without a token");
            assertTrue(provider.tokenRequests().isEmpty(), "no token fetched for those");

            JsonObject registered = register(ws, "{\"server\":\"main\",\"name\":\"guarded\",\"url\":\"${AMCP_UPSTREAM_GUARDED}/mcp\","
                    + "\"prefix\":\"g_\",\"credential\":\"guarded\"}", 201);
            assertTrue(names(registered, "tools").contains("g_get-sum"), registered.toString());
            assertEquals("GUARDED", OperatorIT.json(send("GET", "/api/upstream-servers", ws.adminKey(), null))
                    .getJsonArray("upstreamServers").getJsonObject(0).getString("credential"), "the credential by name, never its secret");
            try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/main", ws.memberKey())) {
                client.initialize();
                for (int i = 0; i < 3; i++) {
                    McpSchema.CallToolResult sum = client.callTool(new McpSchema.CallToolRequest("g_get-sum", Map.of("a", 40, "b", i)));
                    assertTrue(((McpSchema.TextContent) sum.content().get(0)).text().contains(String.valueOf(40 + i)), sum.toString());
                }
            }
            List<okhttp3.mockwebserver.RecordedRequest> fetched = provider.tokenRequests();
            assertEquals(1, fetched.size(), "one token for the discovery and every call: " + fetched);
            okhttp3.mockwebserver.RecordedRequest token = fetched.get(0);
            assertEquals("POST", token.getMethod());
            assertEquals("Basic " + java.util.Base64.getEncoder().encodeToString("upstream-client:upstream-secret".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    token.getHeader("Authorization"));
            String form = token.getBody().readUtf8();
            assertTrue(form.contains("grant_type=client_credentials") && form.contains("scope=mcp%3Atools"), form);
            // discovery (initialize, initialized, tools/list) and the call connection (initialize, initialized, stream, 3 calls)
            assertTrue(guard.accepted() >= 8, "accepted " + guard.accepted());
            assertEquals(1, guard.tokens().size(), "the same token on every request");
        }
    }

    @Test
    void badRegistrationsAreRefusedClearlyAndWriteNothing() throws Exception {
        Ws ws = workspace();
        JsonObject outside = register(ws, "{\"server\":\"main\",\"name\":\"x\",\"url\":\"http://mcp.example.com/mcp\"}", 400);
        assertTrue(outside.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), outside.toString());
        JsonObject metadata = register(ws, "{\"server\":\"main\",\"name\":\"x\",\"url\":\"http://169.254.169.254/mcp\"}", 400);
        assertTrue(metadata.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), metadata.toString());
        JsonObject setting = register(ws, "{\"server\":\"main\",\"name\":\"x\",\"url\":\"${DB_PASSWORD}/mcp\"}", 400);
        assertTrue(setting.getString("message").contains("AMCP_UPSTREAM_"), setting.toString());
        JsonObject credential = register(ws, "{\"server\":\"main\",\"name\":\"x\",\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\",\"credential\":\"nope\"}", 400);
        assertTrue(credential.getString("message").contains("AMCP_CREDENTIAL_NOPE_VALUE"), credential.toString());
        JsonObject unreachable = register(ws, "{\"server\":\"main\",\"name\":\"x\",\"url\":\"http://127.0.0.1:9/mcp\"}", 400);
        assertTrue(unreachable.getString("message").contains("Listing the tools"), unreachable.toString());
        register(ws, "{\"server\":\"nope\",\"name\":\"x\",\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\"}", 400);
        assertTrue(OperatorIT.json(send("GET", "/api/upstream-servers", ws.adminKey(), null)).getJsonArray("upstreamServers").isEmpty(),
                "nothing half-written");

        registerEverything(ws);
        JsonObject clash = register(ws, "{\"server\":\"main\",\"name\":\"everything\",\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\",\"prefix\":\"b_\"}", 409);
        assertNull(clash.get("id"));
        // the same tools without a new prefix clash with the first registration's names: listed as skipped
        JsonObject again = register(ws, "{\"server\":\"main\",\"name\":\"again\",\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\",\"prefix\":\"ev_\"}", 201);
        assertTrue(again.getJsonArray("tools").isEmpty(), again.toString());
        assertTrue(again.getJsonArray("skipped").toString().contains("already exists"), again.toString());
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
