package dev.amcp.gateway.upstreams.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Upstream MCP credentials against a real local token endpoint: client credentials fetched once and reused; static headers. */
class UpstreamCredentialsTest {

    static UpstreamCredentials credentials(Map<String, String> values, String allowed) {
        Settings settings = new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(values.get(name));
            }
        };
        UpstreamCredentials credentials = new UpstreamCredentials();
        credentials.settings = settings;
        credentials.upstreams = new UpstreamRules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", allowed), InetAddress::getAllByName);
        credentials.http = UpstreamFixtures.http(settings, credentials.upstreams);
        return credentials;
    }

    @Test
    void clientCredentialsAreExchangedOnceForABearerTokenThatIsReused() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> seen = new CopyOnWriteArrayList<>();
        server.createContext("/token", exchange -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Authorization") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"access_token\":\"tok-1\",\"token_type\":\"Bearer\",\"expires_in\":3600}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            UpstreamCredentials credentials = credentials(Map.of("AMCP_CREDENTIAL_GH_TOKEN_URL", "http://127.0.0.1:" + port + "/token",
                    "AMCP_CREDENTIAL_GH_CLIENT_ID", "gateway", "AMCP_CREDENTIAL_GH_CLIENT_SECRET", "s3cret", "AMCP_CREDENTIAL_GH_SCOPE", "mcp"),
                    "127.0.0.1:" + port);
            assertTrue(credentials.configured("gh"));
            assertEquals(Map.entry("Authorization", "Bearer tok-1"), credentials.header("gh"));
            assertEquals(Map.entry("Authorization", "Bearer tok-1"), credentials.header("GH"));
            String basic = Base64.getEncoder().encodeToString("gateway:s3cret".getBytes(StandardCharsets.UTF_8));
            assertEquals(List.of("POST Basic " + basic + " grant_type=client_credentials&scope=mcp"), seen, "one exchange, reused");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aStaticCredentialIsItsHeaderAndATokenEndpointOutsideTheRulesIsRefused() {
        UpstreamCredentials fixed = credentials(Map.of("AMCP_CREDENTIAL_JIRA_VALUE", "Token abc", "AMCP_CREDENTIAL_JIRA_HEADER", "X-Api-Key"), "127.0.0.1:9");
        assertEquals(Map.entry("X-Api-Key", "Token abc"), fixed.header("jira"));
        assertTrue(!fixed.configured("other"));

        UpstreamCredentials elsewhere = credentials(Map.of("AMCP_CREDENTIAL_GH_TOKEN_URL", "http://169.254.169.254/token",
                "AMCP_CREDENTIAL_GH_CLIENT_ID", "gateway", "AMCP_CREDENTIAL_GH_CLIENT_SECRET", "s3cret"), "127.0.0.1:9");
        InvalidInputException refused = assertThrows(InvalidInputException.class, () -> elsewhere.header("gh"));
        assertTrue(refused.problem().english().contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), refused.problem().english());
    }
}
