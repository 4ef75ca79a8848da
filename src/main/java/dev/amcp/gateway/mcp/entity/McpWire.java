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
        JsonObject toJson(ProtocolVersion v) {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", name).add("version", version);
            if (v.hasStructuredOutput() && title != null) {
                b.add("title", title);
            }
            return b.build();
        }
    }

    public record InitializeResult(ProtocolVersion protocolVersion, Implementation serverInfo, String instructions) {
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                    .add("protocolVersion", protocolVersion.wire())
                    .add("capabilities", JsonSupport.JSON.createObjectBuilder()
                            .add("tools", JsonSupport.JSON.createObjectBuilder().add("listChanged", false)))
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

    public record ToolsPage(List<Tool> tools, String nextCursor) {
        public JsonObject toJson(ProtocolVersion v) {
            JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
            tools.forEach(t -> array.add(t.toJson(v)));
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("tools", array);
            if (nextCursor != null) {
                b.add("nextCursor", nextCursor);
            }
            return b.build();
        }
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
