package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * The outcome of one tool call, shaped like an MCP {@code CallToolResult}: a text rendering, the structured value
 * when it is a JSON object, and whether the call failed. A failure carries a message a model can act on and never
 * a stack trace.
 *
 * @param text              the text content (JSON text for JSON results)
 * @param structuredContent the result when it is a JSON object, else {@code null}
 * @param value             the parsed JSON result, or {@code null} for errors and plain text
 * @param isError           whether the tool failed
 * @param meta              the result's {@code _meta}, or {@code null} (a dry run's plan)
 */
public record ToolResult(String text, JsonObject structuredContent, JsonValue value, boolean isError, JsonObject meta) {

    /** {@code _meta} keys of a dry run: the flag on the request and the result, and the writes planned, in order. */
    public static final String META_DRY_RUN = "amcp/dryRun";
    public static final String META_PLANNED_WRITES = "amcp/plannedWrites";
    /** What a planned write answers in a dry run. */
    public static final JsonObject DRY_RUN_PLACEHOLDER = JsonSupport.JSON.createObjectBuilder().add("dryRun", true).build();

    public ToolResult(String text, JsonObject structuredContent, JsonValue value, boolean isError) {
        this(text, structuredContent, value, isError, null);
    }

    /** The answer of a write a dry run did not make: the placeholder, with the write in {@code _meta}. */
    public static ToolResult plannedWrite(String tool, JsonObject args) {
        return json(DRY_RUN_PLACEHOLDER).withDryRunPlan(JsonSupport.JSON.createArrayBuilder()
                .add(JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("args", args)).build());
    }

    /** This result as a dry run's, with the writes it planned ({@code [{tool, args}]}) in {@code _meta}. */
    public ToolResult withDryRunPlan(jakarta.json.JsonArray plannedWrites) {
        return new ToolResult(text, structuredContent, value, isError, JsonSupport.JSON.createObjectBuilder()
                .add(META_DRY_RUN, true).add(META_PLANNED_WRITES, plannedWrites).build());
    }

    public static ToolResult json(JsonValue value) {
        JsonObject structured = value.getValueType() == JsonValue.ValueType.OBJECT ? value.asJsonObject() : null;
        return new ToolResult(value.toString(), structured, value, false);
    }

    public static ToolResult error(String message) {
        return new ToolResult(message, null, null, true);
    }

    /** The error as a JSON object {@code {"error": message}}, for surfaces that only speak JSON. */
    public JsonObject errorObject() {
        return JsonSupport.JSON.createObjectBuilder().add("error", text).build();
    }
}
