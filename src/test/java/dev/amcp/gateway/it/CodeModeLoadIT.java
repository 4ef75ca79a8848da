package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.bench.CodeModeBench;
import jakarta.json.JsonObject;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Load on code mode with the live runner: 200 {@code tools/call code_execute} fired at once over MCP, each on its own
 * connection. None may be lost: every request leaves exactly one {@code code_runs} row, and every row ends with a
 * final status, never {@code RUNNING}. Which final status each gets depends on the runner's capacity (its bounded
 * queue answers "busy", and time spent queued counts against the run's wall time), so only that is asserted.
 */
@ExtendWith(ArquillianExtension.class)
class CodeModeLoadIT {

    static final int RUNS = 200;
    static final Set<String> FINAL = Set.of("SUCCESS", "ERROR", "TIMEOUT", "REFUSED", "CANCELLED", "LIMIT");

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway();
    }

    @Test
    void twoHundredConcurrentRunsAreAllRecordedWithAFinalStatus() throws Exception {
        JsonObject t = CodeModeMcpIT.tenant();
        CodeModeBench.LoadResult r = CodeModeBench.fireConcurrentRuns(McpHttp.base(), t.getString("key"), RUNS, 60, 20_000);
        System.out.printf("CodeModeLoadIT: %d runs, HTTP 200: %d, client failures: %s, rows: %d, statuses: %s, wall %.0f ms, p50 %.0f ms,"
                        + " p99 %.0f ms, rows settled after %d ms%n", RUNS, r.http200(), r.clientFailures(), r.rows(), r.statuses(),
                r.wallNanos() / 1e6, r.latency().p50() / 1e6, r.latency().p99() / 1e6, r.settleMillis());
        assertEquals(RUNS, r.rows(), "one code_runs row per request: " + r.statuses());
        assertFalse(r.statuses().containsKey("RUNNING"), "no run is left RUNNING: " + r.statuses());
        assertTrue(FINAL.containsAll(r.statuses().keySet()), "only final statuses: " + r.statuses());
        assertTrue(r.statuses().getOrDefault("SUCCESS", 0) > 0, "the runner did serve runs under load: " + r.statuses());
        assertEquals(RUNS, r.http200(), "every MCP request is answered within 60 s: " + r.clientFailures());
    }
}
