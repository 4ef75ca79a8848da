package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.upstreams.control.OutboundHttp;
import dev.amcp.gateway.upstreams.control.UpstreamFixtures;
import java.io.FileInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The invoker's side of the upstream rule against real local servers: the request goes to the address the rule
 * checked, and the name still reaches the upstream (Host, and SNI with the certificate checked against it).
 */
class HttpToolInvokerTest {

    static final String NAME = "api.example.test";

    @TempDir
    Path dir;

    /** An invoker whose rule allows NAME on this port, resolving it (and any other name) to loopback. */
    static HttpToolInvoker invoker(int port) {
        HttpToolInvoker invoker = new HttpToolInvoker();
        invoker.upstreams = UpstreamFixtures.rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", NAME + ":" + port + ", 127.0.0.1:" + port),
                InetAddress.getLoopbackAddress());
        invoker.http = UpstreamFixtures.http(null, invoker.upstreams);
        return invoker;
    }

    static HttpToolInvoker.Call call(HttpToolInvoker invoker, String url, String args) {
        var mapping = JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"" + url + "\",\"timeoutMs\":5000}");
        return invoker.buildRequest(invoker.prepare(mapping), JsonSupport.parseObject(args));
    }

    static void answer(HttpServer server, AtomicReference<String> host) {
        server.createContext("/", exchange -> {
            host.set(exchange.getRequestHeaders().getFirst("Host"));
            respond(exchange);
        });
        server.start();
    }

    static void respond(HttpExchange exchange) throws IOException {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Test
    void aNamedUpstreamIsCalledAtTheCheckedAddressWithItsNameInHost() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicReference<String> host = new AtomicReference<>();
        answer(server, host);
        try {
            int port = server.getAddress().getPort();
            HttpToolInvoker.Call call = call(invoker(port), "http://" + NAME + ":" + port + "/items/{id}", "{\"id\":\"7\"}");
            assertEquals("http://127.0.0.1:" + port + "/items/7", call.request().uri().toString(), "no second lookup: the URL holds the address");
            HttpResponse<String> response = OutboundHttp.newClient().build().send(call.request(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals(NAME + ":" + port, host.get());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anHttpsUpstreamGetsItsNameInSniAndItsCertificateIsCheckedAgainstIt() throws Exception {
        Path keystore = dir.resolve("upstream.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + NAME, "-ext", "san=dns:" + NAME,
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit")
                .redirectErrorStream(true).start();
        assertEquals(0, keytool.waitFor(), new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = new FileInputStream(keystore.toFile())) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "changeit".toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);

        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        AtomicReference<String> host = new AtomicReference<>();
        answer(server, host);
        try {
            int port = server.getAddress().getPort();
            HttpToolInvoker.Call call = call(invoker(port), "https://" + NAME + ":" + port + "/items", "{}");
            assertEquals("https://127.0.0.1:" + port + "/items", call.request().uri().toString());
            HttpClient pinned = OutboundHttp.tlsClient(call.target().serverName(), trusting(trust));
            assertEquals(200, pinned.send(call.request(), HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(NAME + ":" + port, host.get());
            // A fresh context: one that already holds a session with this address would resume it without a check.
            HttpClient wrongName = OutboundHttp.tlsClient("other.example.test", trusting(trust));
            assertThrows(SSLHandshakeException.class, () -> wrongName.send(call.request(), HttpResponse.BodyHandlers.ofString()),
                    "the certificate is checked against the SNI name, not skipped for an address URL");
        } finally {
            server.stop(0);
        }
    }

    static SSLContext trusting(TrustManagerFactory trust) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    @Test
    void pathArgumentsThatAreEmptyOrWalkThePathAreArgumentErrors() {
        HttpToolInvoker invoker = invoker(8080);
        for (String walk : new String[] {"..", ".", "%2e%2e", "%252E%252e", "..\\\\x", "a/../b"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> call(invoker, "http://" + NAME + ":8080/items/{id}", "{\"id\":\"" + walk + "\"}"), walk);
            assertTrue(e.getMessage().startsWith("path argument 'id' may not be '.' or '..'"), e.getMessage());
        }
        var empty = assertThrows(IllegalArgumentException.class, () -> call(invoker, "http://" + NAME + ":8080/items/{id}/notes", "{\"id\":\"\"}"));
        assertEquals("path argument 'id' is empty", empty.getMessage());
    }
}
