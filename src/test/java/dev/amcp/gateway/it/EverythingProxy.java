package dev.amcp.gateway.it;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * server-everything ({@link EverythingUpstream}) behind a reverse proxy that streams answers through (SSE included) and
 * keeps the body of every request it forwarded, so a test sees what the gateway sent upstream. The guarded proxy
 * ({@link #guarded}, on {@code it.mcp.guard.port}, default: the IT HTTP port + 7) is an upstream that checks OAuth:
 * it forwards only requests whose bearer token the test OpenID provider signed (checked against its JWKS), answers
 * 401 to the rest, counts both and keeps every token it accepted. As a protected MCP server should, it publishes its
 * protected resource metadata (RFC 9728) at {@code /.well-known/oauth-protected-resource/mcp}, naming the test
 * provider as its authorization server, and its 401 points there ({@code WWW-Authenticate: Bearer resource_metadata}).
 * Under {@code /dcr} it is the same server with an authorization server that offers dynamic client registration
 * (RFC 7591), which mock-oauth2-server does not: the proxy publishes that server's metadata under its own issuer
 * ({@code /dcr-as}), with the provider's authorization and token endpoints and its own {@code /dcr-as/register}, which
 * gives out client ids ({@link #registrations()}).
 * It keeps every {@code Authorization} header it saw, accepted or not, so a test can show what never reached it. The open proxy ({@link #open}, on
 * {@code it.mcp.open.port}, default: + 8) forwards everything.
 */
public final class EverythingProxy implements AutoCloseable {

    private static final List<String> FORWARDED = List.of("Content-Type", "Accept", "Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** The provider's signing key, or null when every request is forwarded. */
    private final RSAKey key;
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final List<String> registrations = new CopyOnWriteArrayList<>();
    private volatile long cancellationDelayMs;
    private final int port;

    private EverythingProxy(RSAKey key, int port) throws IOException {
        this.key = key;
        this.port = port;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    public static EverythingProxy guarded(String jwks) throws Exception {
        return new EverythingProxy(JWKSet.load(new URL(jwks)).getKeys().get(0).toRSAKey(), guardedPort());
    }

    public static EverythingProxy open() throws IOException {
        return new EverythingProxy(null, openPort());
    }

    public static int guardedPort() {
        return Integer.getInteger("it.mcp.guard.port", Integer.getInteger("it.http.port", 9180) + 7);
    }

    public static int openPort() {
        return Integer.getInteger("it.mcp.open.port", Integer.getInteger("it.http.port", 9180) + 8);
    }

    public int accepted() {
        return accepted.get();
    }

    public int refused() {
        return refused.get();
    }

    /** The distinct bearer tokens accepted so far. */
    public Set<String> tokens() {
        return Set.copyOf(tokens);
    }

    /** Every {@code Authorization} header that reached this proxy so far, in order. */
    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    /** The URL of the MCP endpoint behind this proxy. */
    public String mcpUrl() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    /** The URL of the same MCP endpoint, whose authorization server offers dynamic client registration. */
    public String dcrMcpUrl() {
        return "http://127.0.0.1:" + port + "/dcr/mcp";
    }

    /** The bodies of the dynamic client registrations so far. */
    public List<String> registrations() {
        return List.copyOf(registrations);
    }

    private String origin() {
        return "http://127.0.0.1:" + port;
    }

    /** The metadata documents this proxy publishes itself, by path, or null for a path it forwards. */
    private String published(String path) {
        return switch (path) {
            case "/.well-known/oauth-protected-resource/mcp" -> "{\"resource\":\"" + mcpUrl() + "\",\"authorization_servers\":[\""
                    + OidcTestProvider.ISSUER + "\"],\"scopes_supported\":[\"openid\",\"mcp:tools\"],\"bearer_methods_supported\":[\"header\"]}";
            case "/.well-known/oauth-protected-resource/dcr/mcp" -> "{\"resource\":\"" + dcrMcpUrl() + "\",\"authorization_servers\":[\""
                    + origin() + "/dcr-as\"],\"scopes_supported\":[\"openid\",\"mcp:tools\"]}";
            case "/.well-known/oauth-authorization-server/dcr-as" -> "{\"issuer\":\"" + origin() + "/dcr-as\",\"authorization_endpoint\":\""
                    + OidcTestProvider.ISSUER + "/authorize\",\"token_endpoint\":\"" + OidcTestProvider.ISSUER + "/token\","
                    + "\"registration_endpoint\":\"" + origin() + "/dcr-as/register\",\"code_challenge_methods_supported\":[\"S256\"],"
                    + "\"response_types_supported\":[\"code\"]}";
            default -> null;
        };
    }

    /** Makes this proxy slow to take a {@code notifications/cancelled}: it waits before keeping and forwarding it. */
    public void delayCancellations(long millis) {
        cancellationDelayMs = millis;
    }

    /** The bodies of the requests forwarded so far, in order. */
    public List<String> bodies() {
        return List.copyOf(bodies);
    }

    /** A dynamic client registration: the body kept, a new public client id answered. */
    private String register(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        registrations.add(body);
        return "{\"client_id\":\"dcr-client-" + registrations.size() + "\",\"token_endpoint_auth_method\":\"none\"}";
    }

    private boolean signedByTheProvider(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return false;
        }
        try {
            return SignedJWT.parse(authorization.substring(7)).verify(new RSASSAVerifier(key));
        } catch (Exception e) {
            return false;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization != null) {
                authorizations.add(authorization);
            }
            String path = exchange.getRequestURI().getPath();
            String document = key == null ? null : "POST".equals(exchange.getRequestMethod()) && path.equals("/dcr-as/register")
                    ? register(exchange) : published(path);
            if (document != null) {
                byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(path.endsWith("/register") ? 201 : 200, bytes.length);
                exchange.getResponseBody().write(bytes);
                return;
            }
            if (key != null && !signedByTheProvider(authorization)) {
                refused.incrementAndGet();
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer resource_metadata=\"" + origin()
                        + "/.well-known/oauth-protected-resource" + (path.startsWith("/dcr/") ? "/dcr/mcp" : "/mcp") + "\"");
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            accepted.incrementAndGet();
            if (key != null) {
                tokens.add(authorization.substring(7));
            }
            String forwarded = exchange.getRequestURI().toString();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + EverythingUpstream.port()
                    + (forwarded.startsWith("/dcr/") ? forwarded.substring(4) : forwarded)));
            for (String header : FORWARDED) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            String text = new String(body, StandardCharsets.UTF_8);
            if (cancellationDelayMs > 0 && text.contains("\"notifications/cancelled\"")) {
                Thread.sleep(cancellationDelayMs);
            }
            if (body.length > 0) {
                bodies.add(text);
            }
            request.method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            for (String header : List.of("Content-Type", "Mcp-Session-Id")) {
                response.headers().firstValue(header).ifPresent(v -> exchange.getResponseHeaders().set(header, v));
            }
            try (InputStream in = response.body()) {
                exchange.sendResponseHeaders(response.statusCode(), response.statusCode() == 202 ? -1 : 0);
                OutputStream out = exchange.getResponseBody();
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    out.write(buffer, 0, n);
                    out.flush(); // SSE events go on as they come
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
