package dev.amcp.gateway.workspace.boundary;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Typed fields of the administration REST bodies: absent or {@code null} reads as {@code null}, and a value of the
 * wrong type is refused with a message naming the field (a 400), never read as absent.
 */
final class RequestFields {

    private RequestFields() {}

    /** A string field: absent or null is {@code null}; any other type is refused, never read as absent. */
    static String text(JsonObject json, String key) {
        JsonValue value = json.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException(key + " must be a string");
        }
        return ((jakarta.json.JsonString) value).getString();
    }

    /** A boolean field: absent or null is {@code null}; {@code "true"}, 1 and other types are refused. */
    static Boolean flag(JsonObject json, String key) {
        JsonValue value = json.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
            throw new IllegalArgumentException(key + " must be true or false");
        }
        return value == JsonValue.TRUE;
    }

    static JsonObject object(JsonObject json, String key) {
        JsonValue value = json.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new IllegalArgumentException(key + " must be an object");
        }
        return value.asJsonObject();
    }
}
