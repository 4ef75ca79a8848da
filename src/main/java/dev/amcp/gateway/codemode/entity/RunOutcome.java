package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;

/**
 * The end of a code run as the gateway judged it.
 *
 * @param value   what the code returned (SUCCESS only)
 * @param error   a message for the client when the run did not succeed
 * @param console what the code logged, capped
 */
public record RunOutcome(String runId, RunStatus status, JsonValue value, String error, String console,
                         List<BridgeCall> trace, long wallMs, long outputBytes) {

    public RunOutcome {
        trace = List.copyOf(trace);
    }

    public static RunOutcome refused(String runId, String error) {
        return new RunOutcome(runId, RunStatus.REFUSED, null, error, "", List.of(), 0, 0);
    }

    public JsonObject traceJson() {
        JsonArrayBuilder calls = JsonSupport.JSON.createArrayBuilder();
        trace.forEach(c -> calls.add(c.json()));
        return JsonSupport.JSON.createObjectBuilder().add("calls", calls).build();
    }
}
