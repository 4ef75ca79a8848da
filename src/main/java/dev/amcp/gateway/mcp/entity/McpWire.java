package dev.amcp.gateway.mcp.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;

/** The MCP result shapes this gateway sends, as records that render themselves for a protocol revision. */
public final class McpWire {

    private McpWire() {}

    public record Implementation(String name, String title, String version) {
        public JsonObject toJson(ProtocolVersion v) {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", name).add("version", version);
            if (v.hasStructuredOutput() && title != null) {
                b.add("title", title);
            }
            return b.build();
        }
    }

    /** {@code tools.listChanged}: a session's {@code GET} stream tells of tool list changes. */
    public record InitializeResult(ProtocolVersion protocolVersion, Implementation serverInfo, String instructions) {
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                    .add("protocolVersion", protocolVersion.wire())
                    .add("capabilities", JsonSupport.JSON.createObjectBuilder()
                            .add("tools", JsonSupport.JSON.createObjectBuilder().add("listChanged", true)))
                    .add("serverInfo", serverInfo.toJson(protocolVersion));
            if (instructions != null) {
                b.add("instructions", instructions);
            }
            return b.build();
        }
    }

    /** A tool definition of {@code tools/list}. */
    public record Tool(ToolDescriptor descriptor) {
        public JsonObject toJson(ProtocolVersion v) {
            ToolDescriptor d = descriptor;
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", d.name());
            if (v.hasStructuredOutput() && d.title() != null) {
                b.add("title", d.title());
            }
            b.add("description", d.description() != null ? d.description() : d.title() != null ? d.title() : d.name());
            b.add("inputSchema", d.inputSchema() != null ? d.inputSchema() : ToolDescriptor.EMPTY_OBJECT_SCHEMA);
            if (v.hasStructuredOutput() && d.outputSchema() != null && isObjectSchema(d.outputSchema())) {
                b.add("outputSchema", d.outputSchema());
            }
            JsonObjectBuilder annotations = JsonSupport.JSON.createObjectBuilder();
            if (d.title() != null) {
                annotations.add("title", d.title());
            }
            annotations.add("readOnlyHint", d.readOnly())
                    .add("destructiveHint", !d.readOnly() && d.destructive())
                    .add("idempotentHint", d.idempotent())
                    .add("openWorldHint", !d.codeTool());
            return b.add("annotations", annotations).build();
        }

        private static boolean isObjectSchema(JsonObject schema) {
            JsonValue type = schema.get("type");
            return type != null && type.getValueType() == JsonValue.ValueType.STRING && "object".equals(schema.getString("type"));
        }
    }

    /**
     * A page of {@code tools/list}. From 2026-07-28 it carries caching hints: {@code ttlMs}, and {@code cacheScope}
     * {@code private}, because the list is filtered for the caller's role.
     */
    public record ToolsPage(List<Tool> tools, String nextCursor, long ttlMs) {
        public JsonObject toJson(ProtocolVersion v) {
            JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
            tools.forEach(t -> array.add(t.toJson(v)));
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("tools", array);
            if (nextCursor != null) {
                b.add("nextCursor", nextCursor);
            }
            if (v.stateless()) {
                cacheHints(b, ttlMs);
            }
            return b.build();
        }
    }

    /** 2026-07-28 {@code cacheScope} of everything this gateway lists: every answer depends on the caller's key. */
    public static final String CACHE_SCOPE = "private";

    private static JsonObjectBuilder cacheHints(JsonObjectBuilder b, long ttlMs) {
        return b.add("ttlMs", Math.max(0, ttlMs)).add("cacheScope", CACHE_SCOPE);
    }

    /**
     * An empty list result of 2026-07-28 ({@code prompts/list}, {@code resources/list},
     * {@code resources/templates/list}): the gateway serves tools only, and says so with an empty, cacheable list.
     */
    public static JsonObject emptyList(String member, long ttlMs) {
        return cacheHints(JsonSupport.JSON.createObjectBuilder().add(member, JsonValue.EMPTY_JSON_ARRAY), ttlMs).build();
    }

    /** The 2026-07-28 {@code server/discover} result. */
    public record DiscoverResult(List<String> supportedVersions, JsonObject capabilities, String instructions, long ttlMs) {
        public JsonObject toJson() {
            JsonArrayBuilder versions = JsonSupport.JSON.createArrayBuilder();
            supportedVersions.forEach(versions::add);
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("supportedVersions", versions)
                    .add("capabilities", capabilities);
            if (instructions != null) {
                b.add("instructions", instructions);
            }
            return cacheHints(b, ttlMs).build();
        }
    }

    /** 2026-07-28 {@code _meta} keys. */
    public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    public static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    public static final String META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

    /**
     * A 2026-07-28 result as sent: {@code resultType: "complete"} and the server's identity in {@code _meta}, next to
     * whatever {@code _meta} the result already has ({@code extraMeta} may add more, e.g. a subscription id).
     */
    public static JsonObject complete(JsonObject result, Implementation server, JsonObject extraMeta) {
        JsonObjectBuilder meta = JsonSupport.JSON.createObjectBuilder();
        if (result.get("_meta") instanceof JsonObject existing) {
            existing.forEach(meta::add);
        }
        if (extraMeta != null) {
            extraMeta.forEach(meta::add);
        }
        meta.add(META_SERVER_INFO, server.toJson(ProtocolVersion.V2026_07_28));
        // an input_required result keeps its type; everything else is complete
        return JsonSupport.JSON.createObjectBuilder(result).add("resultType", JsonSupport.string(result, "resultType", "complete"))
                .add("_meta", meta).build();
    }

    /** The first message of a {@code subscriptions/listen} stream: what the server agreed to send on it. */
    public static JsonObject subscriptionAcknowledged(JsonValue subscriptionId, JsonObject honoured) {
        return JsonRpcMessage.notification("notifications/subscriptions/acknowledged", JsonSupport.JSON.createObjectBuilder()
                .add("notifications", honoured).add("_meta", subscriptionMeta(subscriptionId)).build());
    }

    /** {@code notifications/tools/list_changed} on a {@code subscriptions/listen} stream. */
    public static JsonObject toolListChanged(JsonValue subscriptionId) {
        return JsonRpcMessage.notification("notifications/tools/list_changed", JsonSupport.JSON.createObjectBuilder()
                .add("_meta", subscriptionMeta(subscriptionId)).build());
    }

    /** {@code notifications/tools/list_changed} as 2025-03-26 to 2025-11-25 send it (a session's GET stream): no params. */
    public static JsonObject toolListChanged() {
        return JsonSupport.JSON.createObjectBuilder().add("jsonrpc", "2.0").add("method", "notifications/tools/list_changed").build();
    }

    public static JsonObject subscriptionMeta(JsonValue subscriptionId) {
        return JsonSupport.JSON.createObjectBuilder().add(META_SUBSCRIPTION_ID, subscriptionId).build();
    }

    /**
     * A 2026-07-28 {@code input_required} result (multi round-trip requests) asking the client's user to approve a paused
     * write: one form elicitation under {@code key} with the write's summary and a yes/no field {@code approve}, and the
     * approval's id as {@code requestState}, which the retry echoes with the answer in {@code inputResponses}.
     */
    public static JsonObject approvalRequired(JsonObject approval, String key) {
        JsonObject write = approval.getJsonObject("plannedWrite");
        String summary = JsonSupport.string(write, "summary", "");
        JsonObject schema = JsonSupport.JSON.createObjectBuilder().add("type", "object")
                .add("properties", JsonSupport.JSON.createObjectBuilder().add("approve", JsonSupport.JSON.createObjectBuilder()
                        .add("type", "boolean").add("title", "Approve this write").add("description", summary)))
                .add("required", JsonSupport.JSON.createArrayBuilder().add("approve")).build();
        JsonObject elicit = JsonSupport.JSON.createObjectBuilder().add("method", "elicitation/create")
                .add("params", JsonSupport.JSON.createObjectBuilder().add("mode", "form")
                        .add("message", "A code run wants to write: " + summary + ". Nothing is written unless you approve.")
                        .add("requestedSchema", schema)).build();
        return JsonSupport.JSON.createObjectBuilder().add("resultType", "input_required")
                .add("inputRequests", JsonSupport.JSON.createObjectBuilder().add(key, elicit))
                .add("requestState", approval.getString("id"))
                .add("_meta", JsonSupport.JSON.createObjectBuilder().add(ToolResult.META_APPROVAL, approval)).build();
    }

    /** A {@code CallToolResult}: the text, the structured value next to its JSON text, and the error flag. */
    public record CallToolResult(ToolResult result) {
        public JsonObject toJson(ProtocolVersion v) {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                    .add("content", JsonSupport.JSON.createArrayBuilder().add(JsonSupport.JSON.createObjectBuilder()
                            .add("type", "text").add("text", result.text() == null ? "" : result.text())))
                    .add("isError", result.isError());
            if (v.hasStructuredOutput() && !result.isError() && result.structuredContent() != null) {
                b.add("structuredContent", result.structuredContent());
            }
            if (result.meta() != null) {
                b.add("_meta", result.meta());
            }
            return b.build();
        }
    }

    public static JsonObject progress(JsonValue token, double progress, Double total, String message) {
        JsonObjectBuilder p = JsonSupport.JSON.createObjectBuilder().add("progressToken", token).add("progress", progress);
        if (total != null) {
            p.add("total", total);
        }
        if (message != null) {
            p.add("message", message);
        }
        return JsonRpcMessage.notification("notifications/progress", p.build());
    }
}
