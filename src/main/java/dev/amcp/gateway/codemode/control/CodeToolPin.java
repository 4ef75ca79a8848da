package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.TreeSet;

/**
 * The pin an admin's save puts on a code tool: a SHA-256 over everything that decides what the tool may do (code,
 * {@code uses}, {@code allowWrites}, {@code runAs}, input schema). A tool whose stored definition no longer matches
 * its pin was changed by some other path and does not run. The JSON is written canonically (keys sorted, numbers
 * plain), because PostgreSQL's {@code jsonb} does not keep key order or number spelling.
 */
final class CodeToolPin {

    private CodeToolPin() {}

    static String of(CodeToolSpec spec, JsonObject inputSchema) {
        StringBuilder b = new StringBuilder("code-tool-pin/1\n");
        canonical(spec.toMapping(), b);
        b.append('\n');
        canonical(inputSchema == null ? JsonValue.NULL : inputSchema, b);
        return Hashes.sha256(b.toString());
    }

    /** The value as canonical JSON text: equal values, however spelled, give equal text. */
    static String canonical(JsonValue value) {
        StringBuilder b = new StringBuilder();
        canonical(value, b);
        return b.toString();
    }

    static void canonical(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObject o = value.asJsonObject();
                out.append('{');
                boolean first = true;
                for (String key : new TreeSet<>(o.keySet())) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(JsonSupport.JSON.createValue(key)).append(':');
                    canonical(o.get(key), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                JsonArray a = value.asJsonArray();
                out.append('[');
                for (int i = 0; i < a.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    canonical(a.get(i), out);
                }
                out.append(']');
            }
            case NUMBER -> {
                var n = ((JsonNumber) value).bigDecimalValue();
                out.append(n.signum() == 0 ? "0" : n.stripTrailingZeros().toPlainString());
            }
            case STRING -> out.append(JsonSupport.JSON.createValue(((JsonString) value).getString()));
            default -> out.append(value);
        }
    }
}
