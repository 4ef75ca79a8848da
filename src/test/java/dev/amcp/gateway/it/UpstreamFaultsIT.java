package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Upstreams that fail under the gateway, with the SDK client calling through {@code /mcp/demo}: one accepts and never
 * answers, one sends its headers and part of its body and then stalls, one resets every connection. Eight calls of
 * each kind at once: each ends within the upstream timeout (1.5 s here) with a tool error saying what happened, the
 * request threads come back, and a healthy tool called meanwhile stays fast (its median is printed beside the one
 * without the fault; it must stay far below the timeout).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class UpstreamFaultsIT {

    static final String NAME = "amcp-upstream-faults";
    static final long TIMEOUT_MS = 1500;
    static final ServerSocket SILENT = listen();
    static final ServerSocket STALLING = listen();
    static final ServerSocket RESETTING = listen();
    static final List<Socket> HELD = new CopyOnWriteArrayList<>();
    static final int AT_ONCE = 8;

    static {
        serve(SILENT, socket -> { }); // reads nothing, answers nothing, closes nothing
        serve(STALLING, socket -> {
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"slow\": \"")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush(); // and the other 990 bytes never come
        });
        serve(RESETTING, socket -> {
            socket.setSoLinger(true, 0);
            socket.close(); // an RST
        });
    }

    interface Behaviour {
        void on(Socket socket) throws IOException;
    }

    static ServerSocket listen() {
        try {
            return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void serve(ServerSocket server, Behaviour behaviour) {
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    HELD.add(socket);
                    InputStream in = socket.getInputStream();
                    in.read(new byte[8192]); // the request's head
                    behaviour.on(socket);
                } catch (IOException e) {
                    // closed at the end, or a client gone
                }
            }
        }, "upstream-fault-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void close() throws IOException {
        for (ServerSocket s : List.of(SILENT, STALLING, RESETTING)) {
            s.close();
        }
        for (Socket s : HELD) {
            s.close();
        }
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(NAME, false, Map.of("AMCP_UPSTREAM_TIMEOUT_MS", String.valueOf(TIMEOUT_MS),
                "AMCP_UPSTREAM_SILENT", "http://127.0.0.1:" + SILENT.getLocalPort(),
                "AMCP_UPSTREAM_STALLING", "http://127.0.0.1:" + STALLING.getLocalPort(),
                "AMCP_UPSTREAM_RESETTING", "http://127.0.0.1:" + RESETTING.getLocalPort()));
    }

    static String base() {
        return McpHttp.base() + "/" + NAME;
    }

    static HttpResponse<String> post(String path, String key, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return McpHttp.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static int threadsInHttpCalls() throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base()
                + "/it-code-setup/threads?in=dev.amcp.gateway.tools.control.HttpToolInvoker")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getInt("inRuns");
    }

    /** Milliseconds of each of {@code count} calls of customer_get, one after the other. */
    static List<Long> healthy(McpSyncClient client, int count) {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", 1 + i % 20)));
            times.add((System.nanoTime() - start) / 1_000_000);
            assertFalse(Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
        }
        return times;
    }

    static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    @Test
    void hangingStallingAndResettingUpstreamsEndWithinTheTimeoutAndHealthyToolsStayFast() throws Exception {
        HttpResponse<String> setup = post("/it-code-setup/tenant", null, "");
        assertEquals(200, setup.statusCode(), setup.body());
        String key = McpHttp.parse(setup.body()).asJsonObject().getString("key");
        Map<String, String> expected = Map.of("silent_get", "Upstream did not answer within " + TIMEOUT_MS + " ms",
                "stalling_get", "Upstream did not answer within " + TIMEOUT_MS + " ms",
                "resetting_get", "Upstream is unreachable (");
        for (String tool : expected.keySet()) {
            String upstream = tool.substring(0, tool.indexOf('_')).toUpperCase();
            HttpResponse<String> created = post("/api/tools", key, "{\"server\":\"demo\",\"name\":\"" + tool + "\",\"endpointMapping\":"
                    + "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_" + upstream + "}/x\"}}");
            assertEquals(201, created.statusCode(), created.body());
        }
        int threadsBefore = threadsInHttpCalls();
        List<McpSyncClient> clients = new ArrayList<>();
        try {
            McpSyncClient probe = McpHttp.sdkClient("/" + NAME + "/mcp/demo", key);
            clients.add(probe);
            probe.initialize();
            healthy(probe, 10); // warm
            List<Long> quiet = healthy(probe, 30);

            List<CompletableFuture<long[]>> faulty = new ArrayList<>();
            List<String> answers = new CopyOnWriteArrayList<>();
            for (String tool : expected.keySet()) {
                for (int i = 0; i < AT_ONCE; i++) {
                    McpSyncClient client = McpHttp.sdkClient("/" + NAME + "/mcp/demo", key);
                    clients.add(client);
                    client.initialize();
                    faulty.add(CompletableFuture.supplyAsync(() -> {
                        long start = System.nanoTime();
                        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, Map.of()));
                        String text = ((McpSchema.TextContent) r.content().get(0)).text();
                        answers.add(tool + ": " + text);
                        assertTrue(Boolean.TRUE.equals(r.isError()) && text.contains(expected.get(tool)), tool + ": " + text);
                        return new long[] {(System.nanoTime() - start) / 1_000_000};
                    }));
                }
            }
            Thread.sleep(300); // the calls are waiting on their upstreams
            int threadsDuring = threadsInHttpCalls();
            List<Long> during = healthy(probe, 30);
            List<Long> faultMs = new ArrayList<>();
            for (var call : faulty) {
                faultMs.add(call.get(TIMEOUT_MS * 4, TimeUnit.MILLISECONDS)[0]);
            }
            long given = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (threadsInHttpCalls() > threadsBefore && System.nanoTime() < given) {
                Thread.sleep(100);
            }
            int threadsAfter = threadsInHttpCalls();
            System.out.printf("[upstream-faults-it] %d faulty calls ended after %d..%d ms (timeout %d); customer_get p50 %d ms quiet, %d ms"
                            + " during the faults; threads in HTTP calls %d before, %d during, %d after%n", faultMs.size(),
                    faultMs.stream().min(Long::compare).orElse(0L), faultMs.stream().max(Long::compare).orElse(0L), TIMEOUT_MS,
                    median(quiet), median(during), threadsBefore, threadsDuring, threadsAfter);
            assertTrue(faultMs.stream().allMatch(ms -> ms <= TIMEOUT_MS + 1500), "every faulty call ends near the timeout: " + faultMs);
            assertTrue(threadsDuring >= AT_ONCE, "the silent and stalling calls each held a thread: " + threadsDuring);
            assertEquals(threadsBefore, threadsAfter, "the threads come back");
            assertTrue(median(during) < TIMEOUT_MS / 3, "a healthy tool does not wait behind the faulty ones: p50 " + median(during) + " ms");
        } finally {
            clients.forEach(McpSyncClient::close);
        }
    }
}
