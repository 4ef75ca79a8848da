package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import dev.amcp.gateway.it.EverythingProxy;
import dev.amcp.gateway.it.ServerLog;
import dev.amcp.gateway.it.EverythingUpstream;
import dev.amcp.gateway.it.McpHttp;
import dev.amcp.gateway.it.OidcTestProvider;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Per-person accounts at an upstream MCP server, against the real parts: server-everything from npm behind a proxy
 * that accepts only tokens the test OpenID provider (mock-oauth2-server) signed and that publishes its protected
 * resource metadata (RFC 9728). An admin registers the server over REST; the gateway finds its authorization server by
 * discovery. In Chromium the admin connects their account (authorization code with PKCE at the provider), which lists
 * the server's tools; the official SDK client then calls a tool with that person's token, renewed by a refresh grant,
 * and code mode calls it too. Disconnected (by the person) or revoked (by an admin), the next call is a tool error
 * naming the page to connect, in code mode too. No token is stored in clear, and the gateway's own key never reaches
 * the upstream.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class UpstreamAccountsBrowserIT extends EditorBrowserSetup {

    @RegisterExtension
    static final EverythingUpstream EVERYTHING = new EverythingUpstream();
    static OidcTestProvider provider;
    static EverythingProxy guard;

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        String port = System.getProperty("it.http.port", "9180");
        return Deployments.gateway(Deployments.NAME, true, Map.of(
                "AMCP_UPSTREAM_PERSONAL", "http://127.0.0.1:" + EverythingProxy.guardedPort(),
                "AMCP_UPSTREAM_OPEN", "http://127.0.0.1:" + EverythingUpstream.port(),
                // the authorization server passes the same upstream rule as every call: its name and loopback address are listed
                "AMCP_UPSTREAM_ALLOWED_HOSTS", "127.0.0.1:9, localhost:" + port + ", localhost:" + OidcTestProvider.PORT
                        + ", 127.0.0.1:" + OidcTestProvider.PORT + ", 0.0.0.0/0"));
    }

    @BeforeAll
    static void startProvider() throws Exception {
        provider = OidcTestProvider.start();
        guard = EverythingProxy.guarded(provider.jwksUrl());
    }

    @AfterAll
    static void stopProvider() {
        if (guard != null) {
            guard.close();
        }
        if (provider != null) {
            provider.close();
        }
    }

    @Test
    void aPersonConnectsTheirAccountInTheEditorAndCallsTheToolWithIt() throws Exception {
        JsonObject tenant = seedTenant("");
        String key = tenant.getString("adminKey");
        assertEquals(201, rest("POST", "/api/servers", key, "{\"slug\":\"cm\",\"name\":\"Code\",\"codeMode\":\"inline\"}").statusCode());
        HttpResponse<String> role = rest("PUT", "/api/roles/admin", key, "{\"capabilities\":[\"admin\",\"tools.write\",\"inlineCode\"]}");
        assertEquals(200, role.statusCode(), role.body());
        HttpResponse<String> registered = rest("POST", "/api/upstream-servers", key, "{\"server\":\"cm\",\"name\":\"personal\","
                + "\"url\":\"${AMCP_UPSTREAM_PERSONAL}/mcp\",\"prefix\":\"p_\",\"accounts\":{\"clientId\":\"amcp-gateway\"}}");
        assertEquals(201, registered.statusCode(), registered.body());
        JsonObject server = json(registered);
        long id = server.getJsonNumber("id").longValue();
        String page = base + "/admin/connections";
        assertEquals(page, server.getString("connect"));
        assertTrue(server.getJsonArray("tools").isEmpty(), "its tools wait for a person's account: " + server);

        provider.tokenRequests(); // forget earlier tests' requests
        java.util.Set<String> earlier = guard.tokens();
        provider.nextTokenLives(tenant.getString("admin"), 5); // so the first use refreshes it
        signIn(tenant, "admin");
        browser.click("#nav-connections");
        browser.waitForPath("/admin/connections");
        assertTrue(browser.text("#connection-" + id + "-state").contains("Not connected"), browser.text("#connection-" + id + "-state"));
        browser.screenshot("connections");
        String connected = connect(id); // to the provider's authorization endpoint and back
        assertTrue(connected.contains("Your account at personal is connected, and its"), connected);
        assertTrue(browser.text("#connection-" + id + "-state").contains("Connected since"), browser.text("#connection-" + id + "-state"));
        assertTrue(browser.text("#connection-" + id + "-accounts").contains(tenant.getString("admin")), "an admin sees who connected");

        List<okhttp3.mockwebserver.RecordedRequest> tokens = provider.tokenRequests();
        String exchange = tokens.get(0).getBody().readUtf8();
        assertTrue(exchange.contains("grant_type=authorization_code") && exchange.contains("code_verifier=")
                && exchange.contains("client_id=amcp-gateway") && exchange.contains("resource=" + java.net.URLEncoder.encode(guard.mcpUrl(),
                java.nio.charset.StandardCharsets.UTF_8)), exchange);
        assertTrue(tokens.stream().skip(1).anyMatch(r -> r.getBody().readUtf8().contains("grant_type=refresh_token")),
                "the 5-second token was renewed before use: " + tokens);

        try (McpSyncClient client = McpHttp.sdkClient("/mcp/cm", key)) {
            client.initialize();
            McpSchema.CallToolResult echo = client.callTool(new McpSchema.CallToolRequest("p_echo", Map.of("message", "with my account")));
            assertFalse(Boolean.TRUE.equals(echo.isError()), echo.toString());
            assertTrue(((McpSchema.TextContent) echo.content().get(0)).text().contains("with my account"), echo.toString());
        }
        String fromCodeCalled = codeRun(key);
        assertTrue(fromCodeCalled.contains("called: ") && fromCodeCalled.contains("Echo: from code"), "code mode calls it too: " + fromCodeCalled);
        java.util.Set<String> sent = new java.util.HashSet<>(guard.tokens());
        sent.removeAll(earlier);
        // mock-oauth2-server renews a 5-second token with another 5-second one: each use renews it first
        assertTrue(sent.size() >= 2, "renewed tokens went upstream: " + sent.size());
        assertTrue(guard.authorizations().stream().noneMatch(a -> a.contains(key)), "the gateway's own key never goes upstream");
        for (String token : sent) {
            JsonObject scan = json(rest("POST", "/it-db-scan", null, token));
            assertEquals(List.of(), scan.getJsonArray("found"), "no token in clear in the database: " + scan);
        }
        String otherKey = seedTenant("").getString("adminKey"); // another workspace's admin sees none of it
        assertEquals(404, rest("GET", "/api/upstream-servers/" + id + "/accounts", otherKey, null).statusCode());
        assertEquals(404, rest("DELETE", "/api/upstream-servers/" + id + "/accounts/me", otherKey, null).statusCode());
        JsonObject accounts = json(rest("GET", "/api/upstream-servers/" + id + "/accounts", key, null));
        assertEquals(1, accounts.getJsonArray("accounts").size(), accounts.toString());
        assertTrue(sent.stream().noneMatch(accounts.toString()::contains), accounts.toString());

        // the person disconnects: the next call, and the code run's, names the page to connect again
        browser.click("#connection-" + id + "-disconnect");
        assertTrue(browser.text("#flash").contains("disconnected"), browser.text("#flash"));
        assertTrue(browser.present("#connection-" + id + "-connect"));
        String refused = call(key, "p_echo");
        assertTrue(refused.contains("\"isError\":true") && refused.contains("not connected it yet") && refused.contains(page), refused);
        String fromCode = codeRun(key);
        assertTrue(fromCode.contains("refused: ") && fromCode.contains(page), fromCode);

        // connected again, then revoked by an admin over REST
        String again = connect(id);
        assertTrue(again.contains("Your account at personal is connected."), again);
        assertTrue(call(key, "p_echo").contains("\"isError\":false"));
        long userId = json(rest("GET", "/api/upstream-servers/" + id + "/accounts", key, null)).getJsonArray("accounts")
                .getJsonObject(0).getJsonNumber("userId").longValue();
        assertEquals(204, rest("DELETE", "/api/upstream-servers/" + id + "/accounts/" + userId, key, null).statusCode());
        assertTrue(call(key, "p_echo").contains(page));
        assertEquals(404, rest("DELETE", "/api/upstream-servers/" + id + "/accounts/me", key, null).statusCode(), "nothing left to disconnect");
        JsonObject audit = json(rest("GET", "/api/audit?kind=credential", key, null));
        assertTrue(audit.toString().contains("account of " + tenant.getString("admin")), audit.toString());
        assertTrue(sent.stream().noneMatch(audit.toString()::contains), "no token in the audit log");
        java.nio.file.Path log = ServerLog.messages();
        String logged = java.nio.file.Files.readString(log);
        assertTrue(sent.stream().noneMatch(logged::contains), "no token in " + log);
    }

    @Test
    void theGatewayRegistersItselfWhereTheAuthorizationServerOffersDynamicRegistration() throws Exception {
        JsonObject tenant = seedTenant("");
        String key = tenant.getString("adminKey");
        int before = guard.registrations().size();
        signIn(tenant, "admin"); // registered in the editor's form this time
        browser.open("/admin/upstream-servers");
        browser.type("#name", "dynamic");
        browser.type("#url", "${AMCP_UPSTREAM_PERSONAL}/dcr/mcp");
        browser.type("#prefix", "d_");
        browser.select("#server", "main");
        browser.click("#accounts");
        browser.click("#upstream-register");
        assertTrue(browser.text("#flash").contains("Each person uses their own account there"), browser.text("#flash"));
        long id = json(rest("GET", "/api/upstream-servers", key, null)).getJsonArray("upstreamServers").getJsonObject(0)
                .getJsonNumber("id").longValue();
        List<String> registrations = guard.registrations();
        assertEquals(before + 1, registrations.size(), "one registration (RFC 7591): " + registrations);
        JsonObject registration = McpHttp.parse(registrations.get(registrations.size() - 1)).asJsonObject();
        assertEquals(base + "/admin/connections/callback", registration.getJsonArray("redirect_uris").getString(0), registration.toString());
        assertEquals("none", registration.getString("token_endpoint_auth_method"), "a public client: " + registration);
        assertEquals("openid mcp:tools", registration.getString("scope"), "the scopes the resource supports (mock-oauth2-server wants openid): " + registration);

        provider.tokenRequests();
        browser.click("#upstream-" + id + "-accounts"); // the upstream's link to Your accounts
        browser.waitForPath("/admin/connections");
        String connected = connect(id);
        assertTrue(connected.contains("Your account at dynamic is connected, and its"), connected);
        String exchange = provider.tokenRequests().get(0).getBody().readUtf8();
        assertTrue(exchange.contains("client_id=dcr-client-" + registrations.size()), "the registered client id: " + exchange);
        String result = McpHttp.post("/mcp/main", key, McpHttp.request(5, "tools/call", "{\"name\":\"d_echo\",\"arguments\":{\"message\":\"dynamic\"}}")).body();
        assertTrue(result.contains("\"isError\":false") && result.contains("Echo: dynamic"), result);
    }

    @Test
    void aServerWithoutProtectedResourceMetadataIsRefusedWithTheReason() throws Exception {
        JsonObject tenant = seedTenant("");
        HttpResponse<String> refused = rest("POST", "/api/upstream-servers", tenant.getString("adminKey"), "{\"server\":\"main\","
                + "\"name\":\"open\",\"url\":\"${AMCP_UPSTREAM_OPEN}/mcp\",\"accounts\":true}");
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("protected resource metadata (RFC 9728)"), refused.body());
        JsonObject listed = json(rest("GET", "/api/upstream-servers", tenant.getString("adminKey"), null));
        assertTrue(listed.getJsonArray("upstreamServers").isEmpty(), "nothing half-written: " + listed);
    }

    /** Presses Connect: to the provider and back to the page, whose flash message it answers. */
    private static String connect(long id) {
        browser.click("#connection-" + id + "-connect");
        try {
            return browser.text("#flash");
        } catch (RuntimeException e) {
            throw new AssertionError("no message at " + browser.driver.getCurrentUrl() + ": "
                    + browser.driver.findElement(org.openqa.selenium.By.tagName("body")).getText(), e);
        }
    }

    private static String call(String key, String tool) throws Exception {
        return McpHttp.post("/mcp/cm", key, McpHttp.request(3, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{\"message\":\"x\"}}")).body();
    }

    private static String codeRun(String key) throws Exception {
        return McpHttp.post("/mcp/cm", key, McpHttp.request(4, "tools/call", "{\"name\":\"code_execute\",\"arguments\":{\"code\":"
                + "\"try { const r = await amcp.run('p_echo', {message: 'from code'}); return 'called: ' + (r.text ?? JSON.stringify(r)); }"
                + " catch (e) { return 'refused: ' + e.message; }\"}}")).body();
    }

    private static HttpResponse<String> rest(String method, String path, String key, String body) throws Exception {
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
                .timeout(java.time.Duration.ofSeconds(60))
                .method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody() : java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        return McpHttp.parse(response.body()).asJsonObject();
    }
}
