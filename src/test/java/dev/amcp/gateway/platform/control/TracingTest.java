package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Without an OpenTelemetry instance (no CDI container here, as on a server without the SDK) tracing is off and inert. */
class TracingTest {

    @Test
    void withoutOpenTelemetryEverySpanIsInertAndSendsNoHeaders() {
        assertFalse(Tracing.enabled());
        try (Tracing.Span span = Tracing.request("tools/call x", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null)) {
            span.attribute("k", "v").attribute("n", 1).fail("no");
            assertEquals(Map.of(), span.headers());
        }
        try (var scope = Tracing.capture().restore(); Tracing.Span client = Tracing.client("GET")) {
            assertEquals(Map.of(), client.headers());
        }
    }

    @Test
    void incomingHeadersAreForgottenWhenTheRequestEnds() {
        try (var outer = Tracing.incoming("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "a=1")) {
            try (var none = Tracing.incoming(null, null)) {
                assertSame(none, Tracing.incoming(null, null), "no header, no state to restore");
            }
        }
    }
}
