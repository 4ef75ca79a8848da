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
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's upstreams as grants, on the running gateway: {@code AMCP_UPSTREAM_SHOP} and its credential are usable
 * by a workspace only once the operator grants SHOP to it (by {@code ${...}}, by a full URL under the base, by an
 * OpenAPI import or by an upstream MCP registration), a revoked grant stops the next call, and an upgrade keeps the
 * tools an install already had. {@code AMCP_UPSTREAM_IT} is shared with every workspace, as a single-tenant operator
 * would share it.
 */
@ExtendWith(ArquillianExtension.class)
class UpstreamGrantsIT {

    static final String PORT = System.getProperty("it.http.port", "9180");
    static final String SHOP_SECRET = "Bearer shop-secret-" + UUID.randomUUID();
    static final String NOT_GRANTED = "is under the operator's upstream ${AMCP_UPSTREAM_SHOP}, which the operator has not granted to this workspace (/api/upstream-grants)";

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_UPSTREAM_SHARED", "IT",
                "AMCP_UPSTREAM_SHOP", "http://127.0.0.1:" + PORT + "/it-upstream/headers",
                "AMCP_CREDENTIAL_SHOP_VALUE", SHOP_SECRET));
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, path, key, body);
    }

    static HttpResponse<String> saveTool(String key, String name, JsonObject mapping) throws Exception {
        return send("POST", "/api/tools", key, Json.createObjectBuilder().add("server", "demo").add("name", name)
                .add("description", "The shop's view of the credential").add("endpointMapping", mapping).build().toString());
    }

    static McpSchema.CallToolResult call(String key, String tool) {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            return client.callTool(new McpSchema.CallToolRequest(tool, Map.of()));
        }
    }

    static void assertRefused(HttpResponse<String> r) {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains(NOT_GRANTED), r.body());
    }

    static JsonObject shopMapping() {
        return Json.createObjectBuilder().add("method", "GET").add("url", "${AMCP_UPSTREAM_SHOP}").add("credential", "SHOP").build();
    }

    @Test
    void anOperatorUpstreamIsUsableOnlyWhereGrantedAndARevokedGrantStopsTheNextCall() throws Exception {
        JsonObject tenant = CodeModeMcpIT.tenant();
        String a = tenant.getString("key");
        String slug = tenant.getString("workspace");
        String b = CodeModeMcpIT.tenant().getString("key");

        // Not granted: every way in is refused at save, naming the grant.
        assertRefused(saveTool(a, "shop_view", shopMapping()));
        assertRefused(saveTool(a, "shop_by_url", Json.createObjectBuilder().add("method", "GET")
                .add("url", "http://127.0.0.1:" + PORT + "/it-upstream/headers").build()));
        assertRefused(send("POST", "/api/openapi-imports", a, Json.createObjectBuilder().add("server", "demo").add("base", "${AMCP_UPSTREAM_SHOP}")
                .add("document", "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"shop\",\"version\":\"1\"},\"paths\":{\"/x\":{\"get\":"
                        + "{\"operationId\":\"shop_x\",\"responses\":{\"200\":{\"description\":\"ok\"}}}}}}").build().toString()));
        assertRefused(send("POST", "/api/upstream-servers", a, Json.createObjectBuilder().add("server", "demo").add("name", "shop-mcp")
                .add("url", "${AMCP_UPSTREAM_SHOP}").build().toString()));
        String listed = send("GET", "/api/upstreams", a, null).body();
        assertTrue(listed.contains("AMCP_UPSTREAM_IT") && !listed.contains("AMCP_UPSTREAM_SHOP"), "only shared and granted bases are shown: " + listed);

        // The operator grants SHOP to A; wrong requests get clear answers, and only an operator may grant.
        HttpResponse<String> unknown = send("POST", "/api/upstream-grants", Operators.API_KEY, "{\"upstream\":\"NOPE\",\"workspace\":\"" + slug + "\"}");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("upstream names an operator upstream, one of [") && unknown.body().contains("SHOP"), unknown.body());
        HttpResponse<String> nowhere = send("POST", "/api/upstream-grants", Operators.API_KEY, "{\"upstream\":\"SHOP\",\"workspace\":\"no-such-ws\"}");
        assertEquals(400, nowhere.statusCode(), nowhere.body());
        assertTrue(nowhere.body().contains("'no-such-ws' is none"), nowhere.body());
        assertEquals(403, send("POST", "/api/upstream-grants", a, "{\"upstream\":\"SHOP\",\"workspace\":\"" + slug + "\"}").statusCode());
        JsonObject grant = WorkspaceUpstreamsIT.ok(send("POST", "/api/upstream-grants", Operators.API_KEY,
                "{\"upstream\":\"AMCP_UPSTREAM_SHOP\",\"workspace\":\"" + slug + "\"}"), 201);
        assertEquals("SHOP", grant.getString("upstream"));
        assertEquals(409, send("POST", "/api/upstream-grants", Operators.API_KEY, "{\"upstream\":\"SHOP\",\"workspace\":\"" + slug + "\"}").statusCode());

        // Granted: A saves and calls, and the shop gets the operator's credential; B is still refused.
        assertEquals(201, saveTool(a, "shop_view", shopMapping()).statusCode());
        McpSchema.CallToolResult called = call(a, "shop_view");
        assertFalse(Boolean.TRUE.equals(called.isError()), String.valueOf(called.content()));
        assertEquals(TestUpstream.sha256(SHOP_SECRET), ((Map<?, ?>) called.structuredContent()).get("authorization"));
        assertTrue(send("GET", "/api/upstreams", a, null).body().contains("AMCP_UPSTREAM_SHOP"));
        assertRefused(saveTool(b, "shop_view", shopMapping()));

        // Revoked: A's saved tool is refused from its next call, without a restart.
        assertEquals(204, send("DELETE", "/api/upstream-grants/" + grant.getJsonNumber("id").longValue(), Operators.API_KEY, null).statusCode());
        McpSchema.CallToolResult revoked = call(a, "shop_view");
        assertTrue(Boolean.TRUE.equals(revoked.isError()) && String.valueOf(revoked.content()).contains(NOT_GRANTED), String.valueOf(revoked.content()));
        assertEquals(404, send("DELETE", "/api/upstream-grants/" + grant.getJsonNumber("id").longValue(), Operators.API_KEY, null).statusCode());
        String audit = send("GET", "/api/audit?kind=upstreamGrant", Operators.API_KEY, null).body();
        assertTrue(audit.contains("\"create\"") && audit.contains("\"revoke\"") && audit.contains(slug), audit);
    }

    @Test
    void anUpgradeGrantsWhatEachWorkspaceAlreadyUsedOnceAndNeverAgain() throws Exception {
        JsonObject tenant = CodeModeMcpIT.tenant();
        String key = tenant.getString("key");
        String slug = tenant.getString("workspace");
        // A tool as an earlier release stored it, before grants existed.
        WorkspaceUpstreamsIT.ok(send("POST", "/it-grant-upgrade/tool/" + slug + "/legacy_shop", null, shopMapping().toString()), 200);
        McpSchema.CallToolResult before = call(key, "legacy_shop");
        assertTrue(Boolean.TRUE.equals(before.isError()) && String.valueOf(before.content()).contains(NOT_GRANTED), String.valueOf(before.content()));

        WorkspaceUpstreamsIT.ok(send("POST", "/it-grant-upgrade/forget", null, null), 200);
        JsonObject ran = WorkspaceUpstreamsIT.ok(send("POST", "/it-grant-upgrade/run", null, null), 200);
        assertTrue(ran.getInt("granted") >= 1, ran.toString());
        McpSchema.CallToolResult after = call(key, "legacy_shop");
        assertFalse(Boolean.TRUE.equals(after.isError()), String.valueOf(after.content()));
        JsonObject grant = McpHttp.parse(send("GET", "/api/upstream-grants", Operators.API_KEY, null).body()).asJsonObject()
                .getJsonArray("grants").getValuesAs(JsonObject.class).stream().filter(g -> g.getString("workspace").equals(slug) && g.getString("upstream").equals("SHOP"))
                .findFirst().orElseThrow();
        assertEquals("upgrade", grant.getString("grantedBy"));

        // The operator revokes it; the step ran once and does not grant it back.
        assertEquals(204, send("DELETE", "/api/upstream-grants/" + grant.getJsonNumber("id").longValue(), Operators.API_KEY, null).statusCode());
        assertEquals(0, WorkspaceUpstreamsIT.ok(send("POST", "/it-grant-upgrade/run", null, null), 200).getInt("granted"));
        assertTrue(Boolean.TRUE.equals(call(key, "legacy_shop").isError()));
    }
}
