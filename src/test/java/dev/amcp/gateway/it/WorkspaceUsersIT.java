package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A workspace's people and keys over REST, from the first admin the operator created: admins add users with a role and
 * change them, members manage their own keys only, and disabling someone ends their keys and editor session at once.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class WorkspaceUsersIT {

    static final String APP = "/amcp-users";
    static final String PASSWORD = "a-long-enough-password";

    @Deployment(testable = false)
    static WebArchive gateway() {
        return Deployments.gateway("amcp-users", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY));
    }

    /** A new workspace; answers its slug and its first admin's key. */
    static String[] workspace() throws Exception {
        String slug = "users-" + OperatorIT.suffix();
        HttpResponse<String> created = send("POST", "/api/workspaces", Operators.API_KEY,
                "{\"slug\":\"" + slug + "\",\"name\":\"Users\",\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"" + PASSWORD + "\"}}");
        assertEquals(201, created.statusCode(), created.body());
        return new String[] {slug, OperatorIT.json(created).getJsonObject("admin").getString("apiKey")};
    }

    static String addUser(String adminKey, String username, String role) throws Exception {
        HttpResponse<String> r = send("POST", "/api/users", adminKey, "{\"username\":\"" + username + "\",\"displayName\":\"Someone\","
                + "\"email\":\"" + username + "@example.com\",\"role\":\"" + role + "\",\"password\":\"" + PASSWORD + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return username;
    }

    static String keyFor(String key, String username) throws Exception {
        HttpResponse<String> r = send("POST", "/api/users/" + username + "/keys", key, "{\"name\":\"laptop\"}");
        assertEquals(201, r.statusCode(), r.body());
        return OperatorIT.json(r).getString("key");
    }

    @Test
    void anAdminAddsPeopleWithARoleAndChangesThem() throws Exception {
        String[] ws = workspace();
        String admin = ws[1];
        String member = addUser(admin, ws[0] + "-member", "member");
        addUser(admin, ws[0] + "-viewer", "viewer");
        HttpResponse<String> list = send("GET", "/api/users", admin, null);
        assertEquals(200, list.statusCode(), list.body());
        List<JsonObject> users = OperatorIT.json(list).getJsonArray("users").getValuesAs(JsonObject.class);
        assertEquals(List.of(ws[0] + "-admin:admin", member + ":member", ws[0] + "-viewer:viewer"),
                users.stream().map(u -> u.getString("username") + ":" + u.getString("role")).toList());
        assertFalse(list.body().contains("password"), "no password or hash is ever shown");

        HttpResponse<String> changed = send("PUT", "/api/users/" + member, admin, "{\"role\":\"viewer\"}");
        assertEquals(200, changed.statusCode(), changed.body());
        assertEquals("viewer", OperatorIT.json(changed).getString("role"));

        assertEquals(409, send("POST", "/api/users", admin, "{\"username\":\"" + member + "\",\"role\":\"member\"}").statusCode());
        for (String bad : List.of("{\"username\":\"x-" + ws[0] + "\",\"role\":\"boss\"}", "{\"username\":\"x-" + ws[0] + "\"}",
                "{\"username\":\"x-" + ws[0] + "\",\"role\":\"member\",\"email\":\"not-an-address\"}",
                "{\"username\":\"x-" + ws[0] + "\",\"role\":\"member\",\"password\":\"short\"}", "{\"username\":\"a b\",\"role\":\"member\"}")) {
            HttpResponse<String> r = send("POST", "/api/users", admin, bad);
            assertEquals(400, r.statusCode(), bad + " -> " + r.body());
        }
        assertEquals(400, send("PUT", "/api/users/" + member, admin, "{\"enabled\":\"no\"}").statusCode());
        assertEquals(404, send("PUT", "/api/users/nobody-" + ws[0], admin, "{\"role\":\"member\"}").statusCode());
        String[] other = workspace();
        assertEquals(404, send("PUT", "/api/users/" + member, other[1], "{\"enabled\":false}").statusCode(),
                "a user of another workspace reads as missing");
        assertEquals(403, send("GET", "/api/users", keyFor(admin, member), null).statusCode(), "members do not manage people");
        assertEquals(403, send("GET", "/api/users", Operators.API_KEY, null).statusCode(), "an operator is in no workspace");
        assertEquals(401, send("GET", "/api/users", null, null).statusCode());
    }

    @Test
    void membersManageTheirOwnKeysAndAdminsAnyones() throws Exception {
        String[] ws = workspace();
        String admin = ws[1];
        String member = addUser(admin, ws[0] + "-member", "member");
        String memberKey = keyFor(admin, member);
        assertEquals(200, send("GET", "/api/tools", memberKey, null).statusCode());

        HttpResponse<String> own = send("POST", "/api/users/" + member + "/keys", memberKey,
                "{\"name\":\"ci\",\"expiresAt\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}");
        assertEquals(201, own.statusCode(), own.body());
        long ownId = OperatorIT.json(own).getJsonNumber("id").longValue();
        String ownKey = OperatorIT.json(own).getString("key");
        HttpResponse<String> listed = send("GET", "/api/users/" + member + "/keys", memberKey, null);
        assertEquals(200, listed.statusCode(), listed.body());
        assertEquals(2, OperatorIT.json(listed).getJsonArray("keys").size());
        assertFalse(listed.body().contains(ownKey), "a listed key never shows the key");

        HttpResponse<String> foreign = send("GET", "/api/users/" + ws[0] + "-admin/keys", memberKey, null);
        assertEquals(403, foreign.statusCode(), foreign.body());
        assertTrue(OperatorIT.json(foreign).getString("message").contains("admin"), foreign.body());
        assertEquals(403, send("POST", "/api/users/" + ws[0] + "-admin/keys", memberKey, "{\"name\":\"x\"}").statusCode());
        assertEquals(400, send("POST", "/api/users/" + member + "/keys", memberKey, "{\"name\":\"x\",\"expiresAt\":\"2001-01-01T00:00:00Z\"}").statusCode());
        assertEquals(400, send("POST", "/api/users/" + member + "/keys", memberKey, "{\"name\":\"x\",\"expiresAt\":\"tomorrow\"}").statusCode());
        assertEquals(400, send("POST", "/api/users/" + member + "/keys", memberKey, "{}").statusCode(), "a key needs a name");

        assertEquals(204, send("DELETE", "/api/users/" + member + "/keys/" + ownId, memberKey, null).statusCode());
        assertEquals(401, send("GET", "/api/tools", ownKey, null).statusCode(), "a revoked key stops at once");
        assertEquals(404, send("DELETE", "/api/users/" + member + "/keys/" + ownId + "99", admin, null).statusCode());
        assertEquals(404, send("GET", "/api/users/nobody-" + ws[0] + "/keys", admin, null).statusCode());
    }

    @Test
    void disablingAUserEndsTheirKeysAndEditorSessionAtOnce() throws Exception {
        String[] ws = workspace();
        String admin = ws[1];
        String member = addUser(admin, ws[0] + "-member", "member");
        String memberKey = keyFor(admin, member);
        assertEquals(200, McpHttp.post(APP + "/mcp", memberKey, McpHttp.initialize(McpHttp.LATEST)).statusCode());
        HttpClient browser = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(5)).build();
        signIn(browser, member);
        assertEquals(200, editorPage(browser).statusCode(), "signed in");

        HttpResponse<String> off = send("PUT", "/api/users/" + member, admin, "{\"enabled\":false}");
        assertEquals(200, off.statusCode(), off.body());
        assertFalse(OperatorIT.json(off).getBoolean("enabled"));
        assertEquals(401, McpHttp.post(APP + "/mcp", memberKey, McpHttp.initialize(McpHttp.LATEST)).statusCode(), "the key stops at once");
        HttpResponse<String> page = editorPage(browser);
        assertEquals(302, page.statusCode(), "the session ends at once");
        assertTrue(page.headers().firstValue("Location").orElse("").endsWith("/admin/login"), page.headers().toString());

        assertEquals(200, send("PUT", "/api/users/" + member, admin, "{\"enabled\":true}").statusCode());
        assertEquals(401, send("GET", "/api/tools", memberKey, null).statusCode(), "its keys were revoked, not paused");
        assertFalse(OperatorIT.json(send("GET", "/api/users/" + member + "/keys", admin, null)).getJsonArray("keys")
                .getJsonObject(0).isNull("revokedAt"));
    }

    @Test
    void theLastEnabledAdminStays() throws Exception {
        String[] ws = workspace();
        String admin = ws[1];
        String self = ws[0] + "-admin";
        HttpResponse<String> disable = send("PUT", "/api/users/" + self, admin, "{\"enabled\":false}");
        assertEquals(409, disable.statusCode(), disable.body());
        assertEquals(409, send("PUT", "/api/users/" + self, admin, "{\"role\":\"member\"}").statusCode());
        assertEquals(200, send("GET", "/api/tools", admin, null).statusCode(), "the refused change was not half-written");
        String secondKey = keyFor(admin, addUser(admin, ws[0] + "-second", "admin"));
        assertEquals(200, send("PUT", "/api/users/" + self, admin, "{\"role\":\"member\"}").statusCode(), "another admin is left");
        assertEquals(403, send("GET", "/api/users", admin, null).statusCode(), "the demoted admin's key carries the new role at once");
        assertEquals(200, send("GET", "/api/users", secondKey, null).statusCode());
    }

    @Test
    void rolesAreCustomisedAndTheBuiltInOnesStay() throws Exception {
        String[] ws = workspace();
        String admin = ws[1];
        assertEquals(201, send("POST", "/api/servers", admin, "{\"slug\":\"main\",\"name\":\"Main\"}").statusCode());
        HttpResponse<String> list = send("GET", "/api/roles", admin, null);
        assertEquals(200, list.statusCode(), list.body());
        assertEquals(List.of("admin:true", "member:true", "viewer:true"), OperatorIT.json(list).getJsonArray("roles")
                .getValuesAs(JsonObject.class).stream().map(r -> r.getString("name") + ":" + r.getBoolean("builtin")).toList());

        HttpResponse<String> analyst = send("POST", "/api/roles", admin, "{\"name\":\"analyst\",\"capabilities\":[\"inlineCode\"],\"servers\":[\"main\"]}");
        assertEquals(201, analyst.statusCode(), analyst.body());
        assertEquals(List.of("main"), OperatorIT.strings(OperatorIT.json(analyst).getJsonArray("servers").toString()));
        assertEquals(409, send("POST", "/api/roles", admin, "{\"name\":\"analyst\"}").statusCode());
        assertEquals(400, send("POST", "/api/roles", admin, "{\"name\":\"x\",\"capabilities\":[\"root\"]}").statusCode());
        assertEquals(400, send("POST", "/api/roles", admin, "{\"name\":\"x\",\"servers\":[\"nowhere\"]}").statusCode());
        assertEquals(400, send("POST", "/api/roles", admin, "{\"name\":\"Bad Name\"}").statusCode());

        HttpResponse<String> viewer = send("PUT", "/api/roles/viewer", admin, "{\"capabilities\":[\"inlineCode\"],\"servers\":[\"main\"]}");
        assertEquals(200, viewer.statusCode(), "built-in roles can be given inlineCode and re-scoped: " + viewer.body());
        assertEquals(List.of("inlineCode"), OperatorIT.strings(OperatorIT.json(viewer).getJsonArray("capabilities").toString()));
        HttpResponse<String> all = send("PUT", "/api/roles/viewer", admin, "{\"servers\":null}");
        assertTrue(OperatorIT.json(all).isNull("servers"), "null: every server again: " + all.body());
        assertEquals(409, send("DELETE", "/api/roles/viewer", admin, null).statusCode(), "built-in roles are never deleted");
        assertEquals(409, send("PUT", "/api/roles/admin", admin, "{\"capabilities\":[\"tools.write\"]}").statusCode(),
                "the workspace keeps an admin");

        String held = addUser(admin, ws[0] + "-analyst", "analyst");
        HttpResponse<String> refused = send("DELETE", "/api/roles/analyst", admin, null);
        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(OperatorIT.json(refused).getString("message").contains("1 user"), refused.body());
        assertEquals(200, send("PUT", "/api/users/" + held, admin, "{\"role\":\"member\"}").statusCode());
        assertEquals(204, send("DELETE", "/api/roles/analyst", admin, null).statusCode());
        assertEquals(404, send("DELETE", "/api/roles/analyst", admin, null).statusCode());
        assertEquals(403, send("GET", "/api/roles", keyFor(admin, held), null).statusCode(), "members do not manage roles");
    }

    // --- helpers ---

    static void signIn(HttpClient browser, String username) throws Exception {
        HttpResponse<String> login = browser.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + APP + "/admin/login")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(login.body());
        assertTrue(csrf.find(), login.body());
        String form = "_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8) + "&j_username=" + username + "&j_password=" + PASSWORD;
        HttpResponse<String> posted = browser.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + APP + "/admin/login")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, posted.statusCode(), posted.body());
        assertFalse(posted.headers().firstValue("Location").orElse("").contains("error"), posted.headers().toString());
    }

    static HttpResponse<String> editorPage(HttpClient browser) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + APP + "/admin/servers")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
