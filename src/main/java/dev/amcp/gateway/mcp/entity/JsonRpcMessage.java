package dev.amcp.gateway.mcp.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * One JSON-RPC 2.0 message posted by a client, classified: a request (method and id), a notification (method, no
 * id) or a response to a server request (result or error with an id).
 */
public record JsonRpcMessage(Kind kind, JsonValue id, String method, JsonObject params) {

    public enum Kind { REQUEST, NOTIFICATION, RESPONSE }

    /** Reads and checks one message; throws {@link McpError} (-32600 or -32602) for anything else. */
    public static JsonRpcMessage of(JsonValue value) {
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw McpError.invalidRequest("A JSON-RPC message must be a JSON object", null);
        }
        JsonObject message = value.asJsonObject();
        JsonValue id = message.get("id");
        boolean validId = id != null && (id.getValueType() == JsonValue.ValueType.STRING
                || id.getValueType() == JsonValue.ValueType.NUMBER);
        JsonValue replyId = validId ? id : JsonValue.NULL;
        JsonValue version = message.get("jsonrpc");
        if (!(version instanceof JsonString s) || !"2.0".equals(s.getString())) {
            throw McpError.invalidRequest("\"jsonrpc\" must be \"2.0\"", replyId);
        }
        JsonValue method = message.get("method");
        if (method == null) {
            if (validId && (message.containsKey("result") || message.containsKey("error"))) {
                return new JsonRpcMessage(Kind.RESPONSE, id, null, JsonValue.EMPTY_JSON_OBJECT);
            }
            throw McpError.invalidRequest("A JSON-RPC request needs a \"method\"", replyId);
        }
        if (method.getValueType() != JsonValue.ValueType.STRING) {
            throw McpError.invalidRequest("\"method\" must be a string", replyId);
        }
        if (id != null && !validId) {
            throw McpError.invalidRequest("\"id\" must be a string or a number", JsonValue.NULL);
        }
        JsonValue params = message.get("params");
        JsonObject paramsObject;
        if (params == null || params == JsonValue.NULL) {
            paramsObject = JsonValue.EMPTY_JSON_OBJECT;
        } else if (params.getValueType() == JsonValue.ValueType.OBJECT) {
            paramsObject = params.asJsonObject();
        } else {
            throw new McpError(McpError.INVALID_PARAMS, "\"params\" must be an object", replyId, 200);
        }
        return new JsonRpcMessage(id == null ? Kind.NOTIFICATION : Kind.REQUEST, id, ((JsonString) method).getString(), paramsObject);
    }

    public static JsonObject result(JsonValue id, JsonObject result) {
        return JsonSupport.JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("result", result).build();
    }

    public static JsonObject error(JsonValue id, int code, String message) {
        return JsonSupport.JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id == null ? JsonValue.NULL : id)
                .add("error", JsonSupport.JSON.createObjectBuilder().add("code", code).add("message", message)).build();
    }

    public static JsonObject error(McpError e, JsonValue fallbackId) {
        JsonObject reply = error(e.id() == JsonValue.NULL ? fallbackId : e.id(), e.code(), e.getMessage());
        if (e.data() == null) {
            return reply;
        }
        return JsonSupport.JSON.createObjectBuilder(reply).add("error",
                JsonSupport.JSON.createObjectBuilder(reply.getJsonObject("error")).add("data", e.data())).build();
    }

    public static JsonObject notification(String method, JsonObject params) {
        return JsonSupport.JSON.createObjectBuilder().add("jsonrpc", "2.0").add("method", method).add("params", params).build();
    }
}
