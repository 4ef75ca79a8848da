package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Upstreams and credentials as workspace data, on the running gateway with no restart: an admin adds a company API
 * (an upstream inside the operator's egress ceiling, its secret, a tool under it) and calls it through MCP and code
 * mode; another workspace tries every way at that secret and gets none; the secret is in clear nowhere (every table
 * read with JDBC, the API, the audit log, the server's log).
 */
@ExtendWith(ArquillianExtension.class)
class WorkspaceUpstreamsIT {

    static final String PORT = System.getProperty("it.http.port", "9180");
    static final String SHOP_BASE = "http://127.0.0.1:" + PORT + "/it-upstream";

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, path, key, body);
    }

    static JsonObject ok(HttpResponse<String> r, int status) {
        assertEquals(status, r.statusCode(), r.body());
        return r.body().isBlank() ? JsonObject.EMPTY_JSON_OBJECT : McpHttp.parse(r.body()).asJsonObject();
    }

    /** The operator's egress rule, added unless an earlier test added it. */
    static void egressRule(String rule) throws Exception {
        egressRule("", rule);
    }

    /** The same through the deployment at {@code context}. */
    static void egressRule(String context, String rule) throws Exception {
        HttpResponse<String> r = send("POST", context + "/api/egress-rules", Operators.API_KEY,
                Json.createObjectBuilder().add("rule", rule).add("note", "WorkspaceUpstreamsIT").build().toString());
        assertTrue(r.statusCode() == 201 || r.statusCode() == 409 && r.body().contains("exists already"), r.body());
    }

    static JsonObject upstream(String key, String name, String baseUrl) throws Exception {
        return ok(send("POST", "/api/upstreams", key, Json.createObjectBuilder().add("name", name).add("baseUrl", baseUrl).build().toString()), 201);
    }

    static void headerTool(String key, String name, JsonObject mapping) throws Exception {
        ok(send("POST", "/api/tools", key, Json.createObjectBuilder().add("server", "demo").add("name", name)
                .add("description", "Which credential headers reach the upstream").add("endpointMapping", mapping).build().toString()), 201);
    }

    static JsonObject callTool(String key, String tool) {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, Map.of()));
            assertFalse(Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
            return Json.createObjectBuilder((Map<String, Object>) r.structuredContent()).build();
        }
    }

    static McpSchema.CallToolResult codeExecute(String key, String code) {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            return client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", code)));
        }
    }

    /**
     * The other kinds: HTTP Basic, and OAuth client credentials against a real OpenID provider (mock-oauth2-server), whose
     * token the gateway fetches with the stored client secret and sends; neither secret is stored in clear.
     */
    @Test
    void basicAndClientCredentialsReachTheUpstreamAsTheirHeaders() throws Exception {
        String password = "basic-pw-" + UUID.randomUUID();
        String clientSecret = "client-secret-" + UUID.randomUUID();
        String clientId = "gateway-" + UUID.randomUUID().toString().substring(0, 8);
        String a = CodeModeMcpIT.tenant().getString("key");
        egressRule("127.0.0.1:" + PORT);
        egressRule("127.0.0.1:" + OidcTestProvider.PORT);
        long basic = upstream(a, "basic-api", SHOP_BASE).getJsonNumber("id").longValue();
        JsonObject set = ok(send("PUT", "/api/upstreams/" + basic + "/credential", a, Json.createObjectBuilder().add("kind", "basic")
                .add("username", "svc-orders").add("password", password).build().toString()), 200);
        assertEquals("svc-orders", set.getJsonObject("params").getString("username"));
        headerTool(a, "basic_headers", Json.createObjectBuilder().add("method", "GET").add("upstream", "basic-api").add("url", "/headers").build());
        String expected = "Basic " + java.util.Base64.getEncoder().encodeToString(("svc-orders:" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(TestUpstream.sha256(expected), callTool(a, "basic_headers").getString("authorization"));

        long oauth = upstream(a, "oauth-api", SHOP_BASE).getJsonNumber("id").longValue();
        try (OidcTestProvider provider = OidcTestProvider.start()) {
            ok(send("PUT", "/api/upstreams/" + oauth + "/credential", a, Json.createObjectBuilder().add("kind", "oauth_client")
                    .add("tokenUrl", "http://127.0.0.1:" + OidcTestProvider.PORT + "/" + OidcTestProvider.ISSUER_ID + "/token")
                    .add("clientId", clientId).add("clientSecret", clientSecret).add("scope", "orders.read").build().toString()), 200);
            headerTool(a, "oauth_bearer", Json.createObjectBuilder().add("method", "GET").add("upstream", "oauth-api").add("url", "/bearer").build());
            assertEquals(clientId, callTool(a, "oauth_bearer").getString("sub"), "a client-credentials token issued to the stored client");
        }
        for (String secret : new String[] {password, clientSecret}) {
            JsonObject scan = ok(send("POST", "/it-db-scan", null, secret), 200);
            assertEquals(0, scan.getJsonArray("found").size(), scan.toString());
        }
    }

    @Test
    void anAdminAddsAnApiWithItsSecretAndCallsItThroughMcpAndCodeModeAndNoOtherWorkspaceReachesTheSecret() throws Exception {
        String secret = "ws-secret-" + UUID.randomUUID();
        String a = CodeModeMcpIT.tenant().getString("key");
        String b = CodeModeMcpIT.tenant().getString("key");

        // The ceiling: a name no rule allows is refused, naming the rule to add; the operator adds it, and it is not.
        String far = "far-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> outside = send("POST", "/api/upstreams", a, Json.createObjectBuilder().add("name", "far")
                .add("baseUrl", "https://api." + far + ".example/v1").build().toString());
        assertEquals(400, outside.statusCode(), outside.body());
        assertTrue(outside.body().contains("https://api." + far + ".example:443 is outside the operator's egress ceiling: no egress rule "
                + "(/api/egress-rules) and no entry of AMCP_UPSTREAM_ALLOWED_HOSTS allows api." + far + ".example:443"), outside.body());
        egressRule("*." + far + ".example");
        upstream(a, "far", "https://api." + far + ".example/v1");
        // Loopback needs a rule that names it; a workspace's base never unlocks it by itself.
        HttpResponse<String> loopback = send("POST", "/api/upstreams", a, Json.createObjectBuilder().add("name", "shop")
                .add("baseUrl", SHOP_BASE).build().toString());
        if (loopback.statusCode() == 400) { // a rule from an earlier run of this test is in the database otherwise
            assertTrue(loopback.body().contains("reaches 127.0.0.1,") && loopback.body().contains("a loopback address"), loopback.body());
            egressRule("127.0.0.1:" + PORT);
            loopback = send("POST", "/api/upstreams", a, Json.createObjectBuilder().add("name", "shop").add("baseUrl", SHOP_BASE).build().toString());
        }
        long shop = ok(loopback, 201).getJsonNumber("id").longValue();

        // The secret: write-only; answers carry its kind, fingerprint and dates.
        JsonObject set = ok(send("PUT", "/api/upstreams/" + shop + "/credential", a, Json.createObjectBuilder().add("kind", "header")
                .add("header", "X-Api-Key").add("value", secret).build().toString()), 200);
        assertEquals("header", set.getString("kind"));
        assertEquals("X-Api-Key", set.getJsonObject("params").getString("header"));
        assertTrue(set.getString("fingerprint").matches("[0-9a-f]{8}"), set.toString());
        assertFalse(set.toString().contains(secret));
        String listed = send("GET", "/api/upstreams", a, null).body();
        assertTrue(listed.contains("\"shop\"") && listed.contains(set.getString("fingerprint")) && listed.contains("AMCP_UPSTREAM_IT"), listed);
        assertFalse(listed.contains(secret), listed);

        // A tool under it, called through MCP and from code mode: the upstream gets the secret.
        headerTool(a, "shop_headers", Json.createObjectBuilder().add("method", "GET").add("upstream", "shop").add("url", "/headers").build());
        assertEquals(TestUpstream.sha256(secret), callTool(a, "shop_headers").getString("xApiKey"));
        McpSchema.CallToolResult coded = codeExecute(a, "const h = await amcp.run('shop_headers', {}); return {got: h.xApiKey};");
        assertFalse(Boolean.TRUE.equals(coded.isError()), String.valueOf(coded.content()));
        assertEquals(TestUpstream.sha256(secret), ((Map<?, ?>) coded.structuredContent()).get("got"));

        // Workspace B, every way at it.
        HttpResponse<String> byName = send("POST", "/api/tools", b, Json.createObjectBuilder().add("server", "demo").add("name", "steal")
                .add("endpointMapping", Json.createObjectBuilder().add("method", "GET").add("upstream", "shop").add("url", "/headers")).build().toString());
        assertEquals(400, byName.statusCode(), byName.body());
        assertTrue(byName.body().contains("'shop' is not an upstream of this workspace"), byName.body());
        headerTool(b, "by_url", Json.createObjectBuilder().add("method", "GET").add("url", "${AMCP_UPSTREAM_IT}/headers").build());
        assertEquals("", callTool(b, "by_url").getString("xApiKey"), "a URL under A's base carries no credential of A's");
        upstream(b, "shop", SHOP_BASE); // the same name and base in B: B's own, without A's credential
        headerTool(b, "own_shop", Json.createObjectBuilder().add("method", "GET").add("upstream", "shop").add("url", "/headers").build());
        assertEquals("", callTool(b, "own_shop").getString("xApiKey"));
        assertEquals(404, send("GET", "/api/upstreams/" + shop, b, null).statusCode());
        assertEquals(404, send("PUT", "/api/upstreams/" + shop + "/credential", b, "{\"kind\":\"header\",\"value\":\"x\"}").statusCode());
        assertEquals(404, send("DELETE", "/api/upstreams/" + shop, b, null).statusCode());
        HttpResponse<String> byImport = send("POST", "/api/openapi-imports", b, Json.createObjectBuilder().add("server", "demo")
                .add("url", SHOP_BASE + "/openapi.json").add("credential", "shop").build().toString());
        assertTrue(byImport.statusCode() == 400 && !byImport.body().contains(secret), byImport.body());
        HttpResponse<String> byRegistration = send("POST", "/api/upstream-servers", b, Json.createObjectBuilder().add("server", "demo")
                .add("name", "steal").add("url", SHOP_BASE + "/mcp").add("credential", "shop").build().toString());
        assertEquals(400, byRegistration.statusCode(), byRegistration.body());
        McpSchema.CallToolResult fromCode = codeExecute(b, "return await amcp.run('shop_headers', {});");
        assertTrue(Boolean.TRUE.equals(fromCode.isError()) && !String.valueOf(fromCode.content()).contains(TestUpstream.sha256(secret)),
                String.valueOf(fromCode.content()));

        // In clear nowhere: every table, the audit log over the API, the server's log.
        JsonObject scan = ok(send("POST", "/it-db-scan", null, secret), 200);
        assertTrue(scan.getInt("tables") > 20 && scan.getJsonNumber("rows").longValue() > 100, scan.toString());
        assertEquals(List.of(), scan.getJsonArray("found").getValuesAs(jakarta.json.JsonString.class).stream()
                .map(jakarta.json.JsonString::getString).toList(), "the secret in clear in the database");
        String audit = send("GET", "/api/audit?kind=credential", a, null).body();
        assertTrue(audit.contains("\"use\"") && audit.contains("\"create\"") && audit.contains(set.getString("fingerprint")), audit);
        assertFalse(audit.contains(secret), audit);
        Path log = ServerLog.messages();
        assertFalse(Files.readString(log).contains(secret), "the secret in " + log);
    }
    /**
     * An upstream MCP server under a workspace upstream: another workspace's MCP endpoint of this gateway, which wants
     * that workspace's API key, stored as the upstream's secret. The registration names the upstream and a path under
     * it; every request carries the secret, for MCP calls and code mode alike. Workspace B can neither name A's
     * upstream nor reach the endpoint with A's secret.
     */
    @Test
    void anUpstreamMcpServerUnderAWorkspaceUpstreamGetsItsSecretAndNoOtherWorkspaceCanNameIt() throws Exception {
        String partnerKey = CodeModeMcpIT.tenant().getString("key");
        String a = CodeModeMcpIT.tenant().getString("key");
        String b = CodeModeMcpIT.tenant().getString("key");
        egressRule("127.0.0.1:" + PORT);
        long partner = upstream(a, "partner-mcp", "http://127.0.0.1:" + PORT + "/mcp").getJsonNumber("id").longValue();
        JsonObject registration = Json.createObjectBuilder().add("server", "demo").add("name", "partner").add("upstream", "partner-mcp")
                .add("url", "/demo").add("prefix", "p_").build();
        HttpResponse<String> withoutSecret = send("POST", "/api/upstream-servers", a, registration.toString());
        assertEquals(400, withoutSecret.statusCode(), "the partner's endpoint wants its key: " + withoutSecret.body());
        assertEquals(400, send("POST", "/api/upstream-servers", a, Json.createObjectBuilder(registration).add("name", "outside")
                .add("url", "/../it-upstream").build().toString()).statusCode(), "a path walking out of the base");

        ok(send("PUT", "/api/upstreams/" + partner + "/credential", a, Json.createObjectBuilder().add("kind", "header")
                .add("value", "Bearer " + partnerKey).build().toString()), 200);
        JsonObject registered = ok(send("POST", "/api/upstream-servers", a, registration.toString()), 201);
        assertTrue(registered.getJsonArray("tools").toString().contains("\"p_customer_get\""), registered.toString());
        String listed = send("GET", "/api/upstream-servers", a, null).body();
        assertTrue(listed.contains("\"upstream\":\"partner-mcp\"") && !listed.contains(partnerKey), listed);
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", a)) {
            client.initialize();
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("p_customer_get", Map.of("customerId", 7)));
            assertFalse(Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
        }
        McpSchema.CallToolResult coded = codeExecute(a, "const c = await amcp.run('p_customer_get', {customerId: 7}); return {id: c.id};");
        assertFalse(Boolean.TRUE.equals(coded.isError()), String.valueOf(coded.content()));
        assertEquals(7, ((Number) ((Map<?, ?>) coded.structuredContent()).get("id")).intValue());

        // the operator narrows the ceiling: the open connection's next request is refused, not only new connections
        long rule = ok(send("GET", "/api/egress-rules", Operators.API_KEY, null), 200).getJsonArray("rules").getValuesAs(JsonObject.class)
                .stream().filter(r -> r.getString("rule").equals("127.0.0.1:" + PORT)).findFirst().orElseThrow().getJsonNumber("id").longValue();
        assertEquals(204, send("DELETE", "/api/egress-rules/" + rule, Operators.API_KEY, null).statusCode());
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", a)) {
            client.initialize();
            McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest("p_customer_get", Map.of("customerId", 7)));
            assertTrue(Boolean.TRUE.equals(refused.isError()) && String.valueOf(refused.content()).contains("may not be called now")
                    && String.valueOf(refused.content()).contains("an egress rule lists that address"), String.valueOf(refused.content()));
        } finally {
            egressRule("127.0.0.1:" + PORT);
        }

        HttpResponse<String> byName = send("POST", "/api/upstream-servers", b, Json.createObjectBuilder(registration).build().toString());
        assertEquals(400, byName.statusCode(), byName.body());
        assertTrue(byName.body().contains("'partner-mcp' is not an upstream of this workspace"), byName.body());
        HttpResponse<String> byUrl = send("POST", "/api/upstream-servers", b, Json.createObjectBuilder().add("server", "demo").add("name", "partner")
                .add("url", "http://127.0.0.1:" + PORT + "/mcp/demo").build().toString());
        assertEquals(400, byUrl.statusCode(), "A's secret does not go with a URL under A's base: " + byUrl.body());
        assertEquals(0, ok(send("POST", "/it-db-scan", null, partnerKey), 200).getJsonArray("found").size());
    }
}
