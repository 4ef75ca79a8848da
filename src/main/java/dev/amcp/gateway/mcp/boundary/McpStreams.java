package dev.amcp.gateway.mcp.boundary;

import static dev.amcp.gateway.mcp.boundary.McpReplies.JSON;
import static dev.amcp.gateway.mcp.boundary.McpReplies.JSON_HEARTBEAT;
import static dev.amcp.gateway.mcp.boundary.McpReplies.SSE;
import static dev.amcp.gateway.mcp.boundary.McpReplies.SSE_HEARTBEAT;
import static dev.amcp.gateway.mcp.boundary.McpReplies.error;
import static dev.amcp.gateway.mcp.boundary.McpReplies.json;
import static dev.amcp.gateway.mcp.boundary.McpReplies.sseEvent;
import static dev.amcp.gateway.mcp.boundary.McpReplies.streamed;

import dev.amcp.gateway.mcp.boundary.McpReplies.Reply;
import dev.amcp.gateway.mcp.control.ClientWatches;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.control.ToolListSubscriptions;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.tools.control.CallContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The MCP answers that stay open while something runs or changes: a call answered as SSE with its progress, a tool
 * call answered as JSON with heartbeats that notice a client gone ({@link ClientWatches}), and the tool list streams
 * (a session's GET stream, a 2026-07-28 {@code subscriptions/listen}), held without a request thread
 * ({@link ToolListSubscriptions}). {@link McpServlet} checks the request and decides which one it gets.
 */
@Dependent
class McpStreams {

    /** The servlet's log: operators find a stream's failure under the endpoint that served it. */
    private static final Logger LOG = Logger.getLogger(McpServlet.class.getName());

    @Inject
    ClientWatches watches;

    @Inject
    ToolListSubscriptions subscriptions;

    /** Answers as an SSE stream: the tool's progress notifications, then the response, then the stream ends. */
    Reply progress(String requestKey, JsonValue progressToken, Function<CallContext.ProgressSink, JsonObject> answer) {
        return streamed(SSE, out -> {
            try (ClientWatches.Watch watch = watches.watch(out, SSE_HEARTBEAT, requestKey)) {
                CallContext.ProgressSink sink = (progress, total, text) ->
                        watch.write(sseEvent(McpWire.progress(progressToken, progress, total, text)));
                watch.finish(sseEvent(answer.apply(sink)));
            }
        });
    }

    /**
     * Answers a tool call as JSON, but streamed: while the call runs, a newline goes out every heartbeat (JSON allows
     * whitespace before a value), so a client that went away is noticed at the next write and its call is cancelled
     * (a code run stops instead of running to its timeout for nobody).
     */
    Reply watched(String requestKey, Supplier<JsonObject> answer) {
        return streamed(JSON, out -> {
            try (ClientWatches.Watch watch = watches.watch(out, JSON_HEARTBEAT, requestKey)) {
                watch.finish(answer.get().toString().getBytes(StandardCharsets.UTF_8));
            }
        });
    }

    /** A session's standalone GET stream, once its request passed the checks; 405 when this node serves none now. */
    Reply session(HttpServletRequest request, Supplier<Optional<Exchange>> current) {
        return switch (subscriptions.tryOpen()) {
            case FULL -> noStream("This node serves as many event streams as it may (" + ToolListSubscriptions.MAX_STREAMS_SETTING
                    + "); requests by POST work, without tool list notifications");
            case DRAINING -> noStream("This node is draining; open the event stream on another node");
            case OPEN -> held(request, ToolListSubscriptions.SESSION, current);
        };
    }

    /** {@code subscriptions/listen}: an SSE stream that stays open; see {@link ToolListSubscriptions}. */
    Reply listen(HttpServletRequest request, JsonRpcMessage message, Supplier<Optional<Exchange>> current) {
        if (!(message.params().get("notifications") instanceof JsonObject filter)) {
            return json(400, JsonRpcMessage.error(new McpError(McpError.INVALID_PARAMS,
                    "subscriptions/listen needs params.notifications (an object)", message.id(), 400), message.id()));
        }
        return switch (subscriptions.tryOpen()) {
            case FULL -> json(503, JsonRpcMessage.error(message.id(), McpError.INTERNAL_ERROR,
                    "This node serves as many listen streams as it may (" + ToolListSubscriptions.MAX_STREAMS_SETTING + "); try again later"));
            case DRAINING -> json(503, JsonRpcMessage.error(message.id(), McpError.INTERNAL_ERROR,
                    "This node is draining; listen again (the balancer sends it nothing new)"));
            case OPEN -> held(request, ToolListSubscriptions.listen(message.id(), filter), current);
        };
    }

    /** 405 for a GET this node serves no stream for now; {@code Allow} names what it does serve now. */
    static Reply noStream(String message) {
        return error(405, McpError.INVALID_REQUEST, message).withHeader("Allow", "POST");
    }

    /**
     * A tool list stream (a listen stream or a session's GET stream), served asynchronously: its head goes out now and
     * the request leaves the servlet at once, while {@link ToolListSubscriptions} writes to it from its own thread. A
     * stream held in {@code service} would hold a request thread, and an application stop or undeploy waits for the
     * requests in its servlets and filters before it ends anything: a client that keeps its stream open (the Java SDK
     * client does, and so does the gateway's own client of an upstream that is this gateway) held the stop for minutes.
     */
    private Reply held(HttpServletRequest request, ToolListSubscriptions.Frames frames, Supplier<Optional<Exchange>> current) {
        return response -> {
            response.setStatus(200);
            response.setContentType(SSE);
            response.setHeader("Cache-Control", "no-cache");
            response.flushBuffer();
            AsyncContext async = request.startAsync();
            async.setTimeout(0); // the stream's own lifetime ends it (AMCP_MCP_LISTEN_MAX_SECONDS)
            subscriptions.serveAsync(response.getOutputStream(), frames, current, () -> {
                try {
                    async.complete();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "Completing a tool list stream failed (the client or the application went away)", e);
                }
            });
        };
    }
}
