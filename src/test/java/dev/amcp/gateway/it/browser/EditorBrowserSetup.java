package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The one set-up of the editor's browser tests: the gateway's address, one headless Chromium per test class
 * ({@link Browser}), a plain HTTP client that does not follow redirects, and the seeding of test workspaces and the
 * operator by {@code EditorSeedResource}. A test class extends this, carries {@code @ExtendWith(ArquillianExtension.class)}
 * and {@code @RunAsClient}, and declares its own {@code @Deployment} (so it can ask for a runner first).
 */
abstract class EditorBrowserSetup {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();

    static String base;
    static Browser browser;

    @BeforeAll
    static void startBrowser() throws Exception {
        base = "http://127.0.0.1:" + System.getProperty("it.http.port", "9180");
        browser = new Browser(base);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    /**
     * A fresh workspace with a server {@code main} and an admin, a member and a viewer (their usernames under those
     * keys, the shared {@code password}); {@code variant} is empty or a seed of more ({@code code}, {@code scoped}).
     */
    static JsonObject seedTenant(String variant) throws Exception {
        return postJson("/it-seed/editor-tenant" + (variant.isEmpty() ? "" : "/" + variant));
    }

    /** The instance's test operator ({@code username}, {@code password}), created once. */
    static JsonObject seedOperator() throws Exception {
        return postJson("/it-seed/editor-tenant/operator");
    }

    /** Signs the browser in as a seeded tenant's person of this role ({@code admin}, {@code member}, {@code viewer}). */
    static void signIn(JsonObject tenant, String role) {
        browser.login(tenant.getString(role), tenant.getString("password"));
    }

    static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form post, with this {@code Cookie} header unless {@code null}; {@code fields} are name, value pairs. */
    static HttpResponse<String> postForm(String path, String cookie, String... fields) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            body.append(body.isEmpty() ? "" : "&").append(fields[i]).append('=')
                    .append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a request to the gateway and reads a JSON object from a 200 answer. */
    static JsonObject postJson(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Json.createReader(new StringReader(r.body())).readObject();
    }

    /** The browser's cookies as a {@code Cookie} header, to send a request of its session from outside the page. */
    static String cookieHeader() {
        return browser.driver.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                .collect(java.util.stream.Collectors.joining("; "));
    }

    /**
     * Sets a form's CSRF field to a forged value in the page, as a cross-site form would carry, so that submitting it
     * shows whether the page refuses it.
     */
    static void forgeCsrf(String formCss) {
        browser.driver.executeScript("document.querySelector(arguments[0] + ' input[name=_csrf]').value = 'forged-token'", formCss);
    }
}
