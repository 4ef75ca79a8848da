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
 */
public record ToolResult(String text, JsonObject structuredContent, JsonValue value, boolean isError) {

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
