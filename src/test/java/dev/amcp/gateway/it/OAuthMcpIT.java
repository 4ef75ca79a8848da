package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * OAuth 2.1 for MCP clients against a real OpenID provider (mock-oauth2-server, started here on {@code it.oidc.port})
 * and the official MCP Java SDK client: tokens the provider issues are accepted on {@code /mcp/{server}} for the user
 * they name, with that user's role; wrong audience, expiry, issuer and signature get 401 with the RFC 9728 challenge;
 * a missing scope, an unknown or a disabled user get 403; API keys keep working beside tokens.
 */
@ExtendWith(ArquillianExtension.class)
class OAuthMcpIT {

    static final String ISSUER_ID = OidcTestProvider.ISSUER_ID;
    static final String ISSUER = OidcTestProvider.ISSUER;
    static OidcTestProvider provider;

    @Deployment(testable = false)
    static WebArchive deployment() {
        JavaArchive settings = ShrinkWrap.create(JavaArchive.class, "it-oauth-settings.jar")
                .addAsResource(new StringAsset("config_ordinal=300\nAMCP_OIDC_ISSUER=" + ISSUER + "\nAMCP_PUBLIC_URL="
                        + McpHttp.base() + "\n"), "META-INF/microprofile-config.properties");
        return Deployments.gateway().addAsLibrary(settings);
    }

