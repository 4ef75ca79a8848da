package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The editor shows a signed-in person the tools MCP would show them ({@code ToolAccessPolicy}) and only admins the
 * mappings, checked on the pages the server sends (signed in with the real form login, no browser needed): a viewer
 * whose role may use server {@code main} sees neither {@code other}'s tool nor a write, gets 404 for their pages, and
 * never a URL, header or code; an admin sees all of it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EditorAccessIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    private static final List<String> SECRETS = List.of("secret-path", "s3cret-header-value", "X-Secret", "SECRET_CODE_MARKER",
            "AMCP_UPSTREAM_IT");
    private static String base;
    private static JsonObject tenant;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @BeforeAll
    static void seed() throws Exception {
        base = "http://127.0.0.1:" + System.getProperty("it.http.port", "9180");
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/it-seed/editor-tenant/scoped"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        tenant = Json.createReader(new StringReader(r.body())).readObject();
    }

    /**
     * The sign-in is a filter, not a container constraint, so this walks every editor servlet's paths: an anonymous
     * GET or POST of any of them but the login pages goes to the login page, and no page is served.
     */
    @Test
    void everyEditorPageButTheLoginPagesSendsAnonymousVisitorsToTheLogin() throws Exception {
        Set<String> open = Set.of("/admin/login", "/admin/lang", "/admin/sso/start", "/admin/sso/refused", "/admin/assets/x");
        List<String> paths = editorServletPaths();
        assertTrue(paths.containsAll(List.of("/admin", "/admin/servers", "/admin/users/x", "/admin/logout", "/admin/login")), paths.toString());
        int checked = 0;
        for (String path : paths) {
            if (open.contains(path)) {
                continue;
            }
            for (String method : List.of("GET", "POST")) {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
                        .method(method, HttpRequest.BodyPublishers.ofString("name=x"))
                        .header("Content-Type", "application/x-www-form-urlencoded").build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(302, r.statusCode(), method + " " + path + ": " + r.body());
                assertTrue(r.headers().firstValue("Location").orElse("").endsWith("/admin/login"), method + " " + path + " → " + r.headers().firstValue("Location"));
                checked++;
            }
        }
        assertTrue(checked >= 30, "paths checked: " + checked);
        HttpResponse<String> login = get("/admin/login", null);
        assertEquals(200, login.statusCode(), "the login page itself is open");
    }

    /** Every path of the editor's servlets ({@code @WebServlet} under {@code /admin}), a wildcard as {@code /x}. */
    private static List<String> editorServletPaths() throws Exception {
        List<String> paths = new java.util.ArrayList<>();
        java.nio.file.Path classes = java.nio.file.Path.of("target/classes/dev/amcp/gateway/editor/boundary");
        try (var files = java.nio.file.Files.list(classes)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = "dev.amcp.gateway.editor.boundary." + file.getFileName().toString().replace(".class", "");
                Class<?> type = Class.forName(name, false, EditorAccessIT.class.getClassLoader());
                jakarta.servlet.annotation.WebServlet servlet = type.getAnnotation(jakarta.servlet.annotation.WebServlet.class);
                if (servlet != null) {
                    for (String pattern : servlet.value().length > 0 ? servlet.value() : servlet.urlPatterns()) {
                        paths.add(pattern.endsWith("/*") ? pattern.substring(0, pattern.length() - 1) + "x" : pattern);
                    }
                }
            }
        }
        return paths;
    }

    @Test
    void aViewerSeesOnlyTheToolsOfTheirServersAndNoMapping() throws Exception {
        String cookies = signIn("viewer");
        HttpResponse<String> list = get("/admin/tools", cookies);
        assertEquals(200, list.statusCode(), list.body());
        assertTrue(list.body().contains(">main_read<") && list.body().contains(">main_code<"), list.body());
        assertFalse(list.body().contains("other_read"), "another server's tool is not listed");
        assertFalse(list.body().contains("main_write"), "a write the viewer may not call is not listed");

        for (String hidden : List.of("other_read", "main_write")) {
            HttpResponse<String> page = get("/admin/tools/" + id(hidden), cookies);
            assertEquals(404, page.statusCode(), hidden + " reads as missing");
            assertFalse(page.body().contains("-path"), page.body());
        }
        HttpResponse<String> read = get("/admin/tools/" + id("main_read"), cookies);
        assertEquals(200, read.statusCode(), read.body());
        assertTrue(read.body().contains("id=\"mapping-hidden\""), "the page says why the mapping is not shown");
        HttpResponse<String> code = get("/admin/code-tools/" + id("main_code"), cookies);
        assertEquals(200, code.statusCode(), code.body());
        assertTrue(code.body().contains("id=\"mapping-hidden\""), code.body());
        for (HttpResponse<String> page : List.of(list, read, code)) {
            for (String secret : SECRETS) {
                assertFalse(page.body().contains(secret), secret + " shown to a viewer on " + page.uri());
            }
        }
        // The test button runs as the viewer; a hidden tool cannot be tested (or written) by id either.
        Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(read.body());
        assertTrue(token.find(), "the test form carries a token");
        assertEquals(404, post("/admin/tools/" + id("other_read") + "/test", cookies, "_csrf", token.group(1), "args", "{}").statusCode());
    }

    @Test
    void anAdminSeesEveryToolAndItsMapping() throws Exception {
        String cookies = signIn("admin");
        HttpResponse<String> list = get("/admin/tools", cookies);
        for (String name : List.of("main_read", "main_write", "other_read", "main_code")) {
            assertTrue(list.body().contains(">" + name + "<"), name);
        }
        HttpResponse<String> read = get("/admin/tools/" + id("main_read"), cookies);
        assertTrue(read.body().contains("secret-path") && read.body().contains("s3cret-header-value"), read.body());
        assertTrue(get("/admin/code-tools/" + id("main_code"), cookies).body().contains("SECRET_CODE_MARKER"));
    }

    @Test
    void theCodeEditorGetsTheToolNamesFromTheRunnersParserForAdminsOnly() throws Exception {
        Deployments.requireRunner();
        String code = "const r = await amcp.run('main_read', {});\n// amcp.run('in_a_comment')\nawait amcp.describe(\"other_read\");\n"
                + "return amcp.run(['main', 'write'].join('_'), {});";
        String admin = signIn("admin");
        Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(get("/admin/code-tools/new", admin).body());
        assertTrue(token.find(), "the form carries a token");
        HttpResponse<String> analysis = post("/admin/code-tools/analyze", admin, "_csrf", token.group(1), "code", code);
        assertEquals(200, analysis.statusCode(), analysis.body());
        assertTrue(analysis.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), analysis.body());
        JsonObject read = Json.createReader(new StringReader(analysis.body())).readObject();
        assertTrue(read.getBoolean("checked"), analysis.body());
        assertEquals("[\"main_read\",\"other_read\"]", read.getJsonArray("names").toString());
        assertEquals(4, read.getJsonArray("computed").getJsonObject(0).getInt("line"), analysis.body());
        assertEquals(403, post("/admin/code-tools/analyze", admin, "code", code).statusCode(), "without the CSRF token");

        String viewer = signIn("viewer");
        Matcher viewerToken = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(get("/admin/tools", viewer).body());
        assertTrue(viewerToken.find());
        HttpResponse<String> refused = post("/admin/code-tools/analyze", viewer, "_csrf", viewerToken.group(1), "code", code);
        assertEquals(403, refused.statusCode(), "only admins edit code tools");
        assertFalse(refused.body().contains("main_read"), refused.body());
    }

    @Test
    void aFormBodyOverTheCapIsRefusedBeforeItIsRead() throws Exception {
        String cookies = signIn("admin");
        Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(get("/admin/tools/new", cookies).body());
        assertTrue(token.find(), "the form carries a token");
        HttpResponse<String> big = post("/admin/tools/new", cookies, "_csrf", token.group(1), "server", "main", "name", "too_big",
                "method", "GET", "url", "${AMCP_UPSTREAM_IT}/echo/1", "description", "x".repeat(1100 * 1024));
        assertEquals(413, big.statusCode(), big.body());
        assertTrue(big.body().contains("AMCP_MAX_BODY_BYTES"), big.body());
        assertFalse(get("/admin/tools", cookies).body().contains("too_big"), "nothing was saved");
    }

    // --- helpers ---

    private static long id(String tool) {
        return tenant.getJsonObject("tools").getJsonNumber(tool).longValue();
    }

    /** Signs in through the login form (with its CSRF token) and answers the cookies a browser would send back. */
    private static String signIn(String role) throws Exception {
        HttpResponse<String> page = get("/admin/login", null);
        Map<String, String> jar = new LinkedHashMap<>();
        keep(jar, page);
        Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.body());
        assertTrue(token.find(), "the login form carries a token");
        HttpResponse<String> signedIn = post("/admin/login", cookies(jar), "_csrf", token.group(1),
                "j_username", tenant.getString(role), "j_password", tenant.getString("password"));
        assertEquals(302, signedIn.statusCode());
        assertFalse(signedIn.headers().firstValue("Location").orElse("").contains("/admin/login"), "signed in");
        keep(jar, signedIn);
        return cookies(jar);
    }

    private static void keep(Map<String, String> jar, HttpResponse<String> response) {
        for (String header : response.headers().allValues("Set-Cookie")) {
            String pair = header.split(";", 2)[0];
            String name = pair.substring(0, pair.indexOf('='));
            String value = pair.substring(pair.indexOf('=') + 1);
            if (value.isEmpty() || "\"\"".equals(value)) {
                jar.remove(name);
            } else {
                jar.put(name, value);
            }
        }
    }

    private static String cookies(Map<String, String> jar) {
        return String.join("; ", jar.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    private static HttpResponse<String> get(String path, String cookies) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).GET();
        if (cookies != null && !cookies.isEmpty()) {
            b.header("Cookie", cookies);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String cookies, String... fields) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            body.append(body.isEmpty() ? "" : "&").append(fields[i]).append('=')
                    .append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookies != null && !cookies.isEmpty()) {
            b.header("Cookie", cookies);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
