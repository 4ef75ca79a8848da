package dev.amcp.gateway.it;

import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;

/**
 * A real OpenID provider for the OAuth tests: mock-oauth2-server on the fixed port {@code it.oidc.port} (default 18080) of {@code localhost} (the name it gives itself),
 * so the gateway can be told its issuer before it starts. The gateway fetches its discovery document at the first
 * token, so the provider may start after the deployment.
 */
public final class OidcTestProvider implements AutoCloseable {

    public static final String ISSUER_ID = "default";
    public static final int PORT = Integer.getInteger("it.oidc.port", 18080);
    /** The issuer the gateway is configured with, {@code AMCP_OIDC_ISSUER}. */
    public static final String ISSUER = "http://localhost:" + PORT + "/" + ISSUER_ID;

    private final MockOAuth2Server server = new MockOAuth2Server();

    private OidcTestProvider() {}

    public static OidcTestProvider start() throws Exception {
        OidcTestProvider provider = new OidcTestProvider();
        provider.server.start(InetAddress.getByName("127.0.0.1"), PORT);
        if (!ISSUER.equals(provider.server.issuerUrl(ISSUER_ID).toString())) {
            provider.close();
            throw new IllegalStateException("the provider's issuer is " + provider.server.issuerUrl(ISSUER_ID) + ", not " + ISSUER);
        }
        // answer once before the gateway asks: a cold provider on a loaded machine can outlast the gateway's 5 s timeout
        for (String url : List.of(provider.server.wellKnownUrl(ISSUER_ID).toString(), provider.server.jwksUrl(ISSUER_ID).toString())) {
            HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                provider.close();
                throw new IllegalStateException(url + ": " + r.statusCode());
            }
        }
        return provider;
    }

    /** A token the provider signs in this JVM: issuer id, user, audience, scope, lifetime in seconds (negative: expired). */
    public String token(String issuerId, String username, String audience, String scope, long expirySeconds) {
        return server.issueToken(issuerId, username, audience, Map.of("preferred_username", username, "scope", scope),
                expirySeconds).serialize();
    }

    public String token(String username, String audience) {
        return token(ISSUER_ID, username, audience, "openid mcp", 3600);
    }

    /** A token from the provider's token endpoint over HTTP (client credentials), as a client gets one. */
    public String tokenOverHttp(String username, String audience) throws Exception {
        server.enqueueCallback(new DefaultOAuth2TokenCallback(ISSUER_ID, username, "JWT", List.of(audience),
                Map.of("preferred_username", username, "scope", "mcp"), 600));
        String form = "grant_type=client_credentials&client_id=it-client&client_secret=it-secret&scope=mcp&resource="
                + URLEncoder.encode(audience, StandardCharsets.UTF_8);
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(server.tokenEndpointUrl(ISSUER_ID).toString()))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("token endpoint: " + r.statusCode() + " " + r.body());
        }
        return McpHttp.parse(r.body()).asJsonObject().getString("access_token");
    }

    /** The next token the provider issues (at any grant) lives only this many seconds. */
    public void nextTokenLives(String username, long seconds) {
        server.enqueueCallback(new DefaultOAuth2TokenCallback(ISSUER_ID, username, "JWT", List.of("mcp"),
                Map.of("preferred_username", username, "scope", "mcp:tools"), seconds));
    }

    /** The provider's signing keys, for an upstream that checks its tokens. */
    public String jwksUrl() {
        return server.jwksUrl(ISSUER_ID).toString();
    }

    /** The requests that reached the token endpoint since the last call (requests to other endpoints are dropped). */
    public List<okhttp3.mockwebserver.RecordedRequest> tokenRequests() {
        List<okhttp3.mockwebserver.RecordedRequest> taken = new java.util.ArrayList<>();
        while (true) {
            okhttp3.mockwebserver.RecordedRequest r;
            try {
                r = server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS); // the queue so far; it throws when empty
            } catch (RuntimeException empty) {
                return taken;
            }
            if (r == null) {
                return taken;
            }
            if (r.getPath() != null && r.getPath().endsWith("/token")) {
                taken.add(r);
            }
        }
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
