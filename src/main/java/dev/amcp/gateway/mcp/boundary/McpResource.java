package dev.amcp.gateway.mcp.boundary;

import dev.amcp.gateway.platform.boundary.OwnBodyLimit;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.control.ClientWatches;
import dev.amcp.gateway.mcp.control.McpProtocol;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.control.McpSessions;
import dev.amcp.gateway.mcp.control.OriginPolicy;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.workspace.boundary.BearerAuthFilter;
import dev.amcp.gateway.workspace.control.BearerAuthenticator;
import dev.amcp.gateway.workspace.control.ServerDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * MCP Streamable HTTP on {@code POST /mcp/{server}} (one server) and {@code POST /mcp} (shared: the workspace's
 * HTTP tools only). Checks run in this order: Origin (403), declared body size (413), API key (401), endpoint (an
 * unknown server and one the role may not use both get 404), {@code MCP-Protocol-Version} (400), session (404),
 * Content-Type (415), Accept (406), body size (413), JSON (-32700 with 400). GET and DELETE get 405: the gateway
 * opens no standalone SSE stream and its sessions are stateless tokens that cannot be terminated.
 */
@Path("/mcp")
@ApplicationScoped
@OwnBodyLimit // AMCP_MCP_MAX_BODY_BYTES, answered as a JSON-RPC error
public class McpResource {

    public static final String MAX_BODY_SETTING = "AMCP_MCP_MAX_BODY_BYTES";
    public static final long DEFAULT_MAX_BODY = 4L * 1024 * 1024;
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    public static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final String SSE = "text/event-stream";
    private static final Logger LOG = Logger.getLogger(McpResource.class.getName());

    @Inject
    BearerAuthenticator bearer;

    @Inject
    ServerDirectory servers;

    @Inject
    McpProtocol protocol;

    @Inject
    McpSessions sessions;

    @Inject
    OriginPolicy origins;

    @Inject
    ClientWatches watches;

    @Inject
    Settings settings;

    // One instance serves every request (a request-scoped resource cost a bean creation and 8 injections each time),
    // so the headers come in as a parameter.
    @POST
    public Response postShared(@Context HttpHeaders headers, InputStream body) {
        return guarded(() -> post(null, headers, body));
    }

    @POST
    @Path("{server}")
    public Response postServer(@PathParam("server") String server, @Context HttpHeaders headers, InputStream body) {
        return guarded(() -> post(server, headers, body));
    }

    @GET
    public Response getShared() {
        return methodNotAllowed();
    }

    @GET
    @Path("{server}")
    public Response getServer(@PathParam("server") String server) {
        return methodNotAllowed();
    }

    @DELETE
    public Response deleteShared() {
        return methodNotAllowed();
    }

    @DELETE
    @Path("{server}")
    public Response deleteServer(@PathParam("server") String server) {
        return methodNotAllowed();
    }

