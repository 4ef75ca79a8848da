package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.stream.Collectors;

/**
 * The write a run paused at, as a human is asked to approve it: the tool, its arguments and a readable summary.
 */
public record PlannedWrite(String tool, JsonObject args, String summary) {

    /** The longest summary kept; longer arguments are cut with "…" (the arguments themselves are shown in full). */
    public static final int MAX_SUMMARY_CHARS = 1000;

    /** The write of {@code tool} (titled {@code title}, may be null) with {@code args}, summarised in one line. */
    public static PlannedWrite of(String tool, String title, JsonObject args) {
        String fields = args.entrySet().stream().map(e -> e.getKey() + " = " + shown(e.getValue())).collect(Collectors.joining(", "));
        String summary = "Write with '" + tool + "'" + (title == null || title.isBlank() || title.equals(tool) ? "" : " (" + title + ")")
                + (fields.isEmpty() ? " without arguments" : ": " + fields);
        return new PlannedWrite(tool, args, summary.length() <= MAX_SUMMARY_CHARS ? summary : summary.substring(0, MAX_SUMMARY_CHARS - 1) + "…");
    }

    private static String shown(JsonValue value) {
        return value instanceof JsonString s ? "\"" + s.getString() + "\"" : value.toString();
    }

    public JsonObject json() {
        return JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("args", args).add("summary", summary).build();
    }
}
