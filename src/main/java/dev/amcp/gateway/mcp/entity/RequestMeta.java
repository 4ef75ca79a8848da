package dev.amcp.gateway.mcp.entity;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Set;

/**
 * What a 2026-07-28 request says about itself in {@code params._meta}: the protocol revision and the client's
 * capabilities for this one request (servers must not infer them from earlier requests). {@code clientInfo} is optional.
 */
public record RequestMeta(String protocolVersion, JsonObject clientCapabilities) {

    /** Reads the request's {@code _meta}; a missing or malformed part is -32602 with HTTP 400, naming the field. */
    public static RequestMeta of(JsonRpcMessage request) {
        if (!(request.params().get("_meta") instanceof JsonObject meta)) {
            throw invalid("params._meta is required in protocol revision 2026-07-28", request.id());
        }
        if (!(meta.get(McpWire.META_PROTOCOL_VERSION) instanceof JsonString version)) {
            throw invalid("params._meta needs \"" + McpWire.META_PROTOCOL_VERSION + "\" (a string)", request.id());
        }
        if (!(meta.get(McpWire.META_CLIENT_CAPABILITIES) instanceof JsonObject capabilities)) {
            throw invalid("params._meta needs \"" + McpWire.META_CLIENT_CAPABILITIES + "\" (an object)", request.id());
        }
        JsonValue info = meta.get(McpWire.META_CLIENT_INFO);
        if (info != null && info.getValueType() != JsonValue.ValueType.OBJECT) {
            throw invalid("params._meta \"" + McpWire.META_CLIENT_INFO + "\" must be an object", request.id());
        }
        return new RequestMeta(version.getString(), capabilities);
    }

    /** The names of the capabilities the client declared ({@code sampling}, {@code elicitation}, {@code roots}, …). */
    public Set<String> capabilityNames() {
        return Set.copyOf(clientCapabilities.keySet());
    }

    private static McpError invalid(String message, JsonValue id) {
        return new McpError(McpError.INVALID_PARAMS, message, id, 400);
    }
}
