package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator level over REST, on two gateway nodes sharing one database (two deployments on one Liberty). Node A
 * starts first and bootstraps {@link Operators#USERNAME}; node B starts later with another operator name and key, and
 * must create nothing. Workspaces and the license are the operator's; workspace admins get 403 and anonymous
 * callers 401.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class OperatorIT {

    static final String A = "/amcp-op-a";
    static final String B = "/amcp-op-b";
    static final String B_KEY = "amcp_it-operator-b-key-0123456789abcdefghij";

    @Deployment(name = "a", order = 1, testable = false)
    static WebArchive nodeA() {
        return Deployments.gateway("amcp-op-a", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY));
    }

    @Deployment(name = "b", order = 2, testable = false)
    static WebArchive nodeB() {
        return Deployments.gateway("amcp-op-b", false, Map.of(OperatorBootstrap.USERNAME, "it-operator-b",
                OperatorBootstrap.API_KEY, B_KEY));
    }

    @Test
    void theBootstrapCreatesOneOperatorAndALaterStartCreatesNone() throws Exception {
        HttpResponse<String> operators = send("GET", A + "/it-operators", null, null);
        assertEquals(200, operators.statusCode(), operators.body());
        assertEquals(List.of(Operators.USERNAME), strings(json(operators).getJsonArray("operators").toString()),
                "node B found node A's operator and created none");
        assertEquals(200, send("GET", B + "/api/workspaces", Operators.API_KEY, null).statusCode(), "one database, one operator");
        assertEquals(401, send("GET", B + "/api/workspaces", B_KEY, null).statusCode(), "node B's own key was never issued");
    }

    @Test
    void nodesStartingTogetherCreateOneOperator() throws Exception {
        HttpResponse<String> race = send("POST", A + "/it-operators/race", null, null);
        assertEquals(200, race.statusCode(), race.body());
        JsonObject result = json(race);
        assertEquals(1, result.getInt("created"), race.body());
        assertEquals(1, result.getJsonArray("operators").size(), race.body());
        assertEquals(200, send("GET", A + "/api/workspaces", Operators.API_KEY, null).statusCode(), "the usual operator is back");
    }

    @Test
    void badBootstrapSettingsCreateNothing() throws Exception {
        HttpResponse<String> r = send("POST", A + "/it-operators/bad-settings", null, null);
        assertEquals(200, r.statusCode(), r.body());
        JsonObject result = json(r);
        List<String> refusals = strings(result.getJsonArray("refusals").toString());
        assertTrue(refusals.get(0).contains("at least 24 characters"), refusals.toString());
        assertTrue(refusals.get(1).contains("at least 8 characters"), refusals.toString());
        assertEquals(0, result.getJsonArray("operators").size(), "neither refused bootstrap left an account: " + r.body());
        assertEquals(200, send("GET", A + "/api/workspaces", Operators.API_KEY, null).statusCode(), "the usual operator is back");
    }

    @Test
    void anOperatorCreatesAWorkspaceWithItsRolesAndFirstAdmin() throws Exception {
        String slug = "op-" + suffix();
        HttpResponse<String> created = createWorkspace(slug, slug + "-admin");
        assertEquals(201, created.statusCode(), created.body());
        JsonObject body = json(created);
        assertEquals(slug, body.getString("slug"));
        assertTrue(body.getBoolean("enabled"));
        assertEquals(List.of("admin", "member", "viewer"), strings(body.getJsonArray("roles").toString()), "the built-in roles");
        assertEquals(slug + "-admin", body.getJsonObject("admin").getString("username"));
        String adminKey = body.getJsonObject("admin").getString("apiKey");
        assertTrue(adminKey.startsWith("amcp_"), body.toString());
        assertEquals(200, send("GET", A + "/api/tools", adminKey, null).statusCode(), "the admin's key works in the new workspace");

        HttpResponse<String> list = send("GET", A + "/api/workspaces", Operators.API_KEY, null);
        assertEquals(200, list.statusCode(), list.body());
        assertTrue(json(list).getJsonArray("workspaces").getValuesAs(JsonObject.class).stream()
                .anyMatch(w -> w.getString("slug").equals(slug) && w.getBoolean("enabled")), list.body());
    }

    @Test
    void aRefusedCreationWritesNothing() throws Exception {
        String slug = "op-" + suffix();
        assertEquals(201, createWorkspace(slug, slug + "-admin").statusCode());

        String again = "op-" + suffix();
        HttpResponse<String> duplicateSlug = createWorkspace(slug, again + "-admin");
        assertEquals(409, duplicateSlug.statusCode(), duplicateSlug.body());
        assertTrue(json(duplicateSlug).getString("message").contains(slug), duplicateSlug.body());
        HttpResponse<String> takenUser = createWorkspace(again, slug + "-admin");
        assertEquals(409, takenUser.statusCode(), takenUser.body());
        assertFalse(workspaceSlugs().contains(again), "no workspace without its admin");
        assertEquals(201, createWorkspace(again, again + "-admin").statusCode(), "neither the slug nor the admin was half-written");

        for (String bad : List.of("{\"slug\":\"Bad Slug\",\"name\":\"x\",\"admin\":{\"username\":\"x-admin\"}}",
                "{\"slug\":\"ok-slug\",\"name\":\"x\"}", "{\"slug\":7,\"name\":\"x\",\"admin\":{\"username\":\"x-admin\"}}",
                "{\"slug\":\"ok-slug\",\"name\":\"x\",\"admin\":{\"username\":\"x-admin\",\"password\":\"short\"}}",
                "{\"slug\":\"ok-slug\",\"name\":\"x\",\"admin\":\"x-admin\"}", "not json", "[]")) {
            HttpResponse<String> r = send("POST", A + "/api/workspaces", Operators.API_KEY, bad);
            assertEquals(400, r.statusCode(), bad + " -> " + r.body());
            assertFalse(json(r).getString("message").isBlank(), r.body());
        }
        assertFalse(workspaceSlugs().contains("ok-slug"));
        assertEquals(404, send("PUT", A + "/api/workspaces/no-such-" + suffix(), Operators.API_KEY, "{\"enabled\":false}").statusCode());
        assertEquals(400, send("PUT", A + "/api/workspaces/" + slug, Operators.API_KEY, "{\"enabled\":\"no\"}").statusCode());
    }

    @Test
    void operatorEndpointsRefuseWorkspaceAdminsAndAnonymousCallers() throws Exception {
        String slug = "op-" + suffix();
        String adminKey = json(createWorkspace(slug, slug + "-admin")).getJsonObject("admin").getString("apiKey");
        for (String[] call : new String[][] {{"GET", "/api/workspaces", null},
                {"POST", "/api/workspaces", "{\"slug\":\"x-" + slug + "\",\"name\":\"x\",\"admin\":{\"username\":\"x-" + slug + "\"}}"},
                {"PUT", "/api/workspaces/" + slug, "{\"enabled\":false}"},
                {"PUT", "/api/license", TestLicenses.sign("enterprise", 100, 1000)},
                {"DELETE", "/api/license", null}}) {
            HttpResponse<String> admin = send(call[0], A + call[1], adminKey, call[2]);
            assertEquals(403, admin.statusCode(), call[0] + " " + call[1] + " as a workspace admin: " + admin.body());
            assertTrue(json(admin).getString("message").contains("operator"), admin.body());
            HttpResponse<String> anonymous = send(call[0], A + call[1], null, call[2]);
            assertEquals(401, anonymous.statusCode(), call[0] + " " + call[1] + " anonymously: " + anonymous.body());
        }
        assertFalse(workspaceSlugs().contains("x-" + slug));
        assertEquals(200, send("GET", A + "/api/tools", adminKey, null).statusCode(), "the refused PUT did not disable the workspace");

        HttpResponse<String> terms = send("GET", A + "/api/license", adminKey, null);
        assertEquals(200, terms.statusCode(), "admins see the terms in force: " + terms.body());
        HttpResponse<String> install = send("PUT", A + "/api/license", Operators.API_KEY, TestLicenses.sign("trial", 5, 100));
        assertEquals(200, install.statusCode(), install.body());
        assertEquals("trial", json(send("GET", A + "/api/license", adminKey, null)).getString("edition"));
        HttpResponse<String> removed = send("DELETE", A + "/api/license", Operators.API_KEY, null);
        assertEquals(200, removed.statusCode(), removed.body());
        assertEquals("community", json(removed).getString("edition"));
    }

    @Test
    void aWorkspaceSeesItsOwnUsageOfTheLicenseAndNothingOfOthers() throws Exception {
        // Licenses are per gateway and other tests install theirs: this one reads the community terms.
        HttpResponse<String> community = send("DELETE", A + "/api/license", Operators.API_KEY, null);
        assertEquals(200, community.statusCode(), community.body());
        String slug = "op-" + suffix();
        String adminKey = json(createWorkspace(slug, slug + "-admin")).getJsonObject("admin").getString("apiKey");
        String otherKey = json(createWorkspace(slug + "-other", slug + "-other-admin")).getJsonObject("admin").getString("apiKey");
        assertEquals(201, send("POST", A + "/api/servers", adminKey, "{\"slug\":\"main\",\"name\":\"Main\"}").statusCode());
        HttpResponse<String> tool = send("POST", A + "/api/code-tools", adminKey, "{\"server\":\"main\",\"name\":\"one\",\"code\":\"return 1;\"}");
        assertEquals(201, tool.statusCode(), tool.body());

        HttpResponse<String> own = send("GET", A + "/api/license/usage", adminKey, null);
        assertEquals(200, own.statusCode(), own.body());
        assertEquals(1, json(own).getInt("codeTools"), own.body());
        assertEquals(3, json(own).getInt("maxCodeTools"), "the community terms: " + own.body());
        assertEquals(0, json(send("GET", A + "/api/license/usage", otherKey, null)).getInt("codeTools"), "nothing of other workspaces");
        assertEquals(404, send("GET", A + "/api/license/usage", Operators.API_KEY, null).statusCode(), "an operator has no workspace");
        assertEquals(401, send("GET", A + "/api/license/usage", null, null).statusCode());
    }

    @Test
    void disablingAWorkspaceStopsItsKeysOnMcpAtOnce() throws Exception {
        String slug = "op-" + suffix();
        String key = json(createWorkspace(slug, slug + "-admin")).getJsonObject("admin").getString("apiKey");
        assertEquals(200, McpHttp.post(A + "/mcp", key, McpHttp.initialize(McpHttp.LATEST)).statusCode(), "MCP works (and the key is now cached)");

        HttpResponse<String> off = send("PUT", A + "/api/workspaces/" + slug, Operators.API_KEY, "{\"enabled\":false}");
        assertEquals(200, off.statusCode(), off.body());
        assertFalse(json(off).getBoolean("enabled"));
        HttpResponse<String> mcp = McpHttp.post(A + "/mcp", key, McpHttp.initialize(McpHttp.LATEST));
        assertEquals(401, mcp.statusCode(), "the very next MCP request is refused: " + mcp.body());
        assertEquals(401, send("GET", A + "/api/tools", key, null).statusCode());

        HttpResponse<String> on = send("PUT", A + "/api/workspaces/" + slug, Operators.API_KEY, "{\"enabled\":true,\"name\":\"Back\"}");
        assertEquals(200, on.statusCode(), on.body());
        assertEquals("Back", json(on).getString("name"));
        assertEquals(200, McpHttp.post(A + "/mcp", key, McpHttp.initialize(McpHttp.LATEST)).statusCode(), "enabled again");
    }

    @Test
    void theNewAdminCreatesServersOverRestAndTheOperatorCannot() throws Exception {
        String slug = "op-" + suffix();
        String adminKey = json(createWorkspace(slug, slug + "-admin")).getJsonObject("admin").getString("apiKey");
        HttpResponse<String> created = send("POST", A + "/api/servers", adminKey, "{\"slug\":\"main\",\"name\":\"Main\",\"roles\":[\"admin\"]}");
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(List.of("admin"), strings(json(created).getJsonArray("roles").toString()), "only the chosen roles");
        assertEquals("off", json(created).getString("codeMode"));
        HttpResponse<String> all = send("POST", A + "/api/servers", adminKey, "{\"slug\":\"second\",\"name\":\"Second\"}");
        assertEquals(List.of("admin", "member", "viewer"), strings(json(all).getJsonArray("roles").toString()), "without roles, every role");
        HttpResponse<String> list = send("GET", A + "/api/servers", adminKey, null);
        assertEquals(2, json(list).getJsonArray("servers").size(), list.body());

        assertEquals(409, send("POST", A + "/api/servers", adminKey, "{\"slug\":\"main\",\"name\":\"Again\"}").statusCode(), "slug taken");
        assertEquals(400, send("POST", A + "/api/servers", adminKey, "{\"slug\":\"x\",\"name\":\"X\",\"roles\":[\"nobody\"]}").statusCode());
        assertEquals(400, send("POST", A + "/api/servers", adminKey, "{\"slug\":\"x\",\"name\":\"X\",\"codeMode\":\"sometimes\"}").statusCode());
        HttpResponse<String> operator = send("POST", A + "/api/servers", Operators.API_KEY, "{\"slug\":\"x\",\"name\":\"X\"}");
        assertEquals(403, operator.statusCode(), "an operator runs the instance, not a workspace's servers: " + operator.body());
        assertEquals(2, json(send("GET", A + "/api/servers", adminKey, null)).getJsonArray("servers").size(), "nothing half-written");
    }

    // --- helpers ---

    static HttpResponse<String> createWorkspace(String slug, String admin) throws Exception {
        return send("POST", A + "/api/workspaces", Operators.API_KEY,
                "{\"slug\":\"" + slug + "\",\"name\":\"Workspace " + slug + "\",\"admin\":{\"username\":\"" + admin + "\",\"email\":\"" + admin + "@example.com\"}}");
    }

    static List<String> workspaceSlugs() throws Exception {
        HttpResponse<String> list = send("GET", A + "/api/workspaces", Operators.API_KEY, null);
        assertEquals(200, list.statusCode(), list.body());
        return json(list).getJsonArray("workspaces").getValuesAs(JsonObject.class).stream().map(w -> w.getString("slug")).toList();
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(McpHttp.base() + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonObject json(HttpResponse<String> response) {
        return McpHttp.parse(response.body()).asJsonObject();
    }

    static List<String> strings(String jsonArray) {
        return McpHttp.parse(jsonArray).asJsonArray().getValuesAs(jakarta.json.JsonString.class).stream()
                .map(jakarta.json.JsonString::getString).toList();
    }

    static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
