package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * How a tool in a code tool's {@code uses} differs from what the code tool was saved against: {@code changed} (its
 * schemas, with the changes in words) or {@code removed} (no such tool any more, or it became a code tool).
 */
public record UsedToolDrift(String tool, String status, List<String> changes) {

    public static final String CHANGED = "changed";
    public static final String REMOVED = "removed";

    public JsonObject toJson() {
        var c = JsonSupport.JSON.createArrayBuilder();
        changes.forEach(c::add);
        return JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("status", status).add("changes", c).build();
    }
}
