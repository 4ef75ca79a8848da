package dev.amcp.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.amcp.gateway.platform.boundary.RequestIdFilter;
import dev.amcp.gateway.platform.control.LogContext;
import java.util.UUID;
import java.util.logging.Level;
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
    void summaryLinesReachInfoAsTheSettingSays() {
        var problems = RequestIdFilter.SummaryPolicy.of(null);
        assertEquals(RequestIdFilter.SummaryPolicy.PROBLEMS, problems);
        assertEquals(Level.FINE, problems.level("200", 3, 1000));
        assertEquals(Level.FINE, problems.level("async", 3, 1000));
        assertEquals(Level.INFO, problems.level("401", 3, 1000));
        assertEquals(Level.INFO, problems.level("500", 0, 1000));
        assertEquals(Level.INFO, problems.level("200", 1000, 1000), "a slow success is a problem too");
        assertEquals(RequestIdFilter.SummaryPolicy.ALL, RequestIdFilter.SummaryPolicy.of(" True "));
        assertEquals(Level.INFO, RequestIdFilter.SummaryPolicy.of("all").level("200", 0, 1000));
        for (String none : new String[] {"false", "none", "off"}) {
            assertEquals(Level.FINE, RequestIdFilter.SummaryPolicy.of(none).level("503", 5000, 1000), none);
        }
        assertEquals(RequestIdFilter.SummaryPolicy.PROBLEMS, RequestIdFilter.SummaryPolicy.of("sometimes"));
    }

    @Test
    void sanitizedPathsArePrintableAndBounded() {
        assertEquals("/a?b", RequestIdFilter.sanitize("/a\nb"));
        assertEquals("x".repeat(200) + "...", RequestIdFilter.sanitize("x".repeat(250)));
        assertEquals("/mcp/demo", RequestIdFilter.sanitize("/mcp/demo"));
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