    @BeforeAll
    static void startProvider() throws Exception {
        provider = OidcTestProvider.start();
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.close();
        }
    }

    static String resource(String endpoint) {
        return McpHttp.base() + endpoint;
    }

    static String metadataUrl(String endpoint) {
        return McpHttp.base() + "/.well-known/oauth-protected-resource" + endpoint;
    }

    static String token(String issuerId, String username, String audience, String scope, long expirySeconds) {
        return provider.token(issuerId, username, audience, scope, expirySeconds);
    }

    static String token(String username, String audience) {
        return provider.token(username, audience);
    }

    static HttpResponse<String> list(String endpoint, String bearer) throws Exception {
        return McpHttp.post(endpoint, bearer, McpHttp.request(1, "tools/list", null));
    }

    static String challenge(HttpResponse<String> r) {
        return r.headers().firstValue("WWW-Authenticate").orElse(null);
    }

    static void assertInvalidToken(HttpResponse<String> r, String endpoint, String because) {
        assertEquals(401, r.statusCode(), r.body());
        String c = challenge(r);
        assertTrue(c != null && c.startsWith("Bearer "), String.valueOf(c));
        assertTrue(c.contains("resource_metadata=\"" + metadataUrl(endpoint) + "\""), c);
        assertTrue(c.contains("scope=\"mcp\""), c);
        assertTrue(c.contains("error=\"invalid_token\""), c);
        assertTrue(c.contains(because), "the challenge says why: " + c);
    }

    @Test
    void aTokenFromTheProviderWorksWithTheSdkClientAsItsUserAndIsNotPassedOn() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        String token = provider.tokenOverHttp(t.getString("workspace") + "-admin", resource("/mcp/main"));
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", token)) {
            client.initialize();
            assertTrue(client.listTools().tools().stream().anyMatch(tool -> tool.name().equals("echo_get")));
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("echo_get", Map.of("id", "7")));
            assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result));
            @SuppressWarnings("unchecked")
            Map<String, Object> echoed = (Map<String, Object>) result.structuredContent();
            assertEquals("7", echoed.get("id"));
            assertEquals("", echoed.get("auth"), "the upstream never sees the client's token");
        }
        // the API key of the same user keeps working beside tokens
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", t.getString("adminKey"))) {
            client.initialize();
            assertFalse(client.listTools().tools().isEmpty());
        }
    }

    @Test
    void aTokenCarriesItsUsersRoleAndNoMore() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        String viewer = t.getString("workspace") + "-viewer";
        assertEquals(200, list("/mcp/main", token(viewer, resource("/mcp/main"))).statusCode());
        // the viewer's role may use "main" only: its token for "other" reaches nothing
        HttpResponse<String> other = list("/mcp/other", token(viewer, resource("/mcp/other")));
        assertEquals(404, other.statusCode(), other.body());
        String admin = t.getString("workspace") + "-admin";
        assertEquals(200, list("/mcp/other", token(admin, resource("/mcp/other"))).statusCode());
    }

    @Test
    void badTokensGet401WithTheMetadataChallenge() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        String admin = t.getString("workspace") + "-admin";
        String main = resource("/mcp/main");
        // a token for another resource, even another server of this gateway
        assertInvalidToken(list("/mcp/main", token(admin, "https://elsewhere.example/mcp/main")), "/mcp/main", "not meant for");
        assertInvalidToken(list("/mcp/main", token(admin, resource("/mcp/other"))), "/mcp/main", "not meant for");
        assertInvalidToken(list("/mcp/main", token(ISSUER_ID, admin, main, "mcp", -600)), "/mcp/main", "expired");
        assertInvalidToken(list("/mcp/main", token("another-issuer", admin, main, "mcp", 3600)), "/mcp/main", ISSUER_ID);
        SignedJWT genuine = SignedJWT.parse(token(admin, main));
        SignedJWT forged = new SignedJWT(genuine.getHeader(), genuine.getJWTClaimsSet());
        forged.sign(new RSASSASigner(new RSAKeyGenerator(2048).generate()));
        assertInvalidToken(list("/mcp/main", forged.serialize()), "/mcp/main", "signature");
        // the official client gives up on each of them
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/main", forged.serialize())) {
            assertThrows(RuntimeException.class, client::initialize);
        }
        // no credential at all: the challenge without an error, so clients start the authorization flow
        HttpResponse<String> none = list("/mcp/main", null);
        assertEquals(401, none.statusCode());
        assertEquals("Bearer realm=\"amcp\", resource_metadata=\"" + metadataUrl("/mcp/main") + "\", scope=\"mcp\"", challenge(none));
        assertEquals("Bearer realm=\"amcp\", resource_metadata=\"" + metadataUrl("/mcp") + "\", scope=\"mcp\"",
                challenge(list("/mcp", null)));
        // a bad API key is still an invalid token
        assertInvalidToken(list("/mcp/main", "amcp_not-a-key-at-all-0000000000"), "/mcp/main", "invalid_token");
    }

    @Test
    void missingScopeAndUnknownOrDisabledUsersGet403() throws Exception {
        JsonObject t = McpHttp.tenant("mcp-tenant");
        String main = resource("/mcp/main");
        String admin = t.getString("workspace") + "-admin";
        HttpResponse<String> scope = list("/mcp/main", token(ISSUER_ID, admin, main, "openid profile", 3600));
        assertEquals(403, scope.statusCode(), scope.body());
        assertTrue(challenge(scope).contains("error=\"insufficient_scope\""), challenge(scope));
        assertTrue(challenge(scope).contains("scope=\"mcp\""), challenge(scope));
        assertTrue(challenge(scope).contains("resource_metadata=\"" + metadataUrl("/mcp/main") + "\""), challenge(scope));

        HttpResponse<String> unknown = list("/mcp/main", token("nobody-" + t.getString("workspace"), main));
        assertEquals(403, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("No enabled user"), unknown.body());

        String member = t.getString("workspace") + "-member";
        String memberToken = token(member, main);
        assertEquals(200, list("/mcp/main", memberToken).statusCode());
        HttpResponse<String> disabled = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/users/" + member))
                .header("Authorization", "Bearer " + t.getString("adminKey")).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"enabled\":false}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, disabled.statusCode(), disabled.body());
        HttpResponse<String> refused = list("/mcp/main", memberToken);
        assertEquals(403, refused.statusCode(), "the same, still valid token stops with its user: " + refused.body());
    }

    @Test
    void protectedResourceMetadataNamesTheResourceTheIssuerAndTheScope() throws Exception {
        for (String endpoint : List.of("/mcp/main", "/mcp")) {
            HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(metadataUrl(endpoint))).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("*", r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            JsonObject m = McpHttp.parse(r.body()).asJsonObject();
            assertEquals(resource(endpoint), m.getString("resource"));
            assertEquals(List.of(ISSUER), m.getJsonArray("authorization_servers").getValuesAs(jakarta.json.JsonString::getString));
            assertEquals(List.of("mcp"), m.getJsonArray("scopes_supported").getValuesAs(jakarta.json.JsonString::getString));
            assertEquals(List.of("header"), m.getJsonArray("bearer_methods_supported").getValuesAs(jakarta.json.JsonString::getString));
        }
        HttpResponse<String> odd = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(metadataUrl("/mcp/NOT%20A%20SERVER"))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, odd.statusCode());
        assertNull(odd.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }
}
