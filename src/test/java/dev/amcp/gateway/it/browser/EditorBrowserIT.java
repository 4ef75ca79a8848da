package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.editor.boundary.StoredSessionFilter;
import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The admin editor in a real headless Chromium against the managed Liberty: login (with its CSRF token and a new
 * session id), the HTTP tool form with a validation error and its fix, the test button, CSRF rejection, the language switcher, API keys, and a member's
 * read-only view.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EditorBrowserIT extends EditorBrowserSetup {

    private static JsonObject tenant;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    private static JsonObject tenant() throws Exception {
        if (tenant == null) {
            tenant = seedTenant("");
        }
        return tenant;
    }

    private static void loginAs(String role) throws Exception {
        signIn(tenant(), role);
    }

    @Test
    void loginPageIsProtectedAndSendsSecurityHeaders() throws Exception {
        HttpResponse<String> login = get("/admin/login");
        assertEquals(200, login.statusCode());
        String csp = login.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), csp);
        assertTrue(csp.contains("frame-ancestors 'none'"), csp);
        assertEquals("DENY", login.headers().firstValue("X-Frame-Options").orElse(""));
        assertEquals("nosniff", login.headers().firstValue("X-Content-Type-Options").orElse(""));
        String session = login.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(StoredSessionFilter.COOKIE + "=")).findFirst().orElse("");
        assertTrue(session.contains("HttpOnly") && session.toLowerCase().contains("samesite=lax") && session.contains("Path=/admin"), session);
        assertFalse(login.body().contains("<script>"), "no inline script");

        HttpResponse<String> servers = get("/admin/servers");
        assertEquals(302, servers.statusCode());
        assertTrue(servers.headers().firstValue("Location").orElse("").contains("/admin/login"));
    }

    @Test
    void wrongPasswordIsRefusedAndTheRightOneSignsIn() throws Exception {
        browser.open("/admin/assets/admin.css");
        browser.driver.manage().deleteAllCookies();
        browser.open("/admin/servers");
        browser.waitForPath("/admin/login");
        browser.type("#j_username", tenant().getString("admin"));
        browser.type("#j_password", "not-the-password");
        browser.click("#login-submit");
        assertTrue(browser.text("#login-error").length() > 0);
        browser.screenshot("login");

        // The right password in a form whose CSRF token is not the session's does not sign in: the page says why.
        browser.type("#j_username", tenant().getString("admin"));
        browser.type("#j_password", tenant().getString("password"));
        browser.driver.executeScript("document.querySelector('#login-form input[name=_csrf]').value = 'forged-token'");
        browser.click("#login-submit");
        browser.waitForUrlContaining("error=expired"); // the page before it showed an error too: read the new one
        assertTrue(browser.text("#login-error").contains("expired"), browser.text("#login-error"));
        assertTrue(browser.driver.getCurrentUrl().contains("/admin/login"), browser.driver.getCurrentUrl());
        assertFalse(browser.present("#who"), "not signed in");

        loginAs("admin");
        assertTrue(browser.text("#who").contains(tenant().getString("admin")));
        assertTrue(browser.text("#servers-table").contains("/mcp/main"));
        assertTrue(browser.present("a#nav-runs"), "code-mode pages are linked");
        browser.screenshot("servers");

        browser.click("#logout");
        browser.waitForPath("/admin/login");
        assertTrue(browser.present("#logged-out"));
        browser.open("/admin/servers");
        browser.waitForPath("/admin/login");
    }

    @Test
    void httpToolWithValidationErrorsIsFixedSavedAndTested() throws Exception {
        loginAs("admin");
        browser.open("/admin/tools/new?server=main");
        assertNotNull(browser.el(".cm-editor[data-for='inputSchema']"), "the CodeMirror bundle enhances the schema field");
        browser.type("#name", "echo tool!");
        browser.select("#method", "GET");
        browser.type("#url", "${AMCP_UPSTREAM_IT}/echo/{id}");
        browser.type("#query", "q=note");
        browser.click("#save");

        assertTrue(browser.text("#form-error").length() > 0);
        assertTrue(browser.text("#name-error").length() > 0, "the name problem is shown next to the name");
        assertTrue(browser.text("#url-error").contains("{id}"), "the URL parameter must be in the input schema");
        assertEquals("echo tool!", browser.el("#name").getAttribute("value"), "input is kept");
        assertEquals("${AMCP_UPSTREAM_IT}/echo/{id}", browser.el("#url").getAttribute("value"));
        assertEquals("q=note", browser.el("#query").getAttribute("value").strip());
        browser.screenshot("tool-form-errors");

        browser.type("#name", "echo_tool");
        browser.typeInEditor("inputSchema",
                "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"note\":{\"type\":\"string\"}},\"required\":[\"id\"]}");
        assertTrue(browser.fieldValue("inputSchema").contains("\"note\""), browser.fieldValue("inputSchema"));
        browser.click("#save");
        browser.waitForPath("/admin/tools/");
        assertTrue(browser.text("#flash").contains("echo_tool"));

        browser.typeInEditor("args", "{\"id\":\"42\",\"note\":\"hello\"}");
        browser.click("#test");
        String result = browser.text("#test-result");
        assertTrue(result.contains("\"id\": \"42\"") && result.contains("hello"), result);
        browser.screenshot("tool-test", "#test-panel");

        browser.open("/admin/tools?server=main");
        assertTrue(browser.text("#tools-table").contains("echo_tool"));
        browser.screenshot("tools");
    }

    @Test
    void aFormWithoutTheRightCsrfTokenIsRefused() throws Exception {
        loginAs("admin");
        browser.open("/admin/servers/new");
        browser.type("#name", "Forged");
        browser.type("#slug", "forged");
        forgeCsrf("#server-form");
        browser.click("#save");
        assertTrue(browser.text("#error-message").length() > 0);
        browser.open("/admin/servers");
        assertFalse(browser.text("#servers-table").contains("/mcp/forged"), "nothing was saved");

        HttpResponse<String> noSession = postForm("/admin/lang", null, "lang", "de");
        assertEquals(403, noSession.statusCode());
    }

    @Test
    void theLoginPostNeedsTheLoginPagesCsrfTokenAndSigningInChangesTheSessionId() throws Exception {
        String user = tenant().getString("admin");
        String password = tenant().getString("password");
        // A cross-site form post has neither the login page's session nor its token.
        HttpResponse<String> forged = postForm("/admin/login", null, "j_username", user, "j_password", password);
        assertEquals(302, forged.statusCode());
        String expired = forged.headers().firstValue("Location").orElse("");
        assertTrue(expired.endsWith("/admin/login?error=expired"), expired);
        assertFalse(setsSignOnCookie(forged), "not signed in");
        assertTrue(get(URI.create(expired).getPath() + "?error=expired", "Accept-Language", "it").body()
                .contains("Il modulo di accesso era scaduto"), "the login page is shown again, with the reason");

        HttpResponse<String> page = get("/admin/login");
        String session = sessionCookie(page);
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.body());
        assertTrue(token.find(), "the login form carries a token");
        HttpResponse<String> wrongToken = postForm("/admin/login", session, "_csrf", "forged-token",
                "j_username", user, "j_password", password);
        assertTrue(wrongToken.headers().firstValue("Location").orElse("").endsWith("/admin/login?error=expired"));
        assertFalse(setsSignOnCookie(wrongToken), "a wrong token with the right password does not sign in");

        HttpResponse<String> signedIn = postForm("/admin/login", session, "_csrf", token.group(1),
                "j_username", user, "j_password", password);
        assertEquals(302, signedIn.statusCode());
        assertFalse(signedIn.headers().firstValue("Location").orElse("").contains("/admin/login"), signedIn.headers().map().toString());
        String newSession = sessionCookie(signedIn);
        assertFalse(newSession.isEmpty() || newSession.equals(session), "a new session id at login: " + session + " -> " + newSession);
        // Liberty keeps the login in its single sign-on cookie (LtpaToken2), set next to the new session id; a
        // browser sends back every cookie that was set and not deleted.
        String signedInCookies = String.join("; ", signedIn.headers().allValues("Set-Cookie").stream()
                .map(c -> c.split(";", 2)[0]).filter(EditorBrowserIT::notDeleted).distinct().toList());
        assertTrue(signedInCookies.contains(newSession), signedInCookies);
        assertEquals(200, get("/admin/servers", "Cookie", signedInCookies).statusCode(), signedInCookies);
    }

    private static boolean setsSignOnCookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("LtpaToken2=") && notDeleted(c.split(";", 2)[0]));
    }

    /** The editor session cookie's {@code name=…} pair a response sets, or the empty string. */
    private static String sessionCookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(StoredSessionFilter.COOKIE + "="))
                .map(c -> c.split(";", 2)[0]).reduce((first, last) -> last).orElse("");
    }

    /** A {@code name=value} cookie that is not being deleted ({@code name=} or {@code name=""}). */
    private static boolean notDeleted(String cookie) {
        String value = cookie.substring(cookie.indexOf('=') + 1);
        return !value.isEmpty() && !"\"\"".equals(value);
    }

    @Test
    void theSwitcherChangesTheLanguageAndAcceptLanguageIsFollowed() throws Exception {
        assertTrue(get("/admin/login", "Accept-Language", "it-IT,it;q=0.9").body().contains("Accedi"));
        assertTrue(get("/admin/login", "Accept-Language", "de-CH, en;q=0.5").body().contains("Anmelden"));
        assertTrue(get("/admin/login", "Accept-Language", "fr").body().contains("Sign in"));

        loginAs("admin");
        assertEquals("Tools", browser.text("#nav-tools"));
        browser.click("#lang-it");
        browser.waitForPath("/admin/servers");
        assertEquals("Strumenti", browser.text("#nav-tools"));
        assertEquals("it", browser.driver.findElement(By.tagName("html")).getAttribute("lang"));
        browser.open("/admin/tools/new");
        assertEquals("Nuovo strumento HTTP", browser.text("h1"));
        browser.screenshot("tool-form-it");

        browser.click("#lang-de");
        browser.waitForPath("/admin/tools/new");
        assertEquals("Werkzeuge", browser.text("#nav-tools"));
        assertEquals("Neues HTTP-Werkzeug", browser.text("h1"));
        browser.open("/admin/keys");
        assertEquals("API-Schlüssel", browser.text("h1"));

        browser.click("#lang-en");
        assertEquals("API keys", browser.text("h1"));
    }

    @Test
    void anApiKeyIsShownOnceAndCanBeRevoked() throws Exception {
        loginAs("admin");
        browser.open("/admin/keys");
        browser.click("#create-key");
        assertTrue(browser.text("#name-error").length() > 0, "a name is required");

        browser.type("#key-name", "browser key");
        browser.select("#key-role", "viewer");
        browser.click("#create-key");
        String key = browser.text("#new-key").strip();
        assertTrue(key.startsWith("amcp_"), key);
        browser.screenshot("keys");
        assertEquals(200, get("/api/tools", "Authorization", "Bearer " + key).statusCode());

        browser.open("/admin/keys");
        assertFalse(browser.present("#new-key"), "the key is shown only once");
        WebElement row = browser.driver.findElement(By.cssSelector("tr[data-name='browser key']"));
        row.findElement(By.cssSelector("button.revoke")).click();
        assertTrue(browser.text("#flash").length() > 0);
        assertTrue(browser.driver.findElement(By.cssSelector("tr[data-name='browser key'] .status")).getText().contains("revoked"));
        assertEquals(401, get("/api/tools", "Authorization", "Bearer " + key).statusCode());
    }

    @Test
    void aMemberSeesReadOnlyPagesAndTheServiceGateRefusesWrites() throws Exception {
        loginAs("member");
        assertTrue(browser.present("#read-only-note"));
        assertFalse(browser.present("#new-server"));
        browser.click("#servers-table a");
        assertFalse(browser.present("#save"));
        assertFalse(browser.el("#name").isEnabled(), "the form is disabled");
        browser.open("/admin/tools");
        assertFalse(browser.present("#new-tool"));
        browser.open("/admin/keys");
        assertFalse(browser.present("#key-form"));
        assertFalse(browser.present("button.revoke"));

        // A hand-made post with a valid token still reaches the service's @RequiresCapability gate, which refuses it.
        browser.open("/admin/servers/new");
        browser.driver.executeScript("document.getElementById('name').disabled = false;"
                + "document.querySelector('#server-form fieldset').disabled = false;"
                + "document.getElementById('name').value = 'Sneaky'; document.getElementById('slug').value = 'sneaky';"
                + "document.getElementById('server-form').submit();");
        assertTrue(browser.text("#form-error").length() > 0);
        assertEquals("Sneaky", browser.el("#name").getAttribute("value"), "input is kept");
        browser.open("/admin/servers");
        assertFalse(browser.text("#servers-table").contains("/mcp/sneaky"));
        browser.screenshot("servers-member");
    }
}
