package dev.amcp.gateway.mcp.entity;

import dev.amcp.gateway.platform.entity.ExpectedRefusal;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * A JSON-RPC error to answer instead of a result. Its message goes to the client verbatim, so it is written for a
 * client and never holds a stack trace or class name. {@code httpStatus} is the status of a single, non-batched
 * reply (200 for errors that are ordinary JSON-RPC responses, 400 for input the server cannot accept).
 */
public class McpError extends RuntimeException implements ExpectedRefusal {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
    public static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28: the request needs a client capability the client did not declare. */
    public static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** 2026-07-28: the requested protocol revision is not one this server speaks. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private final int code;
    private final transient JsonValue id;
    private final int httpStatus;
    private final transient JsonObject data;

    public McpError(int code, String message, JsonValue id, int httpStatus) {
        this(code, message, id, httpStatus, null);
    }

    public McpError(int code, String message, JsonValue id, int httpStatus, JsonObject data) {
        super(message, null, false, false);
        this.code = code;
        this.id = id == null ? JsonValue.NULL : id;
        this.httpStatus = httpStatus;
        this.data = data;
    }

    /** A 2026-07-28 header problem of the request {@code id} (400). */
    public static McpError headerMismatch(String message, JsonValue id) {
        return new McpError(HEADER_MISMATCH, message, id, 400);
    }

    public static McpError invalidRequest(String message, JsonValue id) {
        return new McpError(INVALID_REQUEST, message, id, 400);
    }

    public static McpError invalidParams(String message) {
        return new McpError(INVALID_PARAMS, message, null, 200);
    }

    public static McpError methodNotFound(String method) {
        return new McpError(METHOD_NOT_FOUND, "Method not found: " + method, null, 200);
    }

    /** The error's {@code data} member, or {@code null}. */
    public JsonObject data() {
        return data;
    }

    public int code() {
        return code;
    }

    public JsonValue id() {
        return id;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
