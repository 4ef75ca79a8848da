package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin audit log ({@code AdminAudit}, fired as {@code AdminChange} by the services): each change made over REST
 * leaves exactly one row with its actor and before/after, secrets never reach a row, a refused change leaves none, an
 * admin sees their own workspace only, and {@code GET /api/audit}'s filters work and refuse bad values with a 400.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminAuditIT {

    static final String APP = "/amcp-audit";
    static final String PASSWORD = "audit-secret-password-1";
    static final String HEADER_SECRET = "header-secret-value-0123";

    @Deployment(testable = false)
    static WebArchive gateway() {
        return Deployments.gateway("amcp-audit", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY));
    }

    /** A new workspace: its slug, its first admin's username and key. */
    record Ws(String slug, String admin, String adminKey) {}

    static Ws workspace() throws Exception {
        String slug = "audit-" + OperatorIT.suffix();
        HttpResponse<String> created = send("POST", "/api/workspaces", Operators.API_KEY,
                "{\"slug\":\"" + slug + "\",\"name\":\"Audit\",\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"" + PASSWORD + "\"}}");
        assertEquals(201, created.statusCode(), created.body());
        return new Ws(slug, slug + "-admin", OperatorIT.json(created).getJsonObject("admin").getString("apiKey"));
    }

    static List<JsonObject> audit(String key, String query) throws Exception {
        HttpResponse<String> r = send("GET", "/api/audit" + query, key, null);
        assertEquals(200, r.statusCode(), query + " -> " + r.body());
        return OperatorIT.json(r).getJsonArray("changes").getValuesAs(JsonObject.class);
    }

    /** The only row of this kind and subject in the workspace, as the operator sees it. */
    static JsonObject onlyRow(Ws ws, String kind, String subjectStart) throws Exception {
        List<JsonObject> rows = audit(Operators.API_KEY, "?workspace=" + ws.slug() + "&kind=" + kind).stream()
                .filter(r -> r.getString("subject").startsWith(subjectStart)).toList();
        assertEquals(1, rows.size(), kind + " " + subjectStart + ": " + rows);
        return rows.get(0);
    }

    static void assertActor(JsonObject row, String username, boolean operator) {
        assertEquals(username, row.getJsonObject("actor").getString("username"), row.toString());
        assertEquals(operator, row.getJsonObject("actor").getBoolean("operator"), row.toString());
    }

    static boolean isNull(JsonObject row, String field) {
        return row.get(field) == null || row.get(field) == JsonValue.NULL;
    }

    @Test
    void eachChangeOverRestLeavesOneRowWithItsActorAndBeforeAndAfterAndNoSecret() throws Exception {
        Ws ws = workspace();
        JsonObject created = onlyRow(ws, "workspace", ws.slug());
        assertActor(created, Operators.USERNAME, true);
        assertEquals("create", created.getString("action"));
        assertTrue(isNull(created, "before"), created.toString());
        assertEquals(ws.admin(), created.getJsonObject("after").getString("admin"));

        String member = ws.slug() + "-member";
        assertEquals(201, send("POST", "/api/users", ws.adminKey(), "{\"username\":\"" + member + "\",\"role\":\"member\",\"password\":\"" + PASSWORD + "\"}").statusCode());
        JsonObject user = onlyRow(ws, "user", member);
        assertActor(user, ws.admin(), false);
        assertEquals("create", user.getString("action"));
        assertEquals("member", user.getJsonObject("after").getString("role"));

        assertEquals(200, send("PUT", "/api/users/" + member, ws.adminKey(), "{\"enabled\":false,\"password\":\"" + PASSWORD + "-new\"}").statusCode());
        JsonObject disabled = audit(ws.adminKey(), "?kind=user").get(0);
        assertEquals("disable", disabled.getString("action"));
        assertTrue(disabled.getJsonObject("before").getBoolean("enabled"));
        assertFalse(disabled.getJsonObject("after").getBoolean("enabled"));
        assertTrue(disabled.getJsonObject("after").getBoolean("passwordChanged"));

        assertEquals(201, send("POST", "/api/roles", ws.adminKey(), "{\"name\":\"analyst\",\"capabilities\":[\"inlineCode\"]}").statusCode());
        JsonObject role = onlyRow(ws, "role", "analyst");
        assertEquals(List.of("inlineCode"), OperatorIT.strings(role.getJsonObject("after").getJsonArray("capabilities").toString()));

        HttpResponse<String> key = send("POST", "/api/users/" + ws.admin() + "/keys", ws.adminKey(), "{\"name\":\"ci\"}");
        assertEquals(201, key.statusCode(), key.body());
        String plaintext = OperatorIT.json(key).getString("key");
        long keyId = OperatorIT.json(key).getJsonNumber("id").longValue();
        JsonObject issued = onlyRow(ws, "key", ws.admin() + "/" + keyId);
        assertEquals("create", issued.getString("action"));
        assertEquals("ci", issued.getJsonObject("after").getString("name"));
        assertEquals(204, send("DELETE", "/api/users/" + ws.admin() + "/keys/" + keyId, ws.adminKey(), null).statusCode());
        assertEquals(2, audit(ws.adminKey(), "?kind=key").stream().filter(r -> r.getString("subject").equals(ws.admin() + "/" + keyId)).count(),
                "issue and revoke, one row each");

        assertEquals(201, send("POST", "/api/servers", ws.adminKey(), "{\"slug\":\"main\",\"name\":\"Main\"}").statusCode());
        onlyRow(ws, "server", "main");
        HttpResponse<String> tool = send("POST", "/api/tools", ws.adminKey(), "{\"server\":\"main\",\"name\":\"audited\",\"endpointMapping\":"
                + "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\",\"headers\":{\"X-Api-Key\":\"" + HEADER_SECRET + "\"}}}");
        assertEquals(201, tool.statusCode(), tool.body());
        JsonObject toolRow = onlyRow(ws, "tool", "audited");
        assertEquals("***", toolRow.getJsonObject("after").getJsonObject("endpointMapping").getJsonObject("headers").getString("X-Api-Key"),
                "the header's name stays, its value does not");

        String licensee = "audit-" + ws.slug();
        HttpResponse<String> install = send("PUT", "/api/license", Operators.API_KEY, TestLicenses.signPayload(
                "{\"edition\":\"enterprise\",\"licensee\":\"" + licensee + "\",\"issuedAt\":\"2026-01-01T00:00:00Z\",\"expiresAt\":\"2099-01-01T00:00:00Z\","
                        + "\"features\":{\"maxCodeTools\":10,\"monthlyCodeRuns\":100}}"));
        assertEquals(200, install.statusCode(), install.body());
        List<JsonObject> licenses = audit(Operators.API_KEY, "?kind=license").stream().filter(r -> r.getString("subject").equals(licensee)).toList();
        assertEquals(1, licenses.size(), licenses.toString());
        assertEquals("install", licenses.get(0).getString("action"));
        assertTrue(isNull(licenses.get(0), "workspaceId"), "the license is the instance's");
        assertActor(licenses.get(0), Operators.USERNAME, true);

        HttpResponse<String> code = send("POST", "/api/code-tools", ws.adminKey(), "{\"server\":\"main\",\"name\":\"audited_code\",\"code\":\"return 1;\"}");
        assertEquals(201, code.statusCode(), code.body());
        assertEquals("create", onlyRow(ws, "codeTool", "audited_code").getString("action"));
        String toolId = toolRow.getString("subject").replaceAll(".*\\((\\d+)\\)", "$1");
        assertEquals(204, send("DELETE", "/api/tools/" + toolId, ws.adminKey(), null).statusCode());
        JsonObject deleted = audit(ws.adminKey(), "?kind=tool").get(0);
        assertEquals("delete", deleted.getString("action"));
        assertEquals("audited", deleted.getJsonObject("before").getString("name"));
        assertTrue(isNull(deleted, "after"), deleted.toString());
        assertEquals(200, send("PUT", "/api/workspaces/" + ws.slug(), Operators.API_KEY, "{\"name\":\"Audit renamed\"}").statusCode());
        JsonObject renamed = audit(Operators.API_KEY, "?workspace=" + ws.slug() + "&kind=workspace").get(0);
        assertEquals("update", renamed.getString("action"));
        assertEquals("Audit", renamed.getJsonObject("before").getString("name"));
        assertEquals("Audit renamed", renamed.getJsonObject("after").getString("name"));
        assertEquals(200, send("DELETE", "/api/license", Operators.API_KEY, null).statusCode());
        JsonObject removed = audit(Operators.API_KEY, "?kind=license").get(0);
        assertEquals("remove", removed.getString("action"));
        assertEquals(licensee, removed.getString("subject"));

        // this workspace's rows and the license's (the test database outlives a run, so older rows are not this run's)
        String everything = send("GET", "/api/audit?limit=500&workspace=" + ws.slug(), Operators.API_KEY, null).body()
                + send("GET", "/api/audit?limit=500", ws.adminKey(), null).body() + licenses;
        for (String secret : List.of(PASSWORD, plaintext, ws.adminKey(), HEADER_SECRET, "PBKDF2", "it-upstream-secret")) {
            assertFalse(everything.contains(secret), "a secret in the audit log: " + secret);
        }
        assertFalse(everything.toLowerCase().contains("hash"), "no hash field of any kind");
    }

    @Test
    void aRefusedChangeLeavesNoRow() throws Exception {
        Ws ws = workspace();
        String member = ws.slug() + "-member";
        assertEquals(201, send("POST", "/api/users", ws.adminKey(), "{\"username\":\"" + member + "\",\"role\":\"member\"}").statusCode());
        assertEquals(409, send("POST", "/api/users", ws.adminKey(), "{\"username\":\"" + member + "\",\"role\":\"member\"}").statusCode());
        assertEquals(201, send("POST", "/api/roles", ws.adminKey(), "{\"name\":\"twice\",\"capabilities\":[]}").statusCode());
        assertEquals(409, send("POST", "/api/roles", ws.adminKey(), "{\"name\":\"twice\",\"capabilities\":[]}").statusCode());
        // the row of this change is written before the last check refuses it: the rollback must take the row too
        HttpResponse<String> lastAdmin = send("PUT", "/api/users/" + ws.admin(), ws.adminKey(), "{\"enabled\":false}");
        assertEquals(409, lastAdmin.statusCode(), lastAdmin.body());
        HttpResponse<String> adminRole = send("PUT", "/api/roles/admin", ws.adminKey(), "{\"capabilities\":[]}");
        assertEquals(409, adminRole.statusCode(), adminRole.body());

        List<JsonObject> rows = audit(ws.adminKey(), "");
        assertEquals(List.of("role twice create", "user " + member + " create", "workspace " + ws.slug() + " create"),
                rows.stream().map(r -> r.getString("kind") + " " + r.getString("subject") + " " + r.getString("action")).toList());
    }

    @Test
    void anAdminSeesTheirOwnWorkspaceOnlyAndMembersNone() throws Exception {
        Ws a = workspace();
        Ws b = workspace();
        assertEquals(201, send("POST", "/api/roles", b.adminKey(), "{\"name\":\"b-only\",\"capabilities\":[]}").statusCode());
        List<JsonObject> seenByA = audit(a.adminKey(), "?limit=500");
        long aId = onlyRow(a, "workspace", a.slug()).getJsonNumber("workspaceId").longValue();
        assertFalse(seenByA.isEmpty());
        assertTrue(seenByA.stream().allMatch(r -> !isNull(r, "workspaceId") && r.getJsonNumber("workspaceId").longValue() == aId), seenByA.toString());
        assertFalse(seenByA.toString().contains(b.slug()), "nothing of workspace B");
        assertTrue(audit(Operators.API_KEY, "?workspace=" + b.slug()).stream().anyMatch(r -> r.getString("subject").equals("b-only")),
                "the operator sees every workspace");

        HttpResponse<String> filterByWorkspace = send("GET", "/api/audit?workspace=" + b.slug(), a.adminKey(), null);
        assertEquals(400, filterByWorkspace.statusCode(), "an admin cannot ask for another workspace");
        String member = a.slug() + "-member";
        String viewer = a.slug() + "-viewer";
        assertEquals(201, send("POST", "/api/users", a.adminKey(), "{\"username\":\"" + member + "\",\"role\":\"member\"}").statusCode());
        assertEquals(201, send("POST", "/api/users", a.adminKey(), "{\"username\":\"" + viewer + "\",\"role\":\"viewer\"}").statusCode());
        for (String person : List.of(member, viewer)) {
            String key = OperatorIT.json(send("POST", "/api/users/" + person + "/keys", a.adminKey(), "{\"name\":\"k\"}")).getString("key");
            assertEquals(403, send("GET", "/api/audit", key, null).statusCode(), person);
        }
        assertEquals(401, send("GET", "/api/audit", null, null).statusCode());
    }

    @Test
    void filtersNarrowTheListAndBadValuesAre400() throws Exception {
        Ws ws = workspace();
        String member = ws.slug() + "-member";
        assertEquals(201, send("POST", "/api/users", ws.adminKey(), "{\"username\":\"" + member + "\",\"role\":\"member\"}").statusCode());
        assertEquals(201, send("POST", "/api/roles", ws.adminKey(), "{\"name\":\"filtered\",\"capabilities\":[]}").statusCode());

        assertEquals(List.of("filtered", member, ws.slug()), audit(ws.adminKey(), "").stream().map(r -> r.getString("subject")).toList(),
                "newest first");
        assertEquals(List.of("filtered"), audit(ws.adminKey(), "?kind=role").stream().map(r -> r.getString("subject")).toList());
        assertEquals(List.of("filtered", member), audit(ws.adminKey(), "?actor=" + ws.admin()).stream().map(r -> r.getString("subject")).toList());
        assertEquals(List.of(ws.slug()), audit(Operators.API_KEY, "?workspace=" + ws.slug() + "&actor=" + Operators.USERNAME)
                .stream().map(r -> r.getString("subject")).toList());
        assertEquals(1, audit(ws.adminKey(), "?limit=1").size());
        assertEquals(List.of(), audit(ws.adminKey(), "?since=" + Instant.now().plusSeconds(3600)));
        assertEquals(List.of(), audit(ws.adminKey(), "?until=2001-01-01T00:00:00Z"));
        assertEquals(3, audit(ws.adminKey(), "?since=2001-01-01T00:00:00Z&until=" + Instant.now().plusSeconds(3600)).size());

        Map<String, String> bad = Map.of("kind=nonsense", "workspace, user, role, key, server, tool, codeTool, proposal, license",
                "since=yesterday", "ISO-8601", "until=2026-13-01", "ISO-8601", "limit=0", "1 to 500", "limit=501", "1 to 500",
                "limit=many", "1 to 500", "actor=" + URLEncoder.encode("a b", StandardCharsets.UTF_8), "username",
                "workspace=no-such-" + ws.slug(), "No workspace");
        for (var c : bad.entrySet()) {
            HttpResponse<String> r = send("GET", "/api/audit?" + c.getKey(), Operators.API_KEY, null);
            assertEquals(400, r.statusCode(), c.getKey() + " -> " + r.body());
            assertTrue(OperatorIT.json(r).getString("message").contains(c.getValue()), c.getKey() + " -> " + r.body());
        }
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
