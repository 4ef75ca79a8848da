package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.amcp.gateway.platform.control.JsonSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The schema validator sees exactly the tree Jackson's parser would have built from the same text. */
class JsonTreesTest {

    private final JsonMapper mapper = JsonMapper.builder().build();

    @Test
    void buildsTheTreeJacksonWouldParse() {
        String[] documents = {
            "{}",
            "{\"id\":7,\"neg\":-3,\"zero\":0,\"negZero\":-0}",
            "{\"long\":9007199254740993,\"min\":-9223372036854775808,\"big\":123456789012345678901234567890}",
            "{\"d\":7.0,\"e\":1e2,\"E\":-2.5E-3,\"tiny\":0.00000001,\"pi\":3.141592653589793}",
            "{\"s\":\"text with \\\"quotes\\\" and ü and \\u0000\",\"t\":true,\"f\":false,\"n\":null}",
            "{\"nested\":{\"list\":[1,\"two\",[3.5,{\"four\":4}],null,false]},\"empty\":[]}",
        };
        for (String document : documents) {
            assertEquals(mapper.readTree(document), JsonTrees.toJackson(JsonSupport.parse(document)), document);
        }
    }

    @Test
    void keepsNumberKindsForTypeChecks() {
        var tree = JsonTrees.toJackson(JsonSupport.parse("{\"i\":7,\"d\":7.5,\"x\":2147483648}"));
        assertEquals(true, tree.get("i").isInt());
        assertEquals(true, tree.get("d").isDouble());
        assertEquals(true, tree.get("x").isLong());
    }
}
