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

    /**
     * {@code _meta} key of a code run paused at a write for a human's approval: {@code {id, status, plannedWrite:{tool,
     * args, summary}, expiresAt}}; a follow-up call names the id under the same key ({@code docs/code-mode.md#approvals}).
     */
    public static final String META_APPROVAL = "amcp/approval";
    public static final String META_APPROVAL_ID = "amcp/approvalId";

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

    /** The answer of a run paused at a write: what to do next in words, the approval in {@code _meta}. */
    public static ToolResult pendingApproval(String text, JsonObject approval) {
        return new ToolResult(text, null, null, false, JsonSupport.JSON.createObjectBuilder().add(META_APPROVAL, approval).build());
    }

    /** The approval this result waits on ({@link #pendingApproval}), or {@code null}. */
    public JsonObject pendingApproval() {
        return meta != null && meta.get(META_APPROVAL) instanceof JsonObject a && "PENDING".equals(JsonSupport.string(a, "status", null)) ? a : null;
    }

    /** This result as JSON, to be handed back later exactly ({@link #fromJson}). */
    public JsonObject toJson() {
        var b = JsonSupport.JSON.createObjectBuilder().add("text", text == null ? "" : text).add("isError", isError);
        if (value != null) {
            b.add("value", value);
        }
        if (meta != null) { // e.g. the next pending approval of a run that paused again
            b.add("meta", meta);
        }
        return b.build();
    }

    public static ToolResult fromJson(JsonObject json) {
        JsonValue value = json.get("value");
        JsonObject meta = json.get("meta") instanceof JsonObject m ? m : null;
        if (!json.getBoolean("isError", false) && value != null) {
            ToolResult result = json(value);
            return new ToolResult(result.text(), result.structuredContent(), value, false, meta);
        }
        return new ToolResult(JsonSupport.string(json, "text", ""), null, null, json.getBoolean("isError", false), meta);
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
