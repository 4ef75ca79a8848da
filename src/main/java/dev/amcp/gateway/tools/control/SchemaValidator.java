package dev.amcp.gateway.tools.control;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.amcp.gateway.platform.control.IdentityMemo;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Validates tool arguments against JSON Schema (2020-12 by default, or the schema's own {@code $schema}) with the
 * networknt validator. Compiled schemas are cached by their text, and in front of that by the schema object itself,
 * so a cached tool's schema is not serialised again on every call.
 */
@ApplicationScoped
public class SchemaValidator {

    private static final int CACHE_SIZE = 512;
    private static final int MAX_PROBLEMS = 10;

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final JsonMapper mapper = JsonMapper.builder().build();
    private final Map<String, Schema> cache = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Schema> eldest) {
            return size() > CACHE_SIZE;
        }
    });
    private final IdentityMemo<JsonObject, Schema> compiled = new IdentityMemo<>(CACHE_SIZE, schema ->
            cache.computeIfAbsent(schema.toString(), text -> registry.getSchema(text, InputFormat.JSON)));

    /** Problems with the arguments, each naming the location; empty when valid or when there is no schema. */
    public List<String> validate(JsonObject schema, JsonObject args) {
        if (schema == null) {
            return List.of();
        }
        return compiled.apply(schema).validate(JsonTrees.toJackson(args)).stream()
                .limit(MAX_PROBLEMS).map(SchemaValidator::describe).toList();
    }

    /** "/items/0/id: integer found, string expected"; a problem of the whole object has no location before it. */
    static String describe(com.networknt.schema.Error error) {
        String where = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
        return where.isEmpty() || "$".equals(where) ? error.getMessage() : where + ": " + error.getMessage();
    }

    private Schema metaSchema() {
        return cache.computeIfAbsent("meta:2020-12", k -> registry.getSchema(
                com.networknt.schema.SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId())));
    }

    /** Checks that a schema an admin saves compiles and describes an object; returns the problem or null. */
    public Message checkSchema(JsonObject schema) {
        if (schema == null) {
            return null;
        }
        if (!"object".equals(schema.containsKey("type") && schema.get("type").getValueType() == jakarta.json.JsonValue.ValueType.STRING
                ? schema.getString("type") : null)) {
            return Message.of("problem.schema.notObject", "A tool schema (input or output) must have \"type\": \"object\"");
        }
        try {
            List<com.networknt.schema.Error> problems = metaSchema().validate(mapper.readTree(schema.toString()));
            if (!problems.isEmpty()) {
                return Message.of("problem.schema.invalid", "The schema is not valid JSON Schema: {0}", problems.get(0));
            }
            registry.getSchema(schema.toString(), InputFormat.JSON).validate(mapper.readTree("{}"));
            return null;
        } catch (RuntimeException e) {
            return Message.of("problem.schema.notCompiling", "The schema does not compile: {0}", e.getMessage());
        }
    }
}
