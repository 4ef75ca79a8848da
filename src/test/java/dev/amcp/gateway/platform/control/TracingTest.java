package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Without an OpenTelemetry instance (no CDI container here, as on a server without the SDK, or with it off) no span is
 * made, but the caller's W3C context goes on to every hop unchanged: from {@code _meta}, else the HTTP headers.
 */
class TracingTest {

    static final String META = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    static final String HEADER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

    @Test
    void tracingOffPassesTheMetaContextToEveryHop() {
        assertFalse(Tracing.enabled());
        try (var http = Tracing.incoming(HEADER, "h=1");
             Tracing.Span request = Tracing.request("tools/call x", META, "vendor=abc")) {
            request.attribute("k", "v").attribute("n", 1).fail("no");
            try (Tracing.Span tool = Tracing.internal("execute_tool x"); Tracing.Span client = Tracing.client("GET")) {
                assertEquals(Map.of("traceparent", META, "tracestate", "vendor=abc"), client.headers(), "_meta wins over the header");
            }
        }
        try (Tracing.Span after = Tracing.client("GET")) {
            assertEquals(Map.of(), after.headers(), "nothing is left on the thread once the request is over");
        }
    }

    @Test
    void withoutMetaTheHttpHeadersAreTheContext() {
        try (var http = Tracing.incoming(HEADER, null); Tracing.Span request = Tracing.request("tools/call x", null, null);
             Tracing.Span client = Tracing.client("POST")) {
            assertEquals(Map.of("traceparent", HEADER), client.headers());
        }
        try (var http = Tracing.incoming(HEADER, "h=1"); Tracing.Span request = Tracing.request("tools/call x", "00-bad-01", null);
             Tracing.Span client = Tracing.client("POST")) {
            assertEquals(Map.of("traceparent", HEADER, "tracestate", "h=1"), client.headers(), "a malformed _meta context is ignored");
        }
        try (var http = Tracing.incoming(HEADER, null); Tracing.Span rest = Tracing.client("GET")) {
            assertEquals(Map.of("traceparent", HEADER), rest.headers(), "a REST call without an MCP request span");
        }
    }

    @Test
    void theContextFollowsWorkHandedToAnotherThread() throws Exception {
        var pool = Executors.newSingleThreadExecutor();
        try (Tracing.Span request = Tracing.request("tools/call code_execute", META, null)) {
            Tracing.Carried carried = Tracing.capture();
            var seen = CompletableFuture.supplyAsync(() -> {
                try (var scope = carried.restore(); Tracing.Span bridge = Tracing.internal("bridge run");
                     Tracing.Span client = Tracing.client("GET")) {
                    return client.headers();
                }
            }, pool).get();
            assertEquals(Map.of("traceparent", META), seen);
            assertEquals(Map.of(), pool.submit(() -> Tracing.client("GET").headers()).get(), "restored only inside the scope");
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void onlyWellFormedContextsArePassedOn() {
        assertEquals(META, W3c.traceparent(META));
        assertEquals(META, W3c.traceparent(" " + META + " "));
        assertEquals("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                W3c.traceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-later"), "a later version, sent as 00");
        for (String bad : new String[] {"", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-x",
                "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00-00000000000000000000000000000000-b7ad6b7169203331-01",
                "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\nX-Evil: 1", "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x"}) {
            assertNull(W3c.traceparent(bad), bad);
        }
        assertEquals(Map.of("traceparent", META), W3c.valid(Map.of("traceparent", META, "tracestate", "a=1\r\nX-Evil: 1")));
        assertEquals(Map.of("traceparent", META), W3c.valid(Map.of("traceparent", META, "tracestate", "a=" + "x".repeat(W3c.MAX_TRACESTATE))));
        assertNull(W3c.valid(Map.of("tracestate", "a=1")));
    }
}
