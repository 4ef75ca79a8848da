package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

class SchemaHashTest {

    static JsonObject json(String text) {
        return JsonSupport.parseObject(text);
    }

    @Test
    void canonicalJsonSortsKeysAndWritesNumbersPlainly() {
        assertEquals("{\"a\":[1,2.5,100,0],\"b\":{\"c\":\"é\",\"d\":null}}",
                CanonicalJson.of(json("{ \"b\": {\"d\": null, \"c\": \"\\u00e9\"}, \"a\": [1.0, 2.50, 1E+2, -0.0] }")));
    }

    @Test
    void whatJsonbChangesDoesNotChangeTheHash() {
        JsonObject in = json("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"id\"]}");
        JsonObject reordered = json("{\"required\":[\"id\"],\"properties\":{\"id\":{\"minimum\":1.0,\"type\":\"integer\"}},\"type\":\"object\"}");
        JsonObject out = json("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}");
        assertEquals(SchemaHash.of(in, out), SchemaHash.of(reordered, out));
        assertEquals(64, SchemaHash.of(in, out).length());
    }

    @Test
    void anyChangeOfEitherSchemaChangesTheHash() {
        JsonObject in = json("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}");
        JsonObject out = json("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}");
        String hash = SchemaHash.of(in, out);
        assertNotEquals(hash, SchemaHash.of(out, in), "input and output are not interchangeable");
        assertNotEquals(hash, SchemaHash.of(in, null), "no output schema differs from one");
        assertNotEquals(SchemaHash.of(in, null), SchemaHash.of(in, JsonValue.EMPTY_JSON_OBJECT), "missing differs from empty");
        assertNotEquals(hash, SchemaHash.of(in, json("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}")),
                "a nested type change");
        assertNotEquals(hash, SchemaHash.of(json("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}},\"required\":[\"id\"]}"), out));
        assertNotEquals(SchemaHash.of(json("{\"enum\":[\"a\",\"b\"],\"type\":\"object\"}"), null),
                SchemaHash.of(json("{\"enum\":[\"b\",\"a\"],\"type\":\"object\"}"), null), "array order counts");
    }
}
