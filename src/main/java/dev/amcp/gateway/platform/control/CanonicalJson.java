package dev.amcp.gateway.platform.control;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.TreeSet;

/**
 * JSON written canonically (keys sorted, numbers plain, no white space), so a hash over it does not change when
 * PostgreSQL's {@code jsonb} reorders keys or respells numbers ({@code 1.0}, {@code 1E+2}).
 */
public final class CanonicalJson {

    private CanonicalJson() {}

    public static String of(JsonValue value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    public static void write(JsonValue value, StringBuilder out) {
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
                    write(o.get(key), out);
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
                    write(a.get(i), out);
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
