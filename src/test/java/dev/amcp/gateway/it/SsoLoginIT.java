package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The editor's single sign-on and password sign-in over HTTP, against a real OpenID provider the test starts
 * (mock-oauth2-server on {@code it.oidc.port}, issuer {@code /amcp}, here without its interactive page; the browser
 * test uses that). The gateway runs with SSO on, {@code AMCP_LOCAL_LOGIN=false} and a small throttle; a second
 * deployment without any SSO setting shows that nothing changes when it is off.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SsoLoginIT {

    static final String CLIENT_ID = "amcp-editor";
    static final String NO_SSO = "/amcp-nosso";
    static final int LOCK_SECONDS = 2;

    static MockOAuth2Server provider;
    static String base;
    static JsonObject tenant;

    static int oidcPort() {
        return Integer.parseInt(System.getProperty("it.oidc.port", "18080"));
    }

    static String issuer() {
        return "http://127.0.0.1:" + oidcPort() + "/amcp";
    }

    @Deployment(name = "sso", order = 1, testable = false)
    static WebArchive gateway() {
        return Deployments.gateway(Deployments.NAME, true, Map.of(
                "AMCP_OIDC_ISSUER", issuer(),
                "AMCP_OIDC_CLIENT_ID", CLIENT_ID,
                "AMCP_OIDC_CLIENT_SECRET", "amcp-editor-secret",
                "AMCP_LOCAL_LOGIN", "false",
                "AMCP_LOGIN_MAX_FAILURES", "3",
                "AMCP_LOGIN_MAX_FAILURES_PER_ADDRESS", "8",
                "AMCP_LOGIN_LOCK_SECONDS", Integer.toString(LOCK_SECONDS)));
    }

    @Deployment(name = "nosso", order = 2, testable = false)
    static WebArchive withoutSso() {
        return Deployments.gateway(NO_SSO.substring(1), false, Map.of());
    }

    @BeforeAll
    static void startProvider() throws Exception {
        base = "http://127.0.0.1:" + System.getProperty("it.http.port", "9180");
        provider = new MockOAuth2Server(OAuth2Config.Companion.fromJson("{\"interactiveLogin\": false}"));
        provider.start(InetAddress.getByName("127.0.0.1"), oidcPort());
        HttpResponse<String> seeded = send(client(), "POST", base + "/it-seed/sso", null, null);
        assertEquals(200, seeded.statusCode(), seeded.body());
        tenant = Json.createReader(new StringReader(seeded.body())).readObject();
    }

    @AfterAll
    static void stopProvider() throws Exception {
        if (provider != null) {
            provider.shutdown();
        }
        // The throttle's counts are rows every later test deployment shares: leave 127.0.0.1 unlocked for them.
        assertEquals(204, send(client(), "DELETE", base + "/it-seed/sso/throttle", null, null).statusCode());
    }

    // ---------------------------------------------------------------- single sign-on

    @Test
    @Order(1)
    void aMappedGroupSignsInAndIsProvisionedWithItsRole() throws Exception {
        String group = unique("g");
        map(group, "member");
        HttpClient browser = client();
        String username = unique("sso");
        HttpResponse<String> landed = signIn(browser, username, List.of("unmapped-" + group, group));
        assertEquals(302, landed.statusCode(), landed.body());
        assertEquals(base + "/admin/servers", location(landed), "back in the editor");
        HttpResponse<String> page = send(browser, "GET", base + "/admin/servers", null, null);
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains(username + " · member"), "signed in with the mapped role");

        JsonObject user = userNamed(username);
        assertEquals("member", user.getString("role"));
        assertEquals(username + "@example.com", user.getString("email"));
        HttpResponse<String> password = passwordLogin(client(), username, "any-password-at-all");
        assertEquals(base + "/admin/login?error=true", location(password), "a person provisioned by SSO has no password");

        // Signing in again finds the same account by issuer and subject, and the role follows the mapping.
        String adminGroup = unique("g");
        map(adminGroup, "admin");
        HttpClient again = client();
        assertEquals(base + "/admin/servers", location(signIn(again, username, List.of(group, adminGroup))));
        assertEquals("admin", userNamed(username).getString("role"), "the strongest mapped role wins");
    }

    @Test
    @Order(2)
    void withoutAMappedGroupThePersonIsRefusedWithAClearPageAndNoAccount() throws Exception {
        HttpClient browser = client();
        String username = unique("nogroup");
        HttpResponse<String> refused = signIn(browser, username, List.of(unique("nobody-maps-this")));
        assertEquals(302, refused.statusCode());
        assertEquals(base + "/admin/sso/refused", location(refused));
        HttpResponse<String> page = send(browser, "GET", base + "/admin/sso/refused", null, null, "Accept-Language", "de");
        assertEquals(403, page.statusCode());
        assertTrue(page.body().contains("keine Ihrer Gruppen ist einer Rolle eines Workspaces zugeordnet"), page.body());
        assertEquals(302, send(browser, "GET", base + "/admin/servers", null, null).statusCode(), "not signed in");
        assertTrue(userNamedOrNull(username) == null, "nobody was provisioned");
    }

    @Test
    @Order(2)
    void aTakenUserNameIsRefusedAndTheLocalAccountKeepsItsRole() throws Exception {
        String group = unique("g");
        map(group, "admin");
        HttpClient browser = client();
        // The provider vouches for someone calling themselves like the workspace's member (or the operator).
        for (String taken : List.of(tenant.getString("member"), tenant.getString("operator"))) {
            HttpResponse<String> refused = signIn(browser, taken, List.of(group));
            assertEquals(base + "/admin/sso/refused", location(refused));
            String page = send(browser, "GET", base + "/admin/sso/refused", null, null).body();
            assertTrue(page.contains("already exists"), page);
        }
        assertEquals(302, send(browser, "GET", base + "/admin/servers", null, null).statusCode(), "not signed in");
        assertEquals("member", userNamed(tenant.getString("member")).getString("role"), "the local account is untouched");
    }

    @Test
    @Order(3)
    void aCallbackIsAcceptedOnceAndOnlyInTheSessionThatStartedIt() throws Exception {
        String group = unique("g");
        map(group, "viewer");
        // Login CSRF: an attacker's own callback (code and state from their session) planted in a victim's browser.
        HttpClient attacker = client();
        String callback = callbackOf(attacker, unique("attacker"), List.of(group));
        HttpClient victim = client();
        send(victim, "GET", base + "/admin/login", null, null);
        HttpResponse<String> planted = send(victim, "GET", callback, null, null);
        assertEquals(base + "/admin/sso/refused", location(planted));
        assertTrue(send(victim, "GET", base + "/admin/sso/refused", null, null).body().contains("did not start here"));
        assertEquals(302, send(victim, "GET", base + "/admin/servers", null, null).statusCode(), "the victim is not signed in");
        assertEquals(base + "/admin/servers", location(send(attacker, "GET", callback, null, null)), "it was a good callback");

        // A state is used once: the second use of a callback is refused for its state, whatever the first use came to.
        HttpClient browser = client();
        String refusedOnce = callbackOf(browser, unique("once"), List.of(unique("unmapped")));
        send(browser, "GET", refusedOnce, null, null);
        assertTrue(send(browser, "GET", base + "/admin/sso/refused", null, null).body().contains("none of your groups"));
        assertEquals(base + "/admin/sso/refused", location(send(browser, "GET", refusedOnce, null, null)));
        assertTrue(send(browser, "GET", base + "/admin/sso/refused", null, null).body().contains("did not start here"));
    }

    @Test
    @Order(4)
    void anIdTokenOrCodeOfAnotherSignInIsRefused() throws Exception {
        String group = unique("g");
        map(group, "viewer");
        HttpClient browser = client();

        // The provider vouches with a nonce this sign-in did not send (a token minted for another sign-in): refused.
        URI started = authorizeUri(browser);
        String otherNonce = "replayed-" + UUID.randomUUID();
        provider.enqueueCallback(callbackFor(unique("nonce"), List.of(group)));
        String callback = location(send(browser, "GET", started.toString().replaceAll("nonce=[^&]+", "nonce=" + otherNonce), null, null));
        assertEquals(base + "/admin/sso/refused", location(send(browser, "GET", callback, null, null)));
        String page = send(browser, "GET", base + "/admin/sso/refused", null, null).body();
        assertTrue(page.contains("nonce"), page);
        assertEquals(302, send(browser, "GET", base + "/admin/servers", null, null).statusCode(), "not signed in");

        // One sign-in's code presented with another's state: the code verifier does not match, the provider says no.
        URI first = authorizeUri(browser);
        URI second = authorizeUri(browser);
        provider.enqueueCallback(callbackFor(unique("pkce"), List.of(group)));
        String firstCallback = location(send(browser, "GET", first.toString(), null, null));
        String swapped = firstCallback.replaceAll("state=[^&]+", "state=" + query(second).get("state"));
        assertEquals(base + "/admin/sso/refused", location(send(browser, "GET", swapped, null, null)));
        page = send(browser, "GET", base + "/admin/sso/refused", null, null).body();
        assertTrue(page.contains("did not confirm the sign-in"), page);
        assertEquals(302, send(browser, "GET", base + "/admin/servers", null, null).statusCode(), "not signed in");
    }

    @Test
    @Order(5)
    void afterSignInTheBrowserOnlyEverGoesToAnEditorPage() throws Exception {
        String group = unique("g");
        map(group, "viewer");
        HttpClient browser = client();
        // A link crafted to bounce the browser off-site after signing in (a protocol-relative target).
        send(browser, "GET", base + "/admin//evil.example/x", null, null);
        URI landed = URI.create(location(signIn(browser, unique("redir"), List.of(group))));
        assertEquals("127.0.0.1", landed.getHost(), landed.toString());
        assertTrue(landed.getPath().startsWith("/admin/"), landed.toString());

        HttpClient other = client();
        assertEquals(302, send(other, "GET", base + "/admin/tools?server=main", null, null).statusCode());
        assertEquals(base + "/admin/tools?server=main", location(signIn(other, unique("redir"), List.of(group))),
                "an editor page asked for before signing in is where the browser lands");
    }

    @Test
    @Order(6)
    void theProviderSayingNoIsShownAndSignsNobodyIn() throws Exception {
        HttpClient browser = client();
        URI authorize = authorizeUri(browser);
        String state = query(authorize).get("state");
        HttpResponse<String> denied = send(browser, "GET", base + "/admin/sso/callback?error=access_denied&state=" + state, null, null);
        assertEquals(base + "/admin/sso/refused", location(denied));
        assertTrue(send(browser, "GET", base + "/admin/sso/refused", null, null).body().contains("access_denied"));
    }

    @Test
    @Order(7)
    void theMappingApiIsForAdminsAndChecksItsInput() throws Exception {
        String group = unique("g");
        HttpResponse<String> created = send(client(), "POST", base + "/api/sso/mappings", tenant.getString("adminKey"),
                "{\"claimValue\":\"" + group + "\",\"role\":\"member\"}");
        assertEquals(201, created.statusCode(), created.body());
        long id = Json.createReader(new StringReader(created.body())).readObject().getJsonNumber("id").longValue();
        HttpResponse<String> again = send(client(), "POST", base + "/api/sso/mappings", tenant.getString("adminKey"),
                "{\"claimValue\":\"" + group + "\",\"role\":\"admin\"}");
        assertEquals(409, again.statusCode(), again.body());
        HttpResponse<String> badRole = send(client(), "POST", base + "/api/sso/mappings", tenant.getString("adminKey"),
                "{\"claimValue\":\"x\",\"role\":\"no-such-role\"}");
        assertEquals(400, badRole.statusCode(), badRole.body());
        assertTrue(badRole.body().contains("no-such-role"), badRole.body());
        assertEquals(400, send(client(), "POST", base + "/api/sso/mappings", tenant.getString("adminKey"),
                "{\"claimValue\":\"   \",\"role\":\"admin\"}").statusCode());
        HttpResponse<String> list = send(client(), "GET", base + "/api/sso/mappings", tenant.getString("adminKey"), null);
        assertTrue(list.body().contains("\"claimValue\":\"" + group + "\""), list.body());
        assertEquals(204, send(client(), "DELETE", base + "/api/sso/mappings/" + id, tenant.getString("adminKey"), null).statusCode());
        assertEquals(404, send(client(), "DELETE", base + "/api/sso/mappings/" + id, tenant.getString("adminKey"), null).statusCode());
        assertEquals(401, send(client(), "GET", base + "/api/sso/mappings", null, null).statusCode());
        assertEquals(403, send(client(), "GET", base + "/api/sso/mappings", Operators.API_KEY, null).statusCode(),
                "the operator is in no workspace");

        HttpResponse<String> role = send(client(), "POST", base + "/api/roles", tenant.getString("adminKey"),
                "{\"name\":\"auditors\",\"capabilities\":[]}");
        assertEquals(201, role.statusCode(), role.body());
        map(unique("g"), "auditors");
        HttpResponse<String> deleteMapped = send(client(), "DELETE", base + "/api/roles/auditors", tenant.getString("adminKey"), null);
        assertEquals(409, deleteMapped.statusCode(), deleteMapped.body());
        assertTrue(deleteMapped.body().contains("single sign-on mapping"), deleteMapped.body());

        HttpResponse<String> audit = send(client(), "GET", base + "/api/audit?kind=ssoMapping", tenant.getString("adminKey"), null);
        assertEquals(200, audit.statusCode(), audit.body());
        assertTrue(audit.body().contains(group), audit.body());
    }

    // ---------------------------------------------------------------- password sign-in

    @Test
    @Order(10)
    void withLocalLoginOffOnlyTheOperatorSignsInWithAPassword() throws Exception {
        HttpClient member = client();
        HttpResponse<String> refused = passwordLogin(member, tenant.getString("member"), tenant.getString("password"));
        assertEquals(base + "/admin/login?error=local", location(refused));
        HttpResponse<String> page = send(member, "GET", base + "/admin/login?error=local", null, null);
        assertTrue(page.body().contains("Password sign-in is turned off here"), page.body());
        assertTrue(page.body().contains("id=\"sso-start\""), "the SSO button is offered");
        assertEquals(302, send(member, "GET", base + "/admin/servers", null, null).statusCode(), "not signed in");

        HttpClient operator = client();
        HttpResponse<String> in = passwordLogin(operator, tenant.getString("operator"), tenant.getString("operatorPassword"));
        assertFalse(location(in).contains("/admin/login"), location(in));
        assertEquals(200, send(operator, "GET", base + "/admin/servers", null, null).statusCode(), "the operator's break-glass sign-in");
    }

    @Test
    @Order(11)
    void withoutSsoSettingsTheLoginPageIsTheFormAlone() throws Exception {
        HttpClient browser = client();
        HttpResponse<String> login = send(browser, "GET", base + NO_SSO + "/admin/login", null, null);
        assertEquals(200, login.statusCode());
        assertFalse(login.body().contains("sso-start"), "no SSO button");
        assertFalse(login.body().contains("operator-login"), "the password form is not folded away");
        assertTrue(login.body().contains("id=\"login-form\""));
        assertEquals(404, send(browser, "GET", base + NO_SSO + "/admin/sso/start", null, null).statusCode());
        HttpResponse<String> member = send(browser, "POST", base + NO_SSO + "/admin/login", null,
                form(Map.of("_csrf", csrf(login.body()), "j_username", tenant.getString("member"), "j_password", tenant.getString("password"))));
        assertEquals(302, member.statusCode());
        assertFalse(location(member).contains("/admin/login"), "a member signs in with a password: " + location(member));
    }

    @Test
    @Order(20)
    void failedPasswordsAreThrottledPerAccount() throws Exception {
        HttpClient browser = client();
        String account = tenant.getString("operator");
        for (int i = 1; i < 3; i++) {
            HttpResponse<String> wrong = passwordLogin(browser, account, "wrong-password-" + i);
            assertEquals(base + "/admin/login?error=true", location(wrong), "failure " + i + " is an ordinary failure");
        }
        HttpResponse<String> third = passwordLogin(browser, account, "wrong-password-3");
        assertEquals(base + "/admin/login?error=throttled", location(third));
        assertEquals(Integer.toString(LOCK_SECONDS), third.headers().firstValue("Retry-After").orElse(""));
        HttpResponse<String> page = send(browser, "GET", base + "/admin/login?error=throttled", null, null);
        assertEquals(429, page.statusCode());
        assertTrue(page.headers().firstValue("Retry-After").isPresent());
        assertTrue(page.body().contains("Too many failed sign-ins"), page.body());

        HttpResponse<String> right = passwordLogin(client(), account, tenant.getString("operatorPassword"));
        assertEquals(base + "/admin/login?error=throttled", location(right), "while locked even the right password is not checked");
        Thread.sleep(LOCK_SECONDS * 1000L + 200);
        HttpResponse<String> later = passwordLogin(client(), account, tenant.getString("operatorPassword"));
        assertFalse(location(later).contains("/admin/login"), "after the wait the right password signs in: " + location(later));
    }

    @Test
    @Order(21)
    void failedPasswordsAreThrottledPerAddress() throws Exception {
        Thread.sleep(LOCK_SECONDS * 1000L + 200); // whatever the last test left
        HttpClient browser = client();
        String lastLocation = null;
        for (int i = 0; i < 8; i++) { // eight accounts, two tries each at most: no account reaches its own limit of three
            lastLocation = location(passwordLogin(browser, unique("guess"), "wrong"));
        }
        assertEquals(base + "/admin/login?error=throttled", lastLocation, "the eighth failure from this address locks it");
        HttpResponse<String> operator = passwordLogin(client(), tenant.getString("operator"), tenant.getString("operatorPassword"));
        assertEquals(base + "/admin/login?error=throttled", location(operator), "another account from the same address waits too");
        assertNotEquals("", operator.headers().firstValue("Retry-After").orElse(""));
        Thread.sleep(LOCK_SECONDS * 1000L + 200);
        HttpResponse<String> later = passwordLogin(client(), tenant.getString("operator"), tenant.getString("operatorPassword"));
        assertFalse(location(later).contains("/admin/login"), location(later));
    }

    // ---------------------------------------------------------------- helpers

    /** A sign-in at the provider as this person, from start to the gateway's answer to the callback. */
    static HttpResponse<String> signIn(HttpClient browser, String username, List<String> groups) throws Exception {
        return send(browser, "GET", callbackOf(browser, username, groups), null, null);
    }

    /** The callback URL the provider sends the browser to, for a sign-in this browser started as this person. */
    static String callbackOf(HttpClient browser, String username, List<String> groups) throws Exception {
        URI authorize = authorizeUri(browser);
        provider.enqueueCallback(callbackFor(username, groups));
        HttpResponse<String> answer = send(browser, "GET", authorize.toString(), null, null);
        assertEquals(302, answer.statusCode(), answer.body());
        String callback = location(answer);
        assertTrue(callback.startsWith(base + "/admin/sso/callback?"), callback);
        return callback;
    }

    static DefaultOAuth2TokenCallback callbackFor(String username, List<String> groups) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("preferred_username", username);
        claims.put("email", username + "@example.com");
        claims.put("groups", groups);
        return new DefaultOAuth2TokenCallback("amcp", "sub-" + username, "JWT", List.of(CLIENT_ID), claims, 3600);
    }

    /** Starts a sign-in: the provider URL the gateway sends the browser to, checked for state, nonce and PKCE. */
    static URI authorizeUri(HttpClient browser) throws Exception {
        HttpResponse<String> start = send(browser, "GET", base + "/admin/sso/start", null, null);
        assertEquals(302, start.statusCode(), start.body());
        URI authorize = URI.create(location(start));
        assertTrue(authorize.toString().startsWith(issuer() + "/authorize?"), authorize.toString());
        Map<String, String> q = query(authorize);
        assertEquals("code", q.get("response_type"));
        assertEquals(CLIENT_ID, q.get("client_id"));
        assertEquals(base + "/admin/sso/callback", q.get("redirect_uri"));
        assertEquals("S256", q.get("code_challenge_method"));
        assertTrue(q.get("state").length() >= 43 && q.get("nonce").length() >= 43 && q.get("code_challenge").length() == 43, q.toString());
        return authorize;
    }

    static HttpResponse<String> passwordLogin(HttpClient browser, String username, String password) throws Exception {
        HttpResponse<String> page = send(browser, "GET", base + "/admin/login", null, null);
        return send(browser, "POST", base + "/admin/login", null,
                form(Map.of("_csrf", csrf(page.body()), "j_username", username, "j_password", password)));
    }

    static void map(String group, String role) throws Exception {
        HttpResponse<String> r = send(client(), "POST", base + "/api/sso/mappings", tenant.getString("adminKey"),
                "{\"claimValue\":\"" + group + "\",\"role\":\"" + role + "\"}");
        assertEquals(201, r.statusCode(), r.body());
    }

    static JsonObject userNamed(String username) throws Exception {
        JsonObject user = userNamedOrNull(username);
        assertTrue(user != null, username + " was provisioned");
        return user;
    }

    static JsonObject userNamedOrNull(String username) throws Exception {
        HttpResponse<String> users = send(client(), "GET", base + "/api/users", tenant.getString("adminKey"), null);
        assertEquals(200, users.statusCode(), users.body());
        return Json.createReader(new StringReader(users.body())).readObject().getJsonArray("users").getValuesAs(JsonObject.class)
                .stream().filter(u -> u.getString("username").equals(username)).findFirst().orElse(null);
    }

    static String csrf(String html) {
        var m = java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(html);
        assertTrue(m.find(), "a CSRF field");
        return m.group(1);
    }

    static String form(Map<String, String> fields) {
        StringBuilder b = new StringBuilder();
        fields.forEach((k, v) -> b.append(b.length() == 0 ? "" : "&").append(k).append('=')
                .append(java.net.URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return b.toString();
    }

    static Map<String, String> query(URI uri) {
        Map<String, String> q = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            q.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    static String location(HttpResponse<String> response) {
        String location = response.headers().firstValue("Location").orElse("");
        return location.startsWith("//") ? "http:" + location : location.startsWith("/") ? base + location : location;
    }

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A browser of its own: cookies kept, redirects not followed. */
    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    static HttpResponse<String> send(HttpClient client, String method, String url, String bearer, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (body != null) {
            b.header("Content-Type", body.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
