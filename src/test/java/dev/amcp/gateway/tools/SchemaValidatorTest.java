package dev.amcp.gateway.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.SchemaValidator;
import org.junit.jupiter.api.Test;

class SchemaValidatorTest {

    final SchemaValidator validator = new SchemaValidator();
    final String schema = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\",\"minimum\":1},"
            + "\"status\":{\"enum\":[\"open\",\"paid\"]}},\"required\":[\"id\"],\"additionalProperties\":false}";

    @Test
    void acceptsValidArguments() {
        assertEquals(0, validator.validate(JsonSupport.parseObject(schema), JsonSupport.parseObject("{\"id\":3,\"status\":\"open\"}")).size());
    }

    @Test
    void namesEveryProblem() {
        var problems = validator.validate(JsonSupport.parseObject(schema), JsonSupport.parseObject("{\"id\":0,\"status\":\"lost\",\"x\":1}"));
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("id")), problems.toString());
    }

    @Test
    void reportsMissingRequired() {
        var problems = validator.validate(JsonSupport.parseObject(schema), JsonSupport.parseObject("{}"));
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("id"), problems.get(0));
        assertFalse(problems.get(0).startsWith(":") || problems.get(0).startsWith(" "), "a root problem reads as a sentence: " + problems.get(0));
    }

    @Test
    void checksSchemasAtSaveTime() {
        assertNull(validator.checkSchema(JsonSupport.parseObject(schema)));
        assertNotNull(validator.checkSchema(JsonSupport.parseObject("{\"type\":\"array\"}")));
        assertNotNull(validator.checkSchema(JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"nonsense\"}}}")));
    }
}
