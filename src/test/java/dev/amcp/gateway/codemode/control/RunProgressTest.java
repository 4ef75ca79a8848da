package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.amcp.gateway.tools.control.CallContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a code run reports to a client that asked for progress, and the bounds on it. */
class RunProgressTest {

    final List<String> seen = new ArrayList<>();
    final RunProgress progress = new RunProgress(new CallContext("k", (p, total, message) -> seen.add(p + "/" + total + " " + message)));

    @Test
    void finishedBridgeCallsCountUpUntilTheCodeReportsItsOwn() {
        progress.bridgeCallDone("run", "customer_get", true);
        progress.bridgeCallDone("search", null, true);
        progress.bridgeCallDone("describe", "orders_list", false);
        progress.fromCode(4, 10.0, "four of ten");
        progress.bridgeCallDone("run", "customer_get", true); // the code owns the numbers now
        progress.fromCode(5, 10.0, null);
        assertEquals(List.of("1.0/null customer_get done", "2.0/null search done", "3.0/null describe orders_list failed",
                "4.0/10.0 four of ten", "5.0/10.0 null"), seen);
    }

    @Test
    void progressOnlyGrowsAndIsBounded() {
        progress.fromCode(3, null, "three");
        progress.fromCode(2, null, "back to two");
        progress.fromCode(3, null, "three again");
        for (int i = 4; i < 500; i++) {
            progress.fromCode(i, null, "x".repeat(1000));
        }
        assertEquals(RunProgress.MAX_NOTIFICATIONS, seen.size());
        assertEquals("3.0/null three", seen.get(0));
        assertEquals("4.0/null " + "x".repeat(RunProgress.MAX_MESSAGE_CHARS), seen.get(1));
    }

    @Test
    void aCalledToolsProgressIsShownWithinItsCall() {
        progress.bridgeCallDone("run", "a", true);
        progress.fromTool(1, 4.0, "upstream quarter");
        progress.fromTool(7, null, "no total");
        progress.bridgeCallDone("run", "b", true);
        assertEquals(List.of("1.0/null a done", "1.25/null upstream quarter", "1.5/null no total", "2.0/null b done"), seen);
    }

    @Test
    void nobodyAskedNothingGoesOut() {
        RunProgress none = new RunProgress(CallContext.NONE);
        none.bridgeCallDone("run", "a", true);
        none.fromCode(1, null, "x");
    }
}
