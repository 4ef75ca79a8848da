package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;

/**
 * What a client sees of a tool in a listing: name, texts, schemas and behaviour hints. Stored tools and virtual
 * tools (such as {@code code_execute}) are described alike.
 */
public record ToolDescriptor(String name, String title, String description, JsonObject inputSchema,
                             JsonObject outputSchema, boolean readOnly, boolean destructive, boolean idempotent,
                             boolean codeTool) {

    public static final JsonObject EMPTY_OBJECT_SCHEMA = JsonSupport.JSON.createObjectBuilder().add("type", "object").build();

    public static ToolDescriptor of(McpTool tool) {
        String method = tool.getMethod();
        boolean readOnly = tool.isReadOnly();
        return new ToolDescriptor(tool.getName(), tool.getTitle(), tool.getDescription(),
                tool.getInputSchema() == null ? EMPTY_OBJECT_SCHEMA : tool.getInputSchema(), tool.getOutputSchema(),
                readOnly, "DELETE".equals(method) || (tool.isCodeTool() && !readOnly),
                readOnly || "PUT".equals(method) || "DELETE".equals(method), tool.isCodeTool());
    }
}
