package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** {@code notifications/initialized} waits for the event stream's answer, and only when a stream was asked for. */
class EventStreamOpeningTest {

    private HttpServer server;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/mcp", exchange -> {
            try {
                release.await(); // the stream answers only when the test lets it
                events.add("stream answered");
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(":\n\n".getBytes());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private Mono<Void> initialized() {
        return Mono.fromRunnable(() -> events.add("initialized sent"));
    }

    @Test
    void withoutAnEventStreamInitializedGoesAtOnce() {
        EventStreamOpening opening = new EventStreamOpening();
        opening.watching(HttpClient.newBuilder()).build();
        opening.beforeInitialized(initialized()).block(Duration.ofSeconds(1));
        assertEquals(List.of("initialized sent"), events);
    }

    @Test
    void initializedWaitsUntilTheUpstreamAnswersTheEventStream() throws Exception {
        EventStreamOpening opening = new EventStreamOpening();
        HttpClient client = opening.watching(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)).build();
        client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp")).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        Mono<Void> held = opening.beforeInitialized(initialized()).cache();
        held.subscribe();
        Thread.sleep(300);
        assertTrue(events.isEmpty(), "nothing was sent while the stream had not answered: " + events);
        release.countDown();
        held.block(Duration.ofSeconds(4));
        assertEquals(List.of("stream answered", "initialized sent"), events);
    }

    @Test
    void anEventStreamThatFailsDoesNotHoldInitialized() {
        EventStreamOpening opening = new EventStreamOpening();
        HttpClient client = opening.watching(HttpClient.newBuilder()).build();
        // port 9 (discard) on loopback: nothing listens there, the connection is refused at once
        client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/mcp")).GET().build(), HttpResponse.BodyHandlers.discarding());
        opening.beforeInitialized(initialized()).block(EventStreamOpening.MAX_WAIT.minusSeconds(1));
        assertEquals(List.of("initialized sent"), events);
    }
}
