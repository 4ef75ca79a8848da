package dev.amcp.gateway.it;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Client-side helpers of the MCP tests: raw HTTP, the official SDK client, and the set-up calls. */
public final class McpHttp {

    public static final String LATEST = "2025-11-25";
    public static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private McpHttp() {}

    /** The gateway deployment with a small tools/list page so pagination is exercised. */
    public static WebArchive deployment(int pageSize) {
        JavaArchive settings = ShrinkWrap.create(JavaArchive.class, "it-mcp-settings.jar")
                .addAsResource(new StringAsset("config_ordinal=300\nAMCP_MCP_PAGE_SIZE=" + pageSize + "\n"),
                        "META-INF/microprofile-config.properties");
        return Deployments.gateway().addAsLibrary(settings);
    }

    public static String base() {
        return "http://127.0.0.1:" + System.getProperty("it.http.port", "9180"); // the WAR's context root is /
    }

    /** A fresh workspace for MCP tests (see {@link McpItSetup#tenant()}). */
    public static JsonObject tenant(String kind) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/it-setup/" + kind))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("set-up failed: " + r.statusCode() + " " + r.body());
        }
        return parse(r.body()).asJsonObject();
    }

    public static McpSyncClient sdkClient(String endpoint, String key) {
        return sdkClient(endpoint, key, null);
    }

    public static McpSyncClient sdkClient(String endpoint, String key, Consumer<io.modelcontextprotocol.spec.McpSchema.ProgressNotification> progress) {
        McpClient.SyncSpec spec = sdkSpec(endpoint, key);
        if (progress != null) {
            spec.progressConsumer(progress);
        }
        return spec.build();
    }

    /**
     * Waits up to 5 s until {@code received} holds {@code count} notifications. The sync SDK client hands each one to its
     * consumer on a thread of its own ({@code subscribeOn(boundedElastic)}), so the last may reach the list just after
     * the call returns, though it was on the wire before the result (McpTransportIT asserts the wire order).
     */
    public static void awaitNotifications(java.util.Collection<?> received, int count) throws InterruptedException {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (received.size() < count && System.nanoTime() < until) {
            Thread.sleep(10);
        }
    }

    /** The official SDK client on this test server's {@code endpoint}, with {@code key}, to be built by the caller. */
    public static McpClient.SyncSpec sdkSpec(String endpoint, String key) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + System.getProperty("it.http.port", "9180"))
                .endpoint(endpoint)
                .httpRequestCustomizer((builder, method, uri, body, context) -> builder.setHeader("Authorization", "Bearer " + key))
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofSeconds(30));
    }

    /**
     * The official SDK client against any gateway base URL (the multi-node topology's balancer, for one);
     * {@code headers} sets the headers of each request the client sends.
     */
    public static McpSyncClient sdkClientAt(String base, String endpoint, Consumer<HttpRequest.Builder> headers) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint)
                .httpRequestCustomizer((builder, method, uri, body, context) -> headers.accept(builder))
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30)).build();
    }

    /** Posts a body to an MCP endpoint with the usual client headers; extra headers come as name, value pairs. */
    public static HttpResponse<String> post(String endpoint, String key, String body, String... headers) throws Exception {
        return HTTP.send(postRequest(base() + endpoint, key, body, headers), HttpResponse.BodyHandlers.ofString());
    }

    /** The request {@link #post} sends, to any node's full MCP endpoint {@code url}. */
    public static HttpRequest postRequest(String url, String key, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        boolean contentType = false;
        boolean accept = false;
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
            contentType |= headers[i].equalsIgnoreCase("Content-Type");
            accept |= headers[i].equalsIgnoreCase("Accept");
        }
        if (!contentType) {
            b.header("Content-Type", "application/json");
        }
        if (!accept) {
            b.header("Accept", "application/json, text/event-stream");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return b.build();
    }

    /** Sends code_execute over a raw socket and hangs up after {@code afterMs}, without notifications/cancelled. */
    public static void callAndHangUp(String endpoint, String key, String code, long afterMs) throws Exception {
        byte[] body = request(1, "tools/call", jakarta.json.Json.createObjectBuilder().add("name", "code_execute")
                .add("arguments", jakarta.json.Json.createObjectBuilder().add("code", code)).build().toString())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        URI base = URI.create(base());
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST " + endpoint + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort() + "\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            Thread.sleep(afterMs);
        }
    }

    public static String request(Object id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + (id instanceof String s ? "\"" + s + "\"" : id) + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    public static String initialize(String version) {
        return request(1, "initialize", "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}");
    }

    public static JsonStructure parse(String text) {
        return Json.createReader(new StringReader(text)).read();
    }
}
