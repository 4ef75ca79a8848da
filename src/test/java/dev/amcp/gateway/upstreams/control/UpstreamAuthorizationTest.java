package dev.amcp.gateway.upstreams.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.upstreams.entity.AuthorizationServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery of a protected upstream's authorization server against a real local HTTP server that plays both: the
 * order of the well-known URLs, the checks on what the documents say, and the upstream rule on every request.
 */
class UpstreamAuthorizationTest {

    private HttpServer server;
    private String origin;
    private final Map<String, String> documents = new ConcurrentHashMap<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private volatile String challenge;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            asked.add(exchange.getRequestMethod() + " " + path);
            String body = documents.get(path);
            if ("POST".equals(exchange.getRequestMethod()) && path.equals("/mcp")) {
                if (challenge != null) {
                    exchange.getResponseHeaders().add("WWW-Authenticate", challenge);
                }
                exchange.sendResponseHeaders(401, -1);
            } else if (body == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
        origin = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private UpstreamAuthorization authorization() {
        Settings settings = new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.empty();
            }
        };
        UpstreamAuthorization authorization = new UpstreamAuthorization();
        authorization.http = UpstreamFixtures.http(settings, rules("127.0.0.1:" + server.getAddress().getPort()));
        return authorization;
    }

    private static UpstreamRules rules(String allowed) {
        return new UpstreamRules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", allowed), InetAddress::getAllByName);
    }

    private UpstreamAuthorization.Egress egress() {
        UpstreamRules rules = rules("127.0.0.1:" + server.getAddress().getPort());
        return rules::resolveForCall;
    }

    private void authorizationServer(String path, String issuer, String pkce) {
        documents.put(path, "{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
                + "\"token_endpoint\":\"" + issuer + "/token\"" + (pkce == null ? "" : ",\"code_challenge_methods_supported\":[" + pkce + "]") + "}");
    }

    @Test
    void theChallengeNamesTheMetadataAndTheIssuerIsFoundByOpenIdDiscoveryAppended() {
        challenge = "Bearer error=\"invalid_token\", resource_metadata=\"" + origin + "/meta/mcp\"";
        documents.put("/meta/mcp", "{\"resource\":\"" + origin + "/mcp/\",\"authorization_servers\":[\"" + origin + "/realm\"],"
                + "\"scopes_supported\":[\"read\",\"write\"]}");
        authorizationServer("/realm/.well-known/openid-configuration", origin + "/realm", "\"S256\"");
        AuthorizationServer found = authorization().discover(URI.create(origin + "/mcp"), egress());
        assertEquals(origin + "/realm/token", found.tokenEndpoint());
        assertEquals("read write", found.scopes());
        assertNull(found.registrationEndpoint());
        assertEquals(List.of("POST /mcp", "GET /meta/mcp", "GET /.well-known/oauth-authorization-server/realm",
                "GET /.well-known/openid-configuration/realm", "GET /realm/.well-known/openid-configuration"), asked,
                "RFC 8414 first, then OpenID discovery inserted, then appended");
    }

    @Test
    void withoutAChallengeTheWellKnownUrlsAreReadWithThePathThenWithout() {
        documents.put("/.well-known/oauth-protected-resource", "{\"authorization_servers\":[\"" + origin + "\"]}");
        authorizationServer("/.well-known/oauth-authorization-server", origin, null);
        AuthorizationServer found = authorization().discover(URI.create(origin + "/mcp"), egress());
        assertEquals(origin + "/mcp", found.resource(), "no resource named: the server's URL");
        assertEquals(List.of("POST /mcp", "GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/oauth-protected-resource",
                "GET /.well-known/oauth-authorization-server"), asked);
    }

    @Test
    void whatTheDocumentsSayIsChecked() {
        UpstreamAuthorization authorization = authorization();
        URI resource = URI.create(origin + "/mcp");
        InvalidInputException none = assertThrows(InvalidInputException.class, () -> authorization.discover(resource, egress()));
        assertTrue(none.problem().english().contains("names no protected resource metadata (RFC 9728)"), none.problem().english());

        documents.put("/.well-known/oauth-protected-resource/mcp", "{\"resource\":\"https://other.example/mcp\",\"authorization_servers\":[\"" + origin + "\"]}");
        InvalidInputException other = assertThrows(InvalidInputException.class, () -> authorization.discover(resource, egress()));
        assertTrue(other.problem().english().contains("names the resource https://other.example/mcp"), other.problem().english());

        documents.put("/.well-known/oauth-protected-resource/mcp", "{\"authorization_servers\":[\"" + origin + "/as\"]}");
        authorizationServer("/.well-known/oauth-authorization-server/as", "https://impostor.example/as", "\"S256\"");
        InvalidInputException impostor = assertThrows(InvalidInputException.class, () -> authorization.discover(resource, egress()));
        assertTrue(impostor.problem().english().contains("publishes no metadata naming itself"), impostor.problem().english());

        authorizationServer("/.well-known/oauth-authorization-server/as", origin + "/as", "\"plain\"");
        InvalidInputException plain = assertThrows(InvalidInputException.class, () -> authorization.discover(resource, egress()));
        assertTrue(plain.problem().english().contains("does not offer PKCE with S256"), plain.problem().english());
    }

    @Test
    void metadataCannotAimTheGatewayOutsideTheUpstreamRule() {
        documents.put("/.well-known/oauth-protected-resource/mcp", "{\"authorization_servers\":[\"http://169.254.169.254/latest\"]}");
        InvalidInputException refused = assertThrows(InvalidInputException.class,
                () -> authorization().discover(URI.create(origin + "/mcp"), egress()));
        assertTrue(refused.problem().english().contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), refused.problem().english());
        assertTrue(asked.stream().noneMatch(a -> a.contains("latest")), asked.toString());
    }

    @Test
    void twoUrlsAreTheSameResourceWhateverTheCaseOfTheHostAndATrailingSlash() {
        assertTrue(UpstreamAuthorization.sameResource(URI.create("HTTPS://Mcp.Example.com/mcp/"), URI.create("https://mcp.example.com/mcp")));
        assertTrue(!UpstreamAuthorization.sameResource(URI.create("https://mcp.example.com/other"), URI.create("https://mcp.example.com/mcp")));
        assertTrue(!UpstreamAuthorization.sameResource(URI.create("https://mcp.example.com:8443/mcp"), URI.create("https://mcp.example.com/mcp")));
    }
}
