package dev.amcp.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.amcp.gateway.platform.boundary.RequestIdFilter;
import dev.amcp.gateway.platform.control.LogContext;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Request id choice and the scoping of log correlation fields. */
class RequestIdTest {

    @Test
    void keepsPlausibleIdsAndReplacesTheRest() {
        assertEquals("lb-1234.abc:7_x", RequestIdFilter.idFor("lb-1234.abc:7_x"));
        for (String bad : new String[] {null, "", "with space", "line\nbreak", "x".repeat(65), "quote\"", "ü"}) {
            String id = RequestIdFilter.idFor(bad);
            assertNotEquals(bad, id);
            assertEquals(id, UUID.fromString(id).toString());
        }
    }

    @Test
    void scopesNestAndRestore() {
        assertNull(LogContext.requestId());
        try (var outer = LogContext.put(LogContext.REQUEST_ID, "a")) {
            try (var inner = LogContext.put(LogContext.REQUEST_ID, "b"); var run = LogContext.put(LogContext.RUN_ID, "r1")) {
                assertEquals("b", LogContext.requestId());
                assertEquals("r1", LogContext.get(LogContext.RUN_ID));
            }
            assertEquals("a", LogContext.requestId());
            assertNull(LogContext.get(LogContext.RUN_ID));
        }
        assertNull(LogContext.requestId());
    }

    @Test
    void snapshotsCarryFieldsToAnotherThread() throws Exception {
        try (var scope = LogContext.put(LogContext.REQUEST_ID, "req-1")) {
            var snapshot = LogContext.snapshot();
            String seen = CompletableFuture.supplyAsync(() -> {
                String before = LogContext.requestId();
                try (var restored = LogContext.restore(snapshot)) {
                    return before + "/" + LogContext.requestId();
                }
            }).get();
            assertEquals("null/req-1", seen);
        }
    }
}
