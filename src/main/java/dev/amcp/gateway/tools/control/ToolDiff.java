package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a re-import (or any new version of a tool) would change, in words an admin reads in a preview: texts, the
 * mapping's parts, and schema changes property by property ({@code inputSchema: property 'tags' added}).
 */
public final class ToolDiff {

    /** Mapping keys that record provenance or an admin's choice, not what the document says. */
    private static final Set<String> NOT_COMPARED = Set.of("openapi", "readOnly");

    private ToolDiff() {}

    public static List<String> changes(String oldTitle, String oldDescription, JsonObject oldInput, JsonObject oldOutput, JsonObject oldMapping,
                                String title, String description, JsonObject input, JsonObject output, JsonObject mapping) {
        List<String> changes = new ArrayList<>();
        if (!Objects.equals(oldTitle, title)) {
            changes.add("title changed");
        }
        if (!Objects.equals(oldDescription, description)) {
            changes.add("description changed");
        }
        Set<String> keys = new java.util.TreeSet<>();
        keys.addAll(oldMapping == null ? Set.of() : oldMapping.keySet());
        keys.addAll(mapping.keySet());
        for (String key : keys) {
            JsonValue before = oldMapping == null ? null : oldMapping.get(key);
            JsonValue after = mapping.get(key);
            if (NOT_COMPARED.contains(key) || Objects.equals(before, after)) {
                continue;
            }
            if (before instanceof JsonString b && after instanceof JsonString a) {
                changes.add("mapping: " + key + " " + b.getString() + " → " + a.getString());
            } else {
                changes.add("mapping: " + key + " changed");
            }
        }
        schema("inputSchema", oldInput, input, changes);
        schema("outputSchema", oldOutput, output, changes);
        return changes;
    }

    /** Schema changes alone, in the same words (a code tool's review: what changed in a tool it uses). */
    public static List<String> schemaChanges(JsonObject oldInput, JsonObject oldOutput, JsonObject input, JsonObject output) {
        List<String> changes = new ArrayList<>();
        schema("inputSchema", oldInput, input, changes);
        schema("outputSchema", oldOutput, output, changes);
        return changes;
    }

    private static void schema(String which, JsonObject before, JsonObject after, List<String> changes) {
        if (Objects.equals(before, after)) {
            return;
        }
        if (before == null || after == null) {
            changes.add(which + (before == null ? " added" : " removed"));
            return;
        }
        JsonObject oldProps = properties(before);
        JsonObject newProps = properties(after);
        for (String name : newProps.keySet()) {
            if (!oldProps.containsKey(name)) {
                changes.add(which + ": property '" + name + "' added");
            } else if (!oldProps.get(name).equals(newProps.get(name))) {
                changes.add(which + ": property '" + name + "' changed");
            }
        }
        for (String name : oldProps.keySet()) {
            if (!newProps.containsKey(name)) {
                changes.add(which + ": property '" + name + "' removed");
            }
        }
        Set<String> oldRequired = required(before);
        Set<String> newRequired = required(after);
        newRequired.stream().filter(r -> !oldRequired.contains(r)).sorted().forEach(r -> changes.add(which + ": '" + r + "' now required"));
        oldRequired.stream().filter(r -> !newRequired.contains(r)).sorted().forEach(r -> changes.add(which + ": '" + r + "' no longer required"));
        JsonObject oldRest = JsonSupport.JSON.createObjectBuilder(before).remove("properties").remove("required").build();
        JsonObject newRest = JsonSupport.JSON.createObjectBuilder(after).remove("properties").remove("required").build();
        if (!oldRest.equals(newRest)) {
            changes.add(which + " changed");
        }
    }

    private static JsonObject properties(JsonObject schema) {
        return schema.get("properties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static Set<String> required(JsonObject schema) {
        Set<String> names = new HashSet<>();
        if (schema.get("required") instanceof JsonArray array) {
            array.forEach(v -> {
                if (v instanceof JsonString s) {
                    names.add(s.getString());
                }
            });
        }
        return names;
    }
}
