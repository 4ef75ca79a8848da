package dev.amcp.gateway.mcp.boundary;

import static dev.amcp.gateway.mcp.boundary.McpReplies.ACCEPTED;
import static dev.amcp.gateway.mcp.boundary.McpReplies.JSON;
import static dev.amcp.gateway.mcp.boundary.McpReplies.METHOD_NOT_ALLOWED;
import static dev.amcp.gateway.mcp.boundary.McpReplies.SSE;
import static dev.amcp.gateway.mcp.boundary.McpReplies.bytes;
import static dev.amcp.gateway.mcp.boundary.McpReplies.error;
import static dev.amcp.gateway.mcp.boundary.McpReplies.guarded;
import static dev.amcp.gateway.mcp.boundary.McpReplies.json;
import static dev.amcp.gateway.mcp.boundary.McpReplies.send;
import static dev.amcp.gateway.mcp.boundary.McpReplies.tooLarge;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.boundary.McpReplies.Reply;
import dev.amcp.gateway.mcp.control.McpProtocol;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.control.McpSessions;
import dev.amcp.gateway.mcp.control.OriginPolicy;
import dev.amcp.gateway.mcp.control.ToolListSubscriptions;
import dev.amcp.gateway.mcp.control.WireHeaders;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.mcp.entity.RequestMeta;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Texts;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * MCP Streamable HTTP on {@code POST /mcp/{server}} (one server) and {@code POST /mcp} (shared: the workspace's
 * HTTP tools only). Checks run in this order: Origin (403), declared body size (413), API key (401), endpoint (an
 * unknown server and one the role may not use both get 404), session (404), Content-Type (415), Accept (406), body size
 * (413, {@value #MAX_BODY_SETTING}), JSON (-32700 with 400), then {@code MCP-Protocol-Version}: a revision not spoken
 * here is -32022 with 400 and the supported list. The revision is chosen per request: {@code 2026-07-28} goes the
 * stateless way ({@link #stateless}), the older ones keep {@code initialize} and the signed session. Only the wire
 * mapping differs; {@link McpProtocol} and the tool execution beneath are the same.
 *
 * <p>{@code GET} opens a session's standalone SSE stream ({@link #get}), which tells of tool list changes.
 * Other methods get 405 (OPTIONS aside), DELETE too: sessions are signed tokens that end on their own.
 *
 * <p>This servlet reads and routes requests. Who asks, and at which endpoint, is {@link McpAdmission}'s to decide;
 * answers that stay open (progress, heartbeats, tool list streams) are {@link McpStreams}'; {@link McpReplies}
 * builds and writes the rest.
 *
 * <p>A plain servlet, not a Jakarta REST resource: the endpoint reads raw bytes, checks its own headers and writes its
 * own answers, so the REST dispatch (resource matching, providers, the body-limit filter) only cost a fifth of a tool
 * call's CPU (docs/benchmarks.md).
 */
@WebServlet(name = "amcp-mcp", urlPatterns = {"/mcp", "/mcp/*"}, asyncSupported = true)
public class McpServlet extends HttpServlet {

    public static final String MAX_BODY_SETTING = "AMCP_MCP_MAX_BODY_BYTES";
    public static final long DEFAULT_MAX_BODY = 4L * 1024 * 1024;
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    public static final String VERSION_HEADER = "MCP-Protocol-Version";

    @Inject
    McpAdmission admission;

    @Inject
    McpProtocol protocol;

    @Inject
    McpSessions sessions;

    @Inject
    OriginPolicy origins;

    @Inject
    McpStreams streams;

    @Inject
    Settings settings;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        switch (request.getMethod()) {
            case "POST" -> send(guarded(() -> post(request)), response);
            case "GET" -> send(guarded(() -> get(request)), response);
            case "OPTIONS" -> super.service(request, response);
            default -> send(METHOD_NOT_ALLOWED, response);
        }
    }

    private Reply post(HttpServletRequest request) throws IOException {
        Function<String, String> headers = name -> header(request, name);
        if (!origins.allows(headers.apply("Origin"))) {
            return error(403, McpError.INVALID_REQUEST, "Origin not allowed");
        }
        long maxBody = settings.getLong(MAX_BODY_SETTING, DEFAULT_MAX_BODY);
        if (request.getContentLengthLong() > maxBody) {
            return tooLarge(maxBody);
        }
        McpAdmission.Admitted admitted = admission.admit(request, headers);
        if (admitted.refusal() != null) {
            return admitted.refusal();
        }
        String slug = admitted.slug();
        String authorization = admitted.authorization();
        Caller caller = admitted.endpoint().caller();
        String endpoint = admitted.endpoint().path();
        String title = admitted.endpoint().title();
        String versionHeader = headers.apply(VERSION_HEADER);
        ProtocolVersion headerVersion = versionHeader == null ? null : ProtocolVersion.of(versionHeader.strip());
        boolean unsupported = versionHeader != null && headerVersion == null; // answered once the body's id is known
        boolean stateless = headerVersion != null && headerVersion.stateless();
        String credential = admitted.credential();
        String sessionHeader = stateless || unsupported ? null : headers.apply(SESSION_HEADER);
        McpSessions.Session session = null;
        if (sessionHeader != null) {
            session = sessions.verify(sessionHeader.strip(), caller, endpoint, credential).orElse(null);
            if (session == null) {
                return error(404, McpError.INVALID_REQUEST, "Unknown or expired MCP session; initialize again");
            }
        }
        if (!isJson(request.getContentType())) {
            return error(415, McpError.INVALID_REQUEST, "Content-Type must be application/json");
        }
        String accept = headers.apply("Accept");
        if (!acceptable(accept)) {
            return error(406, McpError.INVALID_REQUEST, "Accept must allow application/json or text/event-stream");
        }
        byte[] bytes;
        try (InputStream in = request.getInputStream()) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBody + 1));
        }
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
        if (unsupported) {
            return unsupportedVersion(versionHeader.strip(), idOf(parsed));
        }
        if (stateless) {
            return stateless(request, new Exchange(caller, slug == null, endpoint, title, headerVersion, "-"), headers, parsed, accept,
                    admission.current(authorization, slug, endpoint, ProtocolVersion.V2026_07_28, "-"));
        }
        if (headerVersion == null && metaVersion(parsed) != null) {
            return json(400, JsonRpcMessage.error(McpError.headerMismatch("The " + VERSION_HEADER + " header is required when _meta names "
                    + McpWire.META_PROTOCOL_VERSION, idOf(parsed)), JsonValue.NULL));
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
            return ACCEPTED;
        }
        if ("initialize".equals(message.method())) {
            ProtocolVersion negotiated;
            try {
                negotiated = McpProtocol.negotiated(message);
            } catch (McpError e) {
                return json(200, JsonRpcMessage.error(e, message.id()));
            }
            Exchange init = new Exchange(caller, exchange.shared(), endpoint, title, negotiated, tag);
            return json(200, protocol.answer(init, message, null))
                    .withHeader(SESSION_HEADER, sessions.issue(negotiated, caller, endpoint, credential));
        }
        JsonValue progressToken = progressToken(message);
        if (progressToken != null && accept != null && accept.toLowerCase(Locale.ROOT).contains(SSE)) {
            return streams.progress(exchange.requestKey(message.id()), progressToken, sink -> protocol.answer(exchange, message, sink));
        }
        if ("tools/call".equals(message.method())) {
            return streams.watched(exchange.requestKey(message.id()), () -> protocol.answer(exchange, message, null));
        }
        return json(200, protocol.answer(exchange, message, null));
    }

    /**
     * {@code GET}: the standalone SSE stream of a 2025-03-26 to 2025-11-25 session, which sends
     * {@code notifications/tools/list_changed} whenever the caller's tool list changes ({@link ToolListSubscriptions},
     * the loop of the 2026-07-28 listen streams, whose per-node slots it shares). The checks that apply run in POST's
     * order: Origin (403), API key (401), endpoint (404), session (required here: missing is 400, unknown or expired
     * 404), Accept without {@code text/event-stream} (406), then {@code MCP-Protocol-Version} (400 if not spoken here;
     * 2026-07-28, which has no sessions, gets 405).
     *
     * <p>A node with every slot taken, or draining, answers 405 with {@code Allow: POST}, not 503: the transport spec
     * lets a server answer this GET with a stream or 405 only, and clients take 405 as "no stream here, go on with
     * requests". The official Java SDK client (2.1.0) opens this stream after {@code initialize} once it has a session
     * id, on 405 goes on without it, and never retries it; on any other error status (503 included) it also goes on
     * without it, but logs the failure as an error it was handed. It never reopens a stream that ended either (drain,
     * lifetime), so a draining node cannot draw it into a reconnect loop; a client that does reconnect gets 405 there.
     * On 404 it drops its session and initializes again, which is why an unknown session stays 404 as for POST.
     */
    private Reply get(HttpServletRequest request) {
        Function<String, String> headers = name -> header(request, name);
        if (!origins.allows(headers.apply("Origin"))) {
            return error(403, McpError.INVALID_REQUEST, "Origin not allowed");
        }
        McpAdmission.Admitted admitted = admission.admit(request, headers);
        if (admitted.refusal() != null) {
            return admitted.refusal();
        }
        String endpoint = admitted.endpoint().path();
        String versionHeader = headers.apply(VERSION_HEADER);
        ProtocolVersion headerVersion = versionHeader == null ? null : ProtocolVersion.of(versionHeader.strip());
        boolean sessionless = versionHeader != null && (headerVersion == null || headerVersion.stateless());
        McpSessions.Session session = null;
        if (!sessionless) {
            String sessionHeader = headers.apply(SESSION_HEADER);
            if (sessionHeader == null) {
                return error(400, McpError.INVALID_REQUEST, "GET opens a session's event stream: send the " + SESSION_HEADER
                        + " header that initialize returned");
            }
            session = sessions.verify(sessionHeader.strip(), admitted.endpoint().caller(), endpoint, admitted.credential()).orElse(null);
            if (session == null) {
                return error(404, McpError.INVALID_REQUEST, "Unknown or expired MCP session; initialize again");
            }
        }
        String accept = headers.apply("Accept");
        if (accept == null || !accept.toLowerCase(Locale.ROOT).contains(SSE)) {
            return error(406, McpError.INVALID_REQUEST, "Accept must include text/event-stream: GET opens the session's event stream");
        }
        if (headerVersion == null && versionHeader != null) {
            return unsupportedVersion(versionHeader.strip(), JsonValue.NULL);
        }
        if (session == null) {
            return McpStreams.noStream("Protocol revision " + headerVersion.wire() + " has no sessions and no standalone SSE stream; "
                    + "listen with subscriptions/listen");
        }
        Supplier<Optional<Exchange>> current = admission.current(admitted.authorization(), admitted.slug(), endpoint, session.version(),
                McpSessions.tag(session.id()));
        return streams.session(request, current);
    }

    /**
     * Protocol revision 2026-07-28, stateless: the standard headers must repeat the body (SEP-2243), every request
     * carries its revision and the client's capabilities in {@code _meta}, results say {@code resultType} and who
     * answered, and a method this server lacks is 404. What runs beneath is the same as for every other revision.
     */
    private Reply stateless(HttpServletRequest request, Exchange base, Function<String, String> headers, JsonValue parsed, String accept,
                            Supplier<Optional<Exchange>> current) {
        if (parsed.getValueType() == JsonValue.ValueType.ARRAY) {
            return error(400, McpError.INVALID_REQUEST, "JSON-RPC batches are not supported in protocol revision " + base.version().wire());
        }
        JsonRpcMessage message;
        try {
            message = JsonRpcMessage.of(parsed);
        } catch (McpError e) {
            return json(e.httpStatus(), JsonRpcMessage.error(e, idOf(parsed)));
        }
        if (message.kind() == JsonRpcMessage.Kind.RESPONSE) {
            return ACCEPTED;
        }
        Exchange exchange;
        try {
            WireHeaders.checkStandard(message, headers::apply);
            if (message.kind() == JsonRpcMessage.Kind.NOTIFICATION) {
                protocol.accept(base, message);
                return ACCEPTED;
            }
            RequestMeta meta = RequestMeta.of(message);
            if (!meta.protocolVersion().equals(base.version().wire())) {
                throw McpError.headerMismatch(VERSION_HEADER + " '" + base.version().wire() + "' does not match _meta "
                        + McpWire.META_PROTOCOL_VERSION + " '" + Texts.printable(meta.protocolVersion(), 64) + "'", message.id());
            }
            exchange = new Exchange(base.caller(), base.shared(), base.endpoint(), base.title(), base.version(), base.sessionTag(),
                    meta.capabilityNames());
            if ("tools/call".equals(message.method()) && message.params().get("name") instanceof JsonString name) {
                Optional<McpProtocol.CallTarget> target = protocol.callTarget(exchange, name.getString());
                if (target.isPresent()) {
                    WireHeaders.checkToolParams(target.get().inputSchema(), message, headers::apply);
                    McpProtocol.checkClientCapabilities(exchange, message, target.get());
                }
            }
        } catch (McpError e) {
            return json(e.httpStatus(), JsonRpcMessage.error(e, message.id()));
        }
        if ("subscriptions/listen".equals(message.method())) {
            return streams.listen(request, message, current);
        }
        JsonValue progressToken = progressToken(message);
        if (progressToken != null && accept != null && accept.toLowerCase(Locale.ROOT).contains(SSE)) {
            return streams.progress(exchange.requestKey(message.id()), progressToken, sink -> protocol.answer(exchange, message, sink));
        }
        if ("tools/call".equals(message.method())) {
            return streams.watched(exchange.requestKey(message.id()), () -> protocol.answer(exchange, message, null));
        }
        JsonObject reply = protocol.answer(exchange, message, null);
        return json(reply.containsKey("error") ? statelessStatus(reply.getJsonObject("error").getInt("code")) : 200, reply);
    }

    /** 2026-07-28 HTTP status of a JSON-RPC error: 404 for a method this server lacks, 400 for the protocol's own errors. */
    private static int statelessStatus(int code) {
        return switch (code) {
            case McpError.METHOD_NOT_FOUND -> 404;
            case McpError.HEADER_MISMATCH, McpError.MISSING_CLIENT_CAPABILITY, McpError.UNSUPPORTED_PROTOCOL_VERSION,
                 McpError.INVALID_REQUEST, McpError.PARSE_ERROR -> 400;
            default -> 200;
        };
    }

    /** -32022 with the revisions spoken here, for a revision this server does not speak (HTTP 400). */
    private static Reply unsupportedVersion(String requested, JsonValue id) {
        JsonArrayBuilder supported = JsonSupport.JSON.createArrayBuilder();
        ProtocolVersion.SUPPORTED.forEach(supported::add);
        McpError e = new McpError(McpError.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported " + VERSION_HEADER + " '" + Texts.printable(requested, 64)
                + "'; supported: " + String.join(", ", ProtocolVersion.SUPPORTED), id, 400,
                JsonSupport.JSON.createObjectBuilder().add("supported", supported).add("requested", requested).build());
        return json(400, JsonRpcMessage.error(e, id));
    }

    /** The id of a request body, when it has a usable one, for error replies. */
    private static JsonValue idOf(JsonValue parsed) {
        JsonValue id = parsed instanceof JsonObject o ? o.get("id") : null;
        if (id != null && (id.getValueType() == JsonValue.ValueType.STRING || id.getValueType() == JsonValue.ValueType.NUMBER)) {
            return id;
        }
        return JsonValue.NULL;
    }

    /** The revision a body names in {@code params._meta} (how 2026-07-28 requests say it), or {@code null}. */
    private static String metaVersion(JsonValue parsed) {
        if (parsed instanceof JsonObject o && o.get("params") instanceof JsonObject p && p.get("_meta") instanceof JsonObject m
                && m.get(McpWire.META_PROTOCOL_VERSION) instanceof JsonString v) {
            return v.getString();
        }
        return null;
    }

    /** JSON-RPC batches: only in 2025-03-26; later revisions removed them. */
    private Reply batch(Exchange exchange, JsonArray messages) {
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
            return ACCEPTED;
        }
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        replies.forEach(array::add);
        return bytes(200, JSON, array.build().toString());
    }

    private static JsonValue progressToken(JsonRpcMessage message) {
        JsonValue meta = message.params().get("_meta");
        if (meta == null || meta.getValueType() != JsonValue.ValueType.OBJECT) {
            return null;
        }
        JsonValue token = meta.asJsonObject().get("progressToken");
        return token != null && (token.getValueType() == JsonValue.ValueType.STRING
                || token.getValueType() == JsonValue.ValueType.NUMBER) ? token : null;
    }

    /** Every value of a header, joined by commas as one (a repeated header cannot hide a second value), or null. */
    private static String header(HttpServletRequest request, String name) {
        Enumeration<String> values = request.getHeaders(name);
        if (values == null || !values.hasMoreElements()) {
            return null;
        }
        String first = values.nextElement();
        if (!values.hasMoreElements()) {
            return first;
        }
        StringBuilder joined = new StringBuilder(first);
        while (values.hasMoreElements()) {
            joined.append(',').append(values.nextElement());
        }
        return joined.toString();
    }

    /** {@code application/json}, with parameters or none; wildcards and other JSON types are not JSON-RPC bodies. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return type.equalsIgnoreCase(JSON);
    }

    private static boolean acceptable(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains(JSON) || a.contains(SSE) || a.contains("*/*") || a.contains("application/*")
                || a.contains("text/*");
    }
}
