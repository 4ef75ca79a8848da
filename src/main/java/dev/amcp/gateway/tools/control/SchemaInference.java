package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Proposes a JSON Schema for a tool result ("infer from this result" in the editor), for an admin to review before it is
 * saved: types, object properties, and as required the keys every sample carries with a value. Array items are merged
 * over the first {@value #MAX_ITEMS} elements; a key that was {@code null} gets no type (one sample cannot tell it), and
 * values of different kinds become {@code anyOf}. Nesting deeper than {@value #MAX_DEPTH} is left open ({@code {}}).
 */
public final class SchemaInference {

    static final int MAX_DEPTH = 12;
    static final int MAX_ITEMS = 200;

    private SchemaInference() {}

    /** The proposed schema of one value. */
    public static JsonObject infer(JsonValue value) {
        return infer(value, 0);
    }

    private static JsonObject infer(JsonValue value, int depth) {
        if (depth > MAX_DEPTH) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return switch (value.getValueType()) {
            case NULL -> JsonValue.EMPTY_JSON_OBJECT;
            case TRUE, FALSE -> type("boolean");
            case STRING -> type("string");
            case NUMBER -> type(((JsonNumber) value).isIntegral() ? "integer" : "number");
            case ARRAY -> {
                JsonArray array = value.asJsonArray();
                JsonObject items = null;
                for (int i = 0; i < Math.min(array.size(), MAX_ITEMS); i++) {
                    JsonObject item = infer(array.get(i), depth + 1);
                    items = items == null ? item : merge(items, item);
                }
                JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("type", "array");
                yield items == null ? b.build() : b.add("items", items).build();
            }
            case OBJECT -> {
                JsonObjectBuilder properties = JsonSupport.JSON.createObjectBuilder();
                var required = JsonSupport.JSON.createArrayBuilder();
                value.asJsonObject().forEach((key, v) -> {
                    properties.add(key, infer(v, depth + 1));
                    if (v.getValueType() != JsonValue.ValueType.NULL) {
                        required.add(key);
                    }
                });
                yield JsonSupport.JSON.createObjectBuilder().add("type", "object").add("properties", properties)
                        .add("required", required).build();
            }
        };
    }

    /** One schema that both samples follow. */
    static JsonObject merge(JsonObject a, JsonObject b) {
        if (a.equals(b)) {
            return a;
        }
        if (a.isEmpty() || b.isEmpty()) {
            return JsonValue.EMPTY_JSON_OBJECT; // one of them was null: nothing is known for sure
        }
        String ta = typeOf(a);
        String tb = typeOf(b);
        if (("integer".equals(ta) && "number".equals(tb)) || ("number".equals(ta) && "integer".equals(tb))) {
            return type("number");
        }
        if ("object".equals(ta) && "object".equals(tb)) {
            JsonObject pa = a.getJsonObject("properties");
            JsonObject pb = b.getJsonObject("properties");
            JsonObjectBuilder properties = JsonSupport.JSON.createObjectBuilder();
            Set<String> keys = new LinkedHashSet<>(pa.keySet());
            keys.addAll(pb.keySet());
            for (String key : keys) {
                properties.add(key, pa.containsKey(key) && pb.containsKey(key) ? merge(pa.getJsonObject(key), pb.getJsonObject(key))
                        : pa.containsKey(key) ? pa.getJsonObject(key) : pb.getJsonObject(key));
            }
            var required = JsonSupport.JSON.createArrayBuilder();
            Set<String> inB = names(b.getJsonArray("required"));
            names(a.getJsonArray("required")).stream().filter(inB::contains).forEach(required::add);
            return JsonSupport.JSON.createObjectBuilder().add("type", "object").add("properties", properties).add("required", required).build();
        }
        if ("array".equals(ta) && "array".equals(tb)) {
            if (!a.containsKey("items") || !b.containsKey("items")) {
                return a.containsKey("items") ? a : b;
            }
            return JsonSupport.JSON.createObjectBuilder().add("type", "array")
                    .add("items", merge(a.getJsonObject("items"), b.getJsonObject("items"))).build();
        }
        List<JsonValue> options = new ArrayList<>();
        for (JsonObject s : List.of(a, b)) {
            if (s.get("anyOf") instanceof JsonArray any) {
                any.forEach(o -> addOption(options, o.asJsonObject()));
            } else {
                addOption(options, s);
            }
        }
        var anyOf = JsonSupport.JSON.createArrayBuilder();
        options.forEach(anyOf::add);
        return JsonSupport.JSON.createObjectBuilder().add("anyOf", anyOf).build();
    }

    /** Adds an option to an {@code anyOf}, merged into one of the same type where there is one. */
    private static void addOption(List<JsonValue> options, JsonObject option) {
        for (int i = 0; i < options.size(); i++) {
            JsonObject o = options.get(i).asJsonObject();
            if (typeOf(o) != null && typeOf(o).equals(typeOf(option))) {
                options.set(i, merge(o, option));
                return;
            }
        }
        options.add(option);
    }

    private static Set<String> names(JsonArray array) {
        Set<String> names = new LinkedHashSet<>();
        array.getValuesAs(JsonString.class).forEach(s -> names.add(s.getString()));
        return names;
    }

    private static String typeOf(JsonObject schema) {
        return schema.get("type") instanceof JsonString s ? s.getString() : null;
    }

    private static JsonObject type(String type) {
        return JsonSupport.JSON.createObjectBuilder().add("type", type).build();
    }
}
