package dev.amcp.gateway.sources.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;

/**
 * One operation of an OpenAPI document as the import proposes it: the tool it becomes (name, read/write, texts,
 * schemas, the HTTP mapping) and what the admin should know. {@code unsupported} says why the HTTP invoker cannot run
 * it (then it is listed but never created); {@code notes} say what was renamed, dropped or left open.
 */
public record ImportedOperation(String operationId, String name, String method, String path, boolean readOnly,
                                String title, String description, JsonObject inputSchema, JsonObject outputSchema,
                                JsonObject endpointMapping, List<String> notes, String unsupported) {

    /** The same operation calling as {@code mapping} says. */
    public ImportedOperation withMapping(JsonObject mapping) {
        return new ImportedOperation(operationId, name, method, path, readOnly, title, description, inputSchema, outputSchema, mapping,
                notes, unsupported);
    }

    public JsonObject toJson() {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("operationId", operationId).add("name", name)
                .add("method", method).add("path", path).add("readOnly", readOnly)
                .add("description", description == null ? JsonValue.NULL : JsonSupport.JSON.createValue(description))
                .add("inputSchema", inputSchema)
                .add("outputSchema", outputSchema == null ? JsonValue.NULL : outputSchema)
                .add("endpointMapping", endpointMapping);
        if (title != null) {
            b.add("title", title);
        }
        JsonArrayBuilder n = JsonSupport.JSON.createArrayBuilder();
        notes.forEach(n::add);
        b.add("notes", n);
        if (unsupported != null) {
            b.add("unsupported", unsupported);
        }
        return b.build();
    }

    public static ImportedOperation fromJson(JsonObject json) {
        return new ImportedOperation(json.getString("operationId"), json.getString("name"), json.getString("method"),
                json.getString("path"), json.getBoolean("readOnly"), JsonSupport.string(json, "title", null),
                json.isNull("description") ? null : json.getString("description"), json.getJsonObject("inputSchema"),
                json.isNull("outputSchema") ? null : json.getJsonObject("outputSchema"), json.getJsonObject("endpointMapping"),
                json.getJsonArray("notes").getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList(),
                JsonSupport.string(json, "unsupported", null));
    }
}