    private Response post(String slug, HttpHeaders headers, InputStream in) throws IOException {
        if (!origins.allows(headers.getHeaderString("Origin"))) {
            return error(403, McpError.INVALID_REQUEST, "Origin not allowed");
        }
        long maxBody = settings.getLong(MAX_BODY_SETTING, DEFAULT_MAX_BODY);
        if (headers.getLength() > maxBody) {
            return tooLarge(maxBody);
        }
        String endpoint = slug == null ? "/mcp" : "/mcp/" + slug;
        BearerAuthenticator.Outcome outcome = bearer.authenticate(headers.getHeaderString(HttpHeaders.AUTHORIZATION), endpoint);
        if (!(outcome instanceof BearerAuthenticator.Accepted accepted)) {
            return BearerAuthFilter.refused((BearerAuthenticator.Refused) outcome);
        }
        Caller caller = accepted.caller();
        String title;
        if (slug == null) {
            caller = caller.withScope(CallScope.sharedEndpoint());
            title = "shared";
        } else {
            long workspaceId = caller.workspaceId();
            Caller c = caller;
            Optional<ServerDirectory.ServerRef> server = servers.bySlug(workspaceId, slug)
                    .filter(s -> s.workspaceId() == workspaceId && c.role().mayUseServer(s.id()));
            if (server.isEmpty()) {
                return error(404, McpError.INVALID_REQUEST, "No MCP server '" + clip(slug) + "' is available to this key");
            }
            caller = caller.withScope(CallScope.server(server.get().id()));
            title = server.get().name();
        }
        String versionHeader = headers.getHeaderString(VERSION_HEADER);
        ProtocolVersion headerVersion = null;
        if (versionHeader != null) {
            headerVersion = ProtocolVersion.of(versionHeader.strip());
            if (headerVersion == null) {
                return error(400, McpError.INVALID_REQUEST, "Unsupported MCP-Protocol-Version '" + clip(versionHeader)
                        + "'; supported: " + String.join(", ", ProtocolVersion.SUPPORTED));
            }
        }
        String credential = accepted.sessionCredential();
        String sessionHeader = headers.getHeaderString(SESSION_HEADER);
        McpSessions.Session session = null;
        if (sessionHeader != null) {
            session = sessions.verify(sessionHeader.strip(), caller, endpoint, credential).orElse(null);
            if (session == null) {
                return error(404, McpError.INVALID_REQUEST, "Unknown or expired MCP session; initialize again");
            }
        }
        MediaType contentType = headers.getMediaType();
        if (contentType == null || !contentType.isCompatible(MediaType.APPLICATION_JSON_TYPE) || contentType.isWildcardType()
                || contentType.isWildcardSubtype()) {
            return error(415, McpError.INVALID_REQUEST, "Content-Type must be application/json");
        }
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (!acceptable(accept)) {
            return error(406, McpError.INVALID_REQUEST, "Accept must allow application/json or text/event-stream");
        }
        byte[] bytes = in == null ? new byte[0] : in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBody + 1));
        if (bytes.length > maxBody) {
            return tooLarge(maxBody);
        }
        JsonValue parsed;
        try {
            parsed = JsonSupport.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException | StackOverflowError e) {
            // malformed, too deeply nested or numbers beyond the parser's limits: all a parse error for the client
            return error(400, McpError.PARSE_ERROR, "Parse error: the body is not valid JSON or exceeds parser limits");
        }
        if (!JsonSupport.saneNumbers(parsed)) {
            return error(400, McpError.INVALID_REQUEST, "Numbers must be within ±1e308 with at most 400 digits");
        }
        ProtocolVersion version = headerVersion != null ? headerVersion
                : session != null ? session.version() : ProtocolVersion.DEFAULT;
        String tag = session == null ? "-" : McpSessions.tag(session.id());
        Exchange exchange = new Exchange(caller, slug == null, endpoint, title, version, tag);
        if (parsed.getValueType() == JsonValue.ValueType.ARRAY) {
            return batch(exchange, parsed.asJsonArray());
        }
        JsonRpcMessage message;
        try {
            message = JsonRpcMessage.of(parsed);
        } catch (McpError e) {
            return json(e.httpStatus(), JsonRpcMessage.error(e, JsonValue.NULL));
        }
        if (message.kind() != JsonRpcMessage.Kind.REQUEST) {
            if (message.kind() == JsonRpcMessage.Kind.NOTIFICATION) {
                protocol.accept(exchange, message);
            }
            return Response.accepted().build();
        }
        if ("initialize".equals(message.method())) {
            ProtocolVersion negotiated;
            try {
                negotiated = McpProtocol.negotiated(message);
            } catch (McpError e) {
                return json(200, JsonRpcMessage.error(e, message.id()));
            }
            Exchange init = new Exchange(caller, exchange.shared(), endpoint, title, negotiated, tag);
            return Response.ok(protocol.answer(init, message, null).toString(), MediaType.APPLICATION_JSON_TYPE)
                    .header(SESSION_HEADER, sessions.issue(negotiated, caller, endpoint, credential)).build();
        }
        JsonValue progressToken = progressToken(message);
        if (progressToken != null && accept != null && accept.toLowerCase(Locale.ROOT).contains(SSE)) {
            return stream(exchange, message, progressToken);
        }
        if ("tools/call".equals(message.method())) {
            return watched(exchange, message);
        }
        return json(200, protocol.answer(exchange, message, null));
    }

    /** JSON-RPC batches: only in 2025-03-26; later revisions removed them. */
    private Response batch(Exchange exchange, jakarta.json.JsonArray messages) {
        if (!exchange.version().allowsBatches()) {
            return error(400, McpError.INVALID_REQUEST, "JSON-RPC batches are not supported in protocol revision "
                    + exchange.version().wire());
        }
        if (messages.isEmpty()) {
            return error(400, McpError.INVALID_REQUEST, "An empty batch is not a valid request");
        }
        List<JsonObject> replies = new ArrayList<>();
        for (JsonValue value : messages) {
            try {
                JsonRpcMessage message = JsonRpcMessage.of(value);
                switch (message.kind()) {
                    case NOTIFICATION -> protocol.accept(exchange, message);
                    case RESPONSE -> { }
                    case REQUEST -> replies.add("initialize".equals(message.method())
                            ? JsonRpcMessage.error(message.id(), McpError.INVALID_REQUEST, "initialize must not be part of a batch")
                            : protocol.answer(exchange, message, null));
                }
            } catch (McpError e) {
                replies.add(JsonRpcMessage.error(e, JsonValue.NULL));
            }
        }
        if (replies.isEmpty()) {
            return Response.accepted().build();
        }
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        replies.forEach(array::add);
        return Response.ok(array.build().toString(), MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** Answers as an SSE stream: the tool's progress notifications, then the response, then the stream ends. */
    private Response stream(Exchange exchange, JsonRpcMessage message, JsonValue progressToken) {
        StreamingOutput body = out -> {
            try (ClientWatches.Watch watch = watches.watch(out, SSE_HEARTBEAT, exchange.requestKey(message.id()))) {
                CallContext.ProgressSink sink = (progress, total, text) ->
                        watch.write(sseEvent(McpWire.progress(progressToken, progress, total, text)));
                watch.finish(sseEvent(protocol.answer(exchange, message, sink)));
            }
        };
        return Response.ok(body, SSE).header("Cache-Control", "no-cache").build();
    }

    /**
     * Answers a tool call as JSON, but streamed: while the call runs, a newline goes out every heartbeat (JSON allows
     * whitespace before a value), so a client that went away is noticed at the next write and its call is cancelled
     * (a code run stops instead of running to its timeout for nobody).
     */
    private Response watched(Exchange exchange, JsonRpcMessage message) {
        StreamingOutput body = out -> {
            try (ClientWatches.Watch watch = watches.watch(out, JSON_HEARTBEAT, exchange.requestKey(message.id()))) {
                watch.finish(protocol.answer(exchange, message, null).toString().getBytes(StandardCharsets.UTF_8));
            }
        };
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static byte[] sseEvent(JsonObject message) {
        return ("event: message\ndata: " + message + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    private static final byte[] SSE_HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JSON_HEARTBEAT = "\n".getBytes(StandardCharsets.US_ASCII);

    private static JsonValue progressToken(JsonRpcMessage message) {
        JsonValue meta = message.params().get("_meta");
        if (meta == null || meta.getValueType() != JsonValue.ValueType.OBJECT) {
            return null;
        }
        JsonValue token = meta.asJsonObject().get("progressToken");
        return token != null && (token.getValueType() == JsonValue.ValueType.STRING
                || token.getValueType() == JsonValue.ValueType.NUMBER) ? token : null;
    }

    private static boolean acceptable(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains("application/json") || a.contains(SSE) || a.contains("*/*") || a.contains("application/*")
                || a.contains("text/*");
    }

    private interface Handler {
        Response handle() throws IOException;
    }

    /** Whatever goes wrong, the client gets a JSON-RPC error with a log reference, never a stack trace. */
    private static Response guarded(Handler handler) {
        try {
            return handler.handle();
        } catch (IOException e) {
            return error(400, McpError.INVALID_REQUEST, "The request body could not be read");
        } catch (RuntimeException | StackOverflowError e) {
            String reference = UUID.randomUUID().toString().substring(0, 8);
            LOG.log(Level.SEVERE, "MCP request failed, reference " + reference, e);
            return error(500, McpError.INTERNAL_ERROR, "Internal error (reference " + reference + ")");
        }
    }

    private static Response methodNotAllowed() {
        return Response.status(405).header("Allow", "POST").type(MediaType.APPLICATION_JSON_TYPE)
                .entity(JsonRpcMessage.error(JsonValue.NULL, McpError.INVALID_REQUEST,
                        "Method not allowed: this MCP endpoint takes POST only (no standalone SSE stream)").toString())
                .build();
    }

    private static Response tooLarge(long maxBody) {
        return error(413, McpError.INVALID_REQUEST, "The request body is larger than the " + maxBody + "-byte limit");
    }

    private static Response error(int status, int code, String message) {
        return json(status, JsonRpcMessage.error(JsonValue.NULL, code, message));
    }

    private static Response json(int status, JsonObject body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body.toString()).build();
    }

    private static String clip(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= 64 ? printable : printable.substring(0, 64) + "…";
    }
}
