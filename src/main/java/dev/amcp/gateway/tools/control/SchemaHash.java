package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * The SHA-256 of a tool's contract with its callers: input and output schema, each written canonically
 * ({@link CanonicalJson}), so storing a schema in {@code jsonb} (which reorders keys) does not change it, and a
 * missing schema differs from an empty one.
 */
public final class SchemaHash {

    private SchemaHash() {}

    public static String of(JsonObject inputSchema, JsonObject outputSchema) {
        StringBuilder b = new StringBuilder("tool-schemas/1\n");
        CanonicalJson.write(inputSchema == null ? JsonValue.NULL : inputSchema, b);
        b.append('\n');
        CanonicalJson.write(outputSchema == null ? JsonValue.NULL : outputSchema, b);
        return Hashes.sha256(b.toString());
    }

    public static String of(McpTool tool) {
        return of(tool.getInputSchema(), tool.getOutputSchema());
    }
}
