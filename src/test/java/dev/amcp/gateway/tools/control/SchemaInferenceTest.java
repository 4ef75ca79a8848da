package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class SchemaInferenceTest {

    final SchemaValidator validator = new SchemaValidator();

    static JsonObject json(String text) {
        return JsonSupport.parseObject(text);
    }

    @Test
    void typesPropertiesAndRequiredOfAnObject() {
        JsonObject schema = SchemaInference.infer(json("{\"id\":7,\"name\":\"Ada\",\"vip\":true,\"score\":2.5,\"note\":null}"));
        assertEquals(json("""
                {"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"vip":{"type":"boolean"},
                 "score":{"type":"number"},"note":{}},"required":["id","name","vip","score"]}"""), schema);
    }

    @Test
    void arrayItemsAreMergedOverTheElements() {
        JsonObject schema = SchemaInference.infer(json("""
                {"orders":[{"id":1,"amount":10,"note":"x"},{"id":2,"amount":12.5}],"count":2}"""));
        JsonObject items = schema.getJsonObject("properties").getJsonObject("orders").getJsonObject("items");
        assertEquals("number", items.getJsonObject("properties").getJsonObject("amount").getString("type"), "integer and number merge to number");
        assertEquals(JsonSupport.parseArray("[\"id\",\"amount\"]"), items.getJsonArray("required"), "only keys every element carries are required");
        assertTrue(items.getJsonObject("properties").containsKey("note"), "a key of some elements is still described");
    }

    @Test
    void differentKindsBecomeAnyOfAndEmptyArraysStayOpen() {
        JsonObject schema = SchemaInference.infer(json("{\"mixed\":[1,\"a\",2],\"none\":[]}"));
        JsonObject mixed = schema.getJsonObject("properties").getJsonObject("mixed").getJsonObject("items");
        assertEquals(JsonSupport.parseArray("[{\"type\":\"integer\"},{\"type\":\"string\"}]"), mixed.getJsonArray("anyOf"));
        assertEquals(json("{\"type\":\"array\"}"), schema.getJsonObject("properties").getJsonObject("none"));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, SchemaInference.merge(json("{\"type\":\"string\"}"), JsonValue.EMPTY_JSON_OBJECT),
                "a value seen as null somewhere is not typed");
    }

    @Test
    void deepNestingIsLeftOpen() {
        String deep = "{\"a\":".repeat(SchemaInference.MAX_DEPTH + 5) + "1" + "}".repeat(SchemaInference.MAX_DEPTH + 5);
        JsonObject schema = SchemaInference.infer(json(deep));
        assertFalse(schema.toString().contains("integer"), "below the depth limit nothing is typed");
    }

    @Test
    void theProposalIsASchemaAToolMaySaveAndTheSampleFollowsIt() {
        JsonObject sample = json("""
                {"customers":[{"id":1,"name":"A","tags":["x"]},{"id":2,"name":"B","tags":[],"city":null}],"count":2,"next":null}""");
        JsonObject schema = SchemaInference.infer(sample);
        assertNull(validator.checkSchema(schema), schema.toString());
        assertEquals(0, validator.validate(schema, sample).size());
        assertFalse(validator.validate(schema, json("{\"customers\":[{\"id\":\"one\",\"name\":\"A\"}],\"count\":1}")).isEmpty(),
                "a result of another shape does not follow it");
    }
}
