package dev.amcp.gateway.mcp.boundary;

import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.BearerAuthenticator;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The answers {@link McpServlet} sends: each decided before anything is written ({@link Reply}), so a failure while
 * deciding still becomes a clean JSON-RPC error, then written whole or streamed (SSE events, heartbeats).
 */
final class McpReplies {

    static final String JSON = "application/json";
    static final String SSE = "text/event-stream";
    /** The servlet's log: operators find an answer's failure under the endpoint that gave it. */
    private static final Logger LOG = Logger.getLogger(McpServlet.class.getName());

    private McpReplies() {}

    static byte[] sseEvent(JsonObject message) {
        return ("event: message\ndata: " + message + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    static final byte[] SSE_HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] JSON_HEARTBEAT = "\n".getBytes(StandardCharsets.US_ASCII);

    /** An answer, decided before anything is written, so a failure while deciding can still become a clean error. */
    @FunctionalInterface
    interface Reply {
        void send(HttpServletResponse response) throws IOException;

        default Reply withHeader(String name, String value) {
            return response -> {
                response.setHeader(name, value);
                send(response);
            };
        }
    }

    /** Writes the answer's body as it is produced (progress, heartbeats). */
    @FunctionalInterface
    interface Body {
        void write(OutputStream out) throws IOException;
    }

    interface Handler {
        Reply handle() throws IOException;
    }

    /** Whatever goes wrong, the client gets a JSON-RPC error with a log reference, never a stack trace. */
    static Reply guarded(Handler handler) {
        try {
            return handler.handle();
        } catch (IOException e) {
            return error(400, McpError.INVALID_REQUEST, "The request body could not be read");
        } catch (RuntimeException | StackOverflowError e) {
            return internalError(e);
        }
    }

    static Reply internalError(Throwable e) {
        if (DatabaseOutage.noted(e)) {
            LOG.log(Level.FINE, "MCP request failed on the unreachable database", e);
            return error(503, McpError.INTERNAL_ERROR, DatabaseOutage.MESSAGE)
                    .withHeader("Retry-After", String.valueOf(DatabaseOutage.RETRY_AFTER_SECONDS));
        }
        String reference = UUID.randomUUID().toString().substring(0, 8);
        LOG.log(Level.SEVERE, "MCP request failed, reference " + reference, e);
        return error(500, McpError.INTERNAL_ERROR, "Internal error (reference " + reference + ")");
    }

    /** Sends an answer; a client that hung up is not an error, and a failure before anything went out is still a 500. */
    static void send(Reply reply, HttpServletResponse response) throws IOException {
        try {
            reply.send(response);
        } catch (IOException e) {
            LOG.log(Level.FINE, "MCP client went away while being answered", e);
        } catch (RuntimeException e) {
            Reply failed = internalError(e);
            if (!response.isCommitted()) {
                response.reset();
                failed.send(response);
            }
        }
    }

    static final Reply ACCEPTED = response -> response.setStatus(HttpServletResponse.SC_ACCEPTED);

    static final Reply METHOD_NOT_ALLOWED = bytes(405, JSON, JsonRpcMessage.error(JsonValue.NULL, McpError.INVALID_REQUEST,
            "Method not allowed: this MCP endpoint takes POST, and GET for a session's event stream (sessions end on their own: "
                    + "no DELETE)").toString()).withHeader("Allow", "GET, POST");

    /** The answer to a refused bearer check: its status, its challenge if any, and the message as JSON. */
    static Reply refused(BearerAuthenticator.Refused refused) {
        String body = JsonSupport.JSON.createObjectBuilder().add("error", switch (refused.status()) {
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            default -> "unavailable";
        }).add("message", refused.message()).build().toString();
        Reply reply = bytes(refused.status(), JSON, body);
        return refused.challenge() == null ? reply : reply.withHeader("WWW-Authenticate", refused.challenge());
    }

    static Reply tooLarge(long maxBody) {
        return error(413, McpError.INVALID_REQUEST, "The request body is larger than the " + maxBody + "-byte limit");
    }

    static Reply error(int status, int code, String message) {
        return json(status, JsonRpcMessage.error(JsonValue.NULL, code, message));
    }

    static Reply json(int status, JsonObject body) {
        return bytes(status, JSON, body.toString());
    }

    static Reply bytes(int status, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return response -> {
            response.setStatus(status);
            response.setContentType(contentType);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        };
    }

    static Reply streamed(String contentType, Body body) {
        return response -> {
            response.setStatus(200);
            response.setContentType(contentType);
            if (SSE.equals(contentType)) {
                response.setHeader("Cache-Control", "no-cache");
                // Commits the head now: Liberty holds back the first flush of an uncommitted response, so a listen
                // stream's acknowledgement (or a call's first progress) waited for the next heartbeat, a second later.
                response.flushBuffer();
            }
            body.write(response.getOutputStream());
        };
    }
}
