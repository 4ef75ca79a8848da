package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The 2026-07-28 rule that HTTP headers repeat what the body says (SEP-2243), so that proxies and gateways can route
 * and filter without reading bodies, and cannot be told one thing while the server does another. {@code Mcp-Method}
 * must equal the body's method; {@code Mcp-Name} the {@code params.name} of {@code tools/call} and
 * {@code prompts/get} or the {@code params.uri} of {@code resources/read}; and every argument whose input-schema
 * property carries {@code x-mcp-header: X} must come with an equal {@code Mcp-Param-X} header (a value of the form
 * {@code =?base64?…?=} is Base64, anything else literal). Values are compared exactly, after trimming the optional
 * whitespace HTTP allows around them. Any difference is -32020 with HTTP 400.
 */
public final class WireHeaders {

    public static final String METHOD_HEADER = "Mcp-Method";
    public static final String NAME_HEADER = "Mcp-Name";
    public static final String PARAM_HEADER_PREFIX = "Mcp-Param-";
    static final String SCHEMA_HEADER_KEY = "x-mcp-header";
    private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private WireHeaders() {}

    /** Checks the standard headers of any 2026-07-28 message (requests and notifications). */
    public static void checkStandard(JsonRpcMessage message, UnaryOperator<String> header) {
        String method = trimmed(header.apply(METHOD_HEADER));
        if (method == null) {
            throw McpError.headerMismatch("The " + METHOD_HEADER + " header is required in protocol revision 2026-07-28", message.id());
        }
        if (!method.equals(message.method())) {
            throw McpError.headerMismatch(METHOD_HEADER + " '" + McpProtocol.clip(method) + "' does not match the body's method '"
                    + McpProtocol.clip(message.method()) + "'", message.id());
        }
        String bodyName = switch (message.method()) {
            case "tools/call", "prompts/get" -> string(message.params().get("name"));
            case "resources/read" -> string(message.params().get("uri"));
            default -> null;
        };
        String name = trimmed(header.apply(NAME_HEADER));
        if (bodyName != null && name == null) {
            throw McpError.headerMismatch("The " + NAME_HEADER + " header is required for " + message.method(), message.id());
        }
        if (name != null && !name.equals(bodyName)) {
            throw McpError.headerMismatch(NAME_HEADER + " '" + McpProtocol.clip(name) + "' does not match the body", message.id());
        }
    }

    /** Checks the {@code Mcp-Param-*} headers of a {@code tools/call} against the tool's {@code x-mcp-header} properties. */
    public static void checkToolParams(JsonObject inputSchema, JsonRpcMessage call, UnaryOperator<String> header) {
        JsonObject properties = inputSchema != null && inputSchema.get("properties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject args = call.params().get("arguments") instanceof JsonObject a ? a : JsonValue.EMPTY_JSON_OBJECT;
        for (Map.Entry<String, JsonValue> property : properties.entrySet()) {
            if (!(property.getValue() instanceof JsonObject schema) || !(schema.get(SCHEMA_HEADER_KEY) instanceof JsonString suffix)) {
                continue;
            }
            String headerName = PARAM_HEADER_PREFIX + suffix.getString();
            String raw = trimmed(header.apply(headerName));
            JsonValue argument = args.get(property.getKey());
            String bodyValue = argument == null || argument == JsonValue.NULL ? null
                    : argument instanceof JsonString s ? s.getString() : argument.toString();
            if (raw == null && bodyValue == null) {
                continue;
            }
            if (raw == null) {
                throw McpError.headerMismatch("The " + headerName + " header is required: argument '"
                        + McpProtocol.clip(property.getKey()) + "' is in the body", call.id());
            }
            String headerValue = decoded(raw, headerName, call.id());
            if (!headerValue.equals(bodyValue)) {
                throw McpError.headerMismatch(headerName + " does not match argument '" + McpProtocol.clip(property.getKey()) + "'", call.id());
            }
        }
    }

    /** {@code =?base64?…?=} is strict, padded Base64 of UTF-8; any other value is taken literally. */
    static String decoded(String value, String headerName, JsonValue id) {
        if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.length() >= 11)) {
            return value;
        }
        String encoded = value.substring("=?base64?".length(), value.length() - 2);
        if (encoded.length() % 4 != 0 || !BASE64.matcher(encoded).matches()) {
            throw McpError.headerMismatch(headerName + " is not valid Base64", id);
        }
        return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }

    private static String trimmed(String value) {
        return value == null ? null : value.strip();
    }

    private static String string(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : null;
    }
}
