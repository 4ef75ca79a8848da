package dev.amcp.gateway.sources.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Turns the schemas of a parsed OpenAPI document (as the swagger parser's model serialises them) into self-contained
 * JSON Schema 2020-12 for tool arguments and results: local {@code $ref}s are put in place, a reference back into
 * itself (a cycle) and anything nested deeper than {@link #MAX_DEPTH} levels become an open schema that says so, and
 * the OpenAPI 3.0 dialect is translated ({@code nullable}, boolean {@code exclusiveMinimum}/{@code exclusiveMaximum},
 * {@code example}). A reference to another document is never followed (the import fetches nothing but the one URL);
 * it becomes an open schema too. The total size is bounded by {@link #MAX_NODES}.
 */
final class OpenApiSchemas {

    static final int MAX_DEPTH = 8;
    static final int MAX_NODES = 2_000;
    /** Keywords of OpenAPI's schema object that JSON Schema 2020-12 does not have (or has as something else). */
    private static final Set<String> OPENAPI_ONLY = Set.of("nullable", "discriminator", "xml", "externalDocs", "example",
            "exampleSetFlag", "$schema", "$id", "$anchor", "$dynamicAnchor", "$defs", "definitions", "$comment");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "dependentSchemas");
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");
    private static final Set<String> SCHEMA_VALUES = Set.of("items", "additionalProperties", "not", "contains",
            "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "additionalItems");

    private final JsonObject document;
    private int nodes;

    /** @param document the whole document, where {@code #/components/...} references point */
    OpenApiSchemas(JsonObject document) {
        this.document = document;
    }

    /** A schema of the document made self-contained; {@code null} stays {@code null}. */
    JsonObject convert(JsonObject schema) {
        if (schema == null) {
            return null;
        }
        nodes = 0;
        return convert(schema, new ArrayDeque<>(), 0);
    }

    /** What a {@code #/...} pointer names in the document, or {@code null}. */
    JsonValue resolvePointer(String ref) {
        if (!ref.startsWith("#/")) {
            return null;
        }
        JsonValue at = document;
        for (String raw : ref.substring(2).split("/", -1)) {
            String key = java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("~1", "/").replace("~0", "~");
            if (!(at instanceof JsonObject object) || !object.containsKey(key)) {
                return null;
            }
            at = object.get(key);
        }
        return at;
    }

    /** A parameter, request body or response object, its own {@code $ref} (one level, as OpenAPI allows) followed. */
    JsonObject deref(JsonObject object) {
        JsonObject at = object;
        for (int hops = 0; at != null && at.containsKey("$ref") && hops < MAX_DEPTH; hops++) {
            JsonValue target = resolvePointer(at.getString("$ref", ""));
            at = target instanceof JsonObject o ? o : null;
        }
        return at == null || at.containsKey("$ref") ? null : at;
    }

    private JsonObject convert(JsonObject schema, Deque<String> refs, int depth) {
        if (++nodes > MAX_NODES) {
            return open("not expanded: the schema is larger than " + MAX_NODES + " nodes");
        }
        if (schema.containsKey("$ref")) {
            String ref = JsonSupport.string(schema, "$ref", "");
            if (refs.contains(ref)) {
                return open("recursive reference to " + ref + ", not expanded");
            }
            JsonValue target = resolvePointer(ref);
            if (!(target instanceof JsonObject resolved)) {
                return open(ref.startsWith("#") ? "unresolved reference " + ref : "reference to another document (" + ref + "), not followed");
            }
            refs.push(ref);
            try {
                JsonObject inlined = convert(resolved, refs, depth);
                // 3.1 allows keywords next to $ref (a description, say); they win over the target's
                JsonObjectBuilder merged = JsonSupport.JSON.createObjectBuilder(inlined);
                schema.forEach((k, v) -> {
                    if (!k.equals("$ref") && !OPENAPI_ONLY.contains(k) && !k.startsWith("x-")) {
                        merged.add(k, v);
                    }
                });
                return merged.build();
            } finally {
                refs.pop();
            }
        }
        if (depth >= MAX_DEPTH) {
            return open("nested deeper than " + MAX_DEPTH + " levels, not expanded");
        }
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder();
        for (var entry : schema.entrySet()) {
            String key = entry.getKey();
            JsonValue value = entry.getValue();
            if (OPENAPI_ONLY.contains(key) || key.startsWith("x-")) {
                continue;
            }
            if (SCHEMA_MAPS.contains(key) && value instanceof JsonObject map) {
                JsonObjectBuilder converted = JsonSupport.JSON.createObjectBuilder();
                map.forEach((name, sub) -> converted.add(name, sub instanceof JsonObject s ? convert(s, refs, depth + 1) : sub));
                out.add(key, converted);
            } else if (SCHEMA_LISTS.contains(key) && value instanceof JsonArray list) {
                JsonArrayBuilder converted = JsonSupport.JSON.createArrayBuilder();
                list.forEach(sub -> converted.add(sub instanceof JsonObject s ? convert(s, refs, depth + 1) : sub));
                out.add(key, converted);
            } else if (SCHEMA_VALUES.contains(key) && value instanceof JsonObject sub) {
                out.add(key, convert(sub, refs, depth + 1));
            } else if ((key.equals("exclusiveMinimum") || key.equals("exclusiveMaximum")) && value.getValueType() != JsonValue.ValueType.NUMBER) {
                String bound = key.equals("exclusiveMinimum") ? "minimum" : "maximum";
                if (isTrue(value)) {
                    if (schema.get(bound) instanceof JsonNumber n) {
                        out.add(key, n);
                    }
                }
            } else if ((key.equals("minimum") || key.equals("maximum"))
                    && isTrue(schema.get(key.equals("minimum") ? "exclusiveMinimum" : "exclusiveMaximum"))) {
                continue; // 3.0's boolean form: the bound moved into exclusiveMinimum/exclusiveMaximum above
            } else {
                out.add(key, value);
            }
        }
        if (schema.containsKey("example") && !schema.containsKey("examples")) {
            out.add("examples", JsonSupport.JSON.createArrayBuilder().add(schema.get("example")));
        }
        if (isTrue(schema.get("nullable")) && schema.get("type") instanceof JsonString type) {
            out.add("type", JsonSupport.JSON.createArrayBuilder().add(type.getString()).add("null"));
        }
        return out.build();
    }

    static boolean isTrue(JsonValue value) {
        return value != null && value.getValueType() == JsonValue.ValueType.TRUE;
    }

    /** An open schema (anything goes) with the reason in its description. */
    static JsonObject open(String why) {
        return JsonSupport.JSON.createObjectBuilder().add("description", "(" + why + ")").build();
    }
}
