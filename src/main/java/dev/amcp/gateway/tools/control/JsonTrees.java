package dev.amcp.gateway.tools.control;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hands a JSON-P value to the schema validator as a Jackson tree without printing and re-parsing it. Numbers keep
 * the kinds Jackson's own parser gives them: a number without fraction or exponent is integral, any other a double.
 */
final class JsonTrees {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private JsonTrees() {
    }

    static JsonNode toJackson(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> {
                ObjectNode object = NODES.objectNode();
                value.asJsonObject().forEach((name, member) -> object.set(name, toJackson(member)));
                yield object;
            }
            case ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                value.asJsonArray().forEach(item -> array.add(toJackson(item)));
                yield array;
            }
            case STRING -> NODES.stringNode(((JsonString) value).getString());
            case NUMBER -> number((JsonNumber) value);
            case TRUE -> NODES.booleanNode(true);
            case FALSE -> NODES.booleanNode(false);
            case NULL -> NODES.nullNode();
        };
    }

    private static JsonNode number(JsonNumber number) {
        String text = number.toString();
        boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        if (!integral) {
            return NODES.numberNode(number.doubleValue());
        }
        BigInteger big = number.bigIntegerValue();
        if (big.compareTo(LONG_MIN) >= 0 && big.compareTo(LONG_MAX) <= 0) {
            long whole = big.longValue();
            return whole == (int) whole ? NODES.numberNode((int) whole) : NODES.numberNode(whole);
        }
        return NODES.numberNode(big);
    }
}
