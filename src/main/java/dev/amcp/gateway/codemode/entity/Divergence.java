package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Where a replay left its recording: the {@code callIndex}-th {@code amcp.run} call of the replay (from 0), its tool
 * and arguments, and why the recording could not answer it: {@code not_recorded} (no unused recorded call with that
 * tool and those arguments), {@code truncated} (recorded over the size cap, without its result) or {@code withheld}
 * (a result of a tool the viewer may not read), or {@code not_approved} (a resumed run's write other than the approved one).
 */
public record Divergence(int callIndex, String tool, JsonObject args, String reason) {

    public static final String NOT_RECORDED = "not_recorded";
    public static final String TRUNCATED = "truncated";
    public static final String WITHHELD = "withheld";
    /** A resumed run reached a write other than the one a human approved. */
    public static final String NOT_APPROVED = "not_approved";

    public JsonObject json() {
        return JsonSupport.JSON.createObjectBuilder().add("callIndex", callIndex).add("tool", tool)
                .add("args", args == null ? JsonValue.NULL : args).add("reason", reason).build();
    }

    /** For the run's error: what happened, in words. */
    public String describe() {
        String why = switch (reason) {
            case TRUNCATED -> "its recorded result was over the recording size cap";
            case WITHHELD -> "its recorded result is of a tool you may not read";
            case NOT_APPROVED -> "it is a write other than the approved one";
            default -> "the recording has no such call";
        };
        return "The replay diverged at call #" + callIndex + " amcp.run('" + tool + "', " + (args == null ? "null" : args)
                + "): " + why + "; no tool was called";
    }
}
