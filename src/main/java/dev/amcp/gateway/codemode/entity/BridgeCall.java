package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;

/** One entry of a run's bridge trace: which op on which tool, how it ended, how long it took, how many bytes. */
public record BridgeCall(long id, String op, String tool, String outcome, long millis, long bytes) {

    public JsonObject json() {
        var b = JsonSupport.JSON.createObjectBuilder().add("id", id).add("op", op).add("outcome", outcome).add("ms", millis).add("bytes", bytes);
        if (tool != null) {
            b.add("tool", tool);
        }
        return b.build();
    }
}
