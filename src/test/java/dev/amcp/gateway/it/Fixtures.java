package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Builds isolated test data in the running server: a fresh workspace per test, with users, keys and tools. */
@ApplicationScoped
public class Fixtures {

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    ToolService tools;

    @Inject
    @ConfigProperty(name = "it.base.url")
    String baseUrl;

    @Inject
    @ConfigProperty(name = "AMCP_HTTPS_PORT")
    String httpsPort;

    @jakarta.persistence.PersistenceContext(unitName = "amcp")
    jakarta.persistence.EntityManager em;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Runs work in its own transaction, with a fresh persistence context. */
    @jakarta.transaction.Transactional(jakarta.transaction.Transactional.TxType.REQUIRES_NEW)
    public <T> T inTx(java.util.function.Function<jakarta.persistence.EntityManager, T> work) {
        return work.apply(em);
    }

    /** A workspace with one server "main", and an admin, member and viewer, each with a key. */
    public record Tenant(Workspace workspace, McpServerConfig server, Caller admin, Caller member, Caller viewer,
                         String adminKey, String memberKey, String viewerKey) {}

    public Tenant tenant() {
        String slug = "ws-" + UUID.randomUUID().toString().substring(0, 8);
        Workspace ws = workspaces.createWorkspace(slug, "Test " + slug);
        McpServerConfig server = workspaces.createServer(ws.getId(), "main", "Main", null);
        String[] keys = new String[3];
        Caller[] callers = new Caller[3];
        String[] roles = {Role.ADMIN, Role.MEMBER, Role.VIEWER};
        for (int i = 0; i < 3; i++) {
            UserAccount user = workspaces.createUser(ws.getId(), slug + "-" + roles[i], roles[i], roles[i], null);
            keys[i] = apiKeys.issue(user.getId(), roles[i] + " key", null).plaintext();
            callers[i] = apiKeys.authenticateKey(keys[i]).orElseThrow();
        }
        return new Tenant(ws, server, callers[0], callers[1], callers[2], keys[0], keys[1], keys[2]);
    }

    public McpTool httpTool(Tenant tenant, String serverSlug, String name, String inputSchema, String mapping) {
        return tools.createHttpTool(tenant.admin(), new ToolDraft(serverSlug, name, name, "test tool " + name,
                inputSchema == null ? null : JsonSupport.parseObject(inputSchema), null, JsonSupport.parseObject(mapping)));
    }

    public Caller apiKeysAuth(String key) {
        return apiKeys.authenticateKey(key).orElseThrow();
    }

    public static Caller scoped(Caller caller, CallScope scope) {
        return caller.withScope(scope);
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The server's own root, for server-wide endpoints such as /health, whatever this app's context root. */
    public String serverUrl() {
        java.net.URI uri = URI.create(baseUrl);
        return uri.getScheme() + "://" + uri.getAuthority();
    }

    /**
     * Liberty's {@code /metrics} (application scope) as the test server's metrics reader ({@code test.xml}), over HTTPS
     * as Liberty requires when the endpoint is authenticated. The server's certificate is its own self-signed one.
     */
    public String metrics() throws Exception {
        var connection = (javax.net.ssl.HttpsURLConnection) URI.create("https://127.0.0.1:" + httpsPort + "/metrics?scope=application")
                .toURL().openConnection();
        javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
        tls.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String auth) {}
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String auth) {}
            public java.security.cert.X509Certificate[] getAcceptedIssuers() { return new java.security.cert.X509Certificate[0]; }
        }}, null);
        connection.setSSLSocketFactory(tls.getSocketFactory());
        connection.setHostnameVerifier((host, session) -> true);
        connection.setRequestProperty("Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString("metrics-reader:metrics-reader-password".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        if (connection.getResponseCode() != 200) {
            throw new IllegalStateException("/metrics answered " + connection.getResponseCode());
        }
        try (var in = connection.getInputStream()) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    public HttpResponse<String> getAbsolute(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> post(String path, String bearer, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            b.header("Authorization", bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Any method with a JSON body (or none), for PUT, DELETE and bodies sent without a declared length. */
    public HttpResponse<String> send(String method, String path, String bearer, HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Content-Type", "application/json")
                .method(method, body);
        if (bearer != null) {
            b.header("Authorization", bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).GET();
        if (bearer != null) {
            b.header("Authorization", bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
