package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolCallRejectedException;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The MCP methods of a tools-only server: {@code initialize}, {@code ping}, {@code tools/list} and
 * {@code tools/call}, plus the notifications a client sends; in revision 2026-07-28 {@code server/discover},
 * {@code tools/list} and {@code tools/call} (and empty prompt and resource lists, where a read finds nothing), each result marked
 * {@code resultType: "complete"} with the server's identity in {@code _meta}. Transport concerns (HTTP status, SSE, sessions) stay
 * in the boundary; everything here works on one already-authenticated, already-scoped {@link Exchange}.
 */
@ApplicationScoped
public class McpProtocol {

    public static final String PAGE_SIZE_SETTING = "AMCP_MCP_PAGE_SIZE";
    public static final String SERVER_NAME = "amcp-gateway";
    public static final String SERVER_VERSION = "0.1.0";
    /** 2026-07-28 {@code ttlMs} of list results: how long a client may keep a list before asking again. */
    public static final String LIST_TTL_SETTING = "AMCP_MCP_LIST_TTL_MS";
    public static final long DEFAULT_LIST_TTL_MS = 30_000;
    public static final McpWire.Implementation SERVER_INFO = new McpWire.Implementation(SERVER_NAME, "AMCP Gateway", SERVER_VERSION);
    private static final Logger LOG = Logger.getLogger(McpProtocol.class.getName());
    private static final String CURSOR_PREFIX = "amcp1:";

    @Inject
    ToolCatalog catalog;

    @Inject
    ToolExecutor executor;

    @Inject
    McpCancellations cancellations;

    @Inject
    Settings settings;

    /**
     * One authenticated exchange on an endpoint.
     *
     * @param caller     the caller, already narrowed to the endpoint's scope
     * @param shared     the shared {@code /mcp} endpoint (stored HTTP tools only)
     * @param endpoint   {@code "/mcp"} or {@code "/mcp/<slug>"}, for messages
     * @param title      a human name of what this endpoint serves
     * @param version    the negotiated (or assumed) protocol revision
     * @param sessionTag a short tag of the session, or {@code "-"} without one
     * @param clientCapabilities the capabilities the client declared for this request (2026-07-28), else none
     */
    public record Exchange(Caller caller, boolean shared, String endpoint, String title, ProtocolVersion version,
                           String sessionTag, Set<String> clientCapabilities) {

        public Exchange(Caller caller, boolean shared, String endpoint, String title, ProtocolVersion version, String sessionTag) {
            this(caller, shared, endpoint, title, version, sessionTag, Set.of());
        }

        public String requestKey(JsonValue id) {
            // a caller with an OAuth token has no key: its user tells it apart
            String who = caller.apiKeyId() != null ? "/key:" + caller.apiKeyId() : "/user:" + caller.userId();
            return "ws:" + caller.workspaceId() + who + "/session:" + sessionTag + "/id:" + id;
        }
    }

    /** Answers a request with its JSON-RPC response; never throws. {@code progress} may be null. */
    public JsonObject answer(Exchange exchange, JsonRpcMessage request, CallContext.ProgressSink progress) {
        try (Tracing.Span span = requestSpan(exchange, request)) {
            JsonObject reply = reply(exchange, request, progress);
            if (reply.get("error") instanceof JsonObject error) {
                span.fail("JSON-RPC error " + error.getInt("code", 0));
            }
            return reply;
        }
    }

    /**
     * The request's span (SEP-414): its parent is the trace context in {@code _meta} ({@code traceparent},
     * {@code tracestate}) when there is one, else the HTTP request's. Names follow OpenTelemetry's MCP conventions.
     */
    private static Tracing.Span requestSpan(Exchange exchange, JsonRpcMessage request) {
        JsonObject meta = request.params().get("_meta") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        String tool = "tools/call".equals(request.method()) && request.params().get("name") instanceof JsonString n ? n.getString() : null;
        return Tracing.request(tool == null ? request.method() : request.method() + " " + tool,
                        meta.get(Tracing.TRACEPARENT) instanceof JsonString p ? p.getString() : null,
                        meta.get(Tracing.TRACESTATE) instanceof JsonString s ? s.getString() : null)
                .attribute("mcp.method.name", request.method())
                .attribute("mcp.protocol.version", exchange.version().wire())
                .attribute("jsonrpc.request.id", request.id() instanceof JsonString id ? id.getString() : String.valueOf(request.id()))
                .attribute("gen_ai.tool.name", tool);
    }

    private JsonObject reply(Exchange exchange, JsonRpcMessage request, CallContext.ProgressSink progress) {
        try {
            JsonObject result = result(exchange, request, progress);
            return JsonRpcMessage.result(request.id(), exchange.version().stateless() ? McpWire.complete(result, SERVER_INFO, null) : result);
        } catch (McpError e) {
            return JsonRpcMessage.error(e, request.id());
        } catch (ToolNotAvailableException e) {
            return JsonRpcMessage.error(request.id(), McpError.INVALID_PARAMS, "Unknown tool: '" + clip(e.toolName()) + "'");
        } catch (ToolCallRejectedException e) {
            return JsonRpcMessage.error(request.id(), McpError.INVALID_PARAMS, e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            if (DatabaseOutage.noted(e)) {
                LOG.log(Level.FINE, "MCP " + request.method() + " failed on the unreachable database", e);
                return JsonRpcMessage.error(request.id(), McpError.INTERNAL_ERROR, DatabaseOutage.MESSAGE);
            }
            String reference = UUID.randomUUID().toString().substring(0, 8);
            LOG.log(Level.SEVERE, "MCP " + request.method() + " failed, reference " + reference, e);
            return JsonRpcMessage.error(request.id(), McpError.INTERNAL_ERROR, "Internal error (reference " + reference + ")");
        }
    }

    /** Takes a notification; unknown ones are ignored, as JSON-RPC asks. */
    public void accept(Exchange exchange, JsonRpcMessage notification) {
        if ("notifications/cancelled".equals(notification.method())) {
            JsonValue requestId = notification.params().get("requestId");
            if (requestId != null && (requestId.getValueType() == JsonValue.ValueType.STRING
                    || requestId.getValueType() == JsonValue.ValueType.NUMBER)) {
                JsonValue reason = notification.params().get("reason");
                cancellations.cancel(exchange.requestKey(requestId), reason instanceof JsonString s ? s.getString() : null);
            }
        }
    }

    /** The revision an {@code initialize} request negotiates: the client's if we speak it, else our latest. */
    public static ProtocolVersion negotiated(JsonRpcMessage initialize) {
        JsonValue requested = initialize.params().get("protocolVersion");
        if (!(requested instanceof JsonString s)) {
            throw McpError.invalidParams("initialize needs params.protocolVersion (a string)");
        }
        return ProtocolVersion.negotiate(s.getString());
    }

    private JsonObject result(Exchange exchange, JsonRpcMessage request, CallContext.ProgressSink progress) {
        if (exchange.version().stateless()) {
            // 2026-07-28: no initialize, ping or logging/setLevel; empty prompt and resource lists so that generic
            // clients get a cacheable answer (see docs/conformance.md)
            return switch (request.method()) {
                case "server/discover" -> discover(exchange);
                case "tools/list" -> listTools(exchange, request.params());
                case "tools/call" -> callTool(exchange, request, progress);
                case "prompts/list" -> McpWire.emptyList("prompts", listTtl());
                case "resources/list" -> McpWire.emptyList("resources", listTtl());
                case "resources/templates/list" -> McpWire.emptyList("resourceTemplates", listTtl());
                // the capabilities are declared, so their reads exist and find nothing (SEP-2164: -32602, the uri in data)
                case "resources/read" -> throw notFound("Resource", "uri", request.params());
                case "prompts/get" -> throw notFound("Prompt", "name", request.params());
                default -> throw McpError.methodNotFound(clip(request.method()));
            };
        }
        return switch (request.method()) {
            case "initialize" -> initialize(exchange, request);
            case "ping" -> JsonValue.EMPTY_JSON_OBJECT;
            case "tools/list" -> listTools(exchange, request.params());
            case "tools/call" -> callTool(exchange, request, progress);
            default -> throw McpError.methodNotFound(clip(request.method()));
        };
    }

    /** -32602 for a resource or prompt this server does not have (it has none), naming what was asked for in {@code data}. */
    private static McpError notFound(String what, String param, JsonObject params) {
        if (!(params.get(param) instanceof JsonString asked)) {
            return McpError.invalidParams(what + " requests need params." + param + " (a string)");
        }
        return new McpError(McpError.INVALID_PARAMS, what + " not found: " + clip(asked.getString()), null, 200,
                JsonSupport.JSON.createObjectBuilder().add(param, asked).build());
    }

    private JsonObject initialize(Exchange exchange, JsonRpcMessage request) {
        ProtocolVersion version = negotiated(request);
        JsonValue capabilities = request.params().get("capabilities");
        if (capabilities != null && capabilities.getValueType() != JsonValue.ValueType.OBJECT) {
            throw McpError.invalidParams("params.capabilities must be an object");
        }
        return new McpWire.InitializeResult(version, SERVER_INFO, instructions(exchange)).toJson();
    }

    private static String instructions(Exchange exchange) {
        return exchange.shared()
                ? "Tools of every MCP server of this workspace that your key's role may use."
                : "Tools of the MCP server '" + exchange.title() + "' that your key's role may use.";
    }

    /**
     * 2026-07-28 {@code server/discover}: every revision spoken here and the capabilities. The tool list changes when an
     * admin changes it, and {@code subscriptions/listen} says so; prompts and resources are empty lists.
     */
    private JsonObject discover(Exchange exchange) {
        JsonObject capabilities = JsonSupport.JSON.createObjectBuilder()
                .add("tools", JsonSupport.JSON.createObjectBuilder().add("listChanged", true))
                .add("prompts", JsonValue.EMPTY_JSON_OBJECT)
                .add("resources", JsonValue.EMPTY_JSON_OBJECT).build();
        return new McpWire.DiscoverResult(ProtocolVersion.SUPPORTED, capabilities, instructions(exchange), listTtl()).toJson();
    }

    /** What a {@code tools/call} targets, as far as the wire cares: its input schema and the client capabilities it needs. */
    public record CallTarget(JsonObject inputSchema, Set<String> requiredClientCapabilities) {}

    /**
     * The tool a {@code tools/call} of this name reaches here, looked up as the call itself does (stored tools first,
     * kept briefly; virtual tools only on a server endpoint); empty when there is none, which the call then reports.
     */
    public Optional<CallTarget> callTarget(Exchange exchange, String name) {
        Optional<McpTool> stored = catalog.findStored(exchange.caller(), name).filter(t -> !exchange.shared() || !t.isCodeTool());
        if (stored.isPresent()) {
            return Optional.of(new CallTarget(stored.get().getInputSchema(), Set.of()));
        }
        if (exchange.shared()) {
            return Optional.empty();
        }
        return catalog.findVirtual(exchange.caller(), name)
                .map(v -> new CallTarget(v.descriptor().inputSchema(), v.requiredClientCapabilities()));
    }

    /**
     * 2026-07-28: refuses a {@code tools/call} of a tool that needs a client capability this request did not declare
     * (-32021, HTTP 400), before anything runs. Servers must not rely on undeclared capabilities.
     */
    public static void checkClientCapabilities(Exchange exchange, JsonRpcMessage call, CallTarget target) {
        Set<String> missing = new TreeSet<>(target.requiredClientCapabilities());
        missing.removeAll(exchange.clientCapabilities());
        if (!missing.isEmpty()) {
            JsonObjectBuilder required = JsonSupport.JSON.createObjectBuilder();
            missing.forEach(c -> required.add(c, JsonValue.EMPTY_JSON_OBJECT));
            throw new McpError(McpError.MISSING_CLIENT_CAPABILITY, "This tool needs client capabilities the request did not declare: "
                    + String.join(", ", missing), call.id(), 400,
                    JsonSupport.JSON.createObjectBuilder().add("requiredCapabilities", required).build());
        }
    }

    long listTtl() {
        return Math.max(0, settings.getLong(LIST_TTL_SETTING, DEFAULT_LIST_TTL_MS));
    }

    /**
     * A digest of everything this caller would read from {@code tools/list} here; it changes exactly when the caller's
     * tool list does (a tool, its role's scope or the server's code mode changed).
     */
    public String toolListDigest(Exchange exchange) {
        JsonArrayBuilder all = JsonSupport.JSON.createArrayBuilder();
        tools(exchange).forEach(d -> all.add(new McpWire.Tool(d).toJson(exchange.version())));
        return Hashes.sha256(all.build().toString());
    }

    private JsonObject listTools(Exchange exchange, JsonObject params) {
        int offset = decodeCursor(params.get("cursor"));
        int pageSize = Math.max(1, Math.min(1000, settings.getInt(PAGE_SIZE_SETTING, 100)));
        List<ToolDescriptor> all = tools(exchange);
        if (offset > all.size()) {
            throw McpError.invalidParams("Invalid cursor");
        }
        int end = Math.min(all.size(), offset + pageSize);
        List<McpWire.Tool> page = all.subList(offset, end).stream().map(McpWire.Tool::new).toList();
        return new McpWire.ToolsPage(page, end < all.size() ? encodeCursor(end) : null, listTtl()).toJson(exchange.version());
    }

    /** What this endpoint serves: on the shared endpoint only stored HTTP tools, never code tools or virtual tools. */
    List<ToolDescriptor> tools(Exchange exchange) {
        if (exchange.shared()) {
            return catalog.listStored(exchange.caller()).stream().filter(d -> !d.codeTool()).toList();
        }
        return catalog.list(exchange.caller());
    }

    private JsonObject callTool(Exchange exchange, JsonRpcMessage request, CallContext.ProgressSink progress) {
        JsonObject params = request.params();
        if (!(params.get("name") instanceof JsonString nameValue) || nameValue.getString().isEmpty()) {
            throw McpError.invalidParams("tools/call needs params.name (a tool name)");
        }
        String name = nameValue.getString();
        JsonValue rawArgs = params.get("arguments");
        JsonObject args;
        if (rawArgs == null || rawArgs == JsonValue.NULL) {
            args = JsonValue.EMPTY_JSON_OBJECT;
        } else if (rawArgs.getValueType() == JsonValue.ValueType.OBJECT) {
            args = rawArgs.asJsonObject();
        } else {
            throw McpError.invalidParams("params.arguments must be an object");
        }
        Caller caller = exchange.caller();
        boolean dryRun = params.get("_meta") instanceof JsonObject meta && JsonValue.TRUE.equals(meta.get(ToolResult.META_DRY_RUN));
        CallContext context = new CallContext(exchange.requestKey(request.id()), progress, dryRun).following(approvalFollowUp(exchange, params));
        cancellations.started(context);
        try {
            ToolResult result = context.run(() -> {
                if (exchange.shared()) {
                    McpTool tool = catalog.findStored(caller, name).filter(t -> !t.isCodeTool())
                            .orElseThrow(() -> new ToolNotAvailableException(name));
                    return executor.execute(caller, tool, args);
                }
                return executor.call(caller, name, args);
            });
            JsonObject pending = result.pendingApproval();
            if (pending != null && exchange.version().stateless() && exchange.clientCapabilities().contains(ELICITATION)) {
                return McpWire.approvalRequired(pending, APPROVAL_INPUT); // the client's user is asked; the retry answers
            }
            return new McpWire.CallToolResult(result).toJson(exchange.version());
        } finally {
            cancellations.finished(context);
        }
    }

    /** The key of the approval question in a 2026-07-28 {@code input_required} result's {@code inputRequests}. */
    static final String APPROVAL_INPUT = "approve_write";
    private static final String ELICITATION = "elicitation";

    /**
     * What a {@code tools/call} says of a paused write it follows up, or {@code null}: a 2026-07-28 retry names it in
     * {@code requestState} and answers in {@code inputResponses} (an accepted form with {@code approve: true}
     * approves, a declined, cancelled or {@code approve: false} one refuses, none asks again); any revision may name
     * it in {@code _meta["amcp/approvalId"]} to collect the result.
     */
    static CallContext.Approval approvalFollowUp(Exchange exchange, JsonObject params) {
        JsonValue state = params.get("requestState");
        if (state != null && exchange.version().stateless()) {
            if (!(state instanceof JsonString id)) {
                throw McpError.invalidParams("params.requestState must be a string");
            }
            JsonValue responses = params.get("inputResponses");
            if (responses != null && responses.getValueType() != JsonValue.ValueType.OBJECT) {
                throw McpError.invalidParams("params.inputResponses must be an object");
            }
            if (responses == null || !(responses.asJsonObject().get(APPROVAL_INPUT) instanceof JsonObject answer)) {
                return new CallContext.Approval(id.getString(), null, null);
            }
            boolean accepted = "accept".equals(JsonSupport.string(answer, "action", ""))
                    && answer.get("content") instanceof JsonObject content && JsonValue.TRUE.equals(content.get("approve"));
            return new CallContext.Approval(id.getString(), accepted, "client:" + exchange.caller().username());
        }
        if (params.get("_meta") instanceof JsonObject meta && meta.containsKey(ToolResult.META_APPROVAL_ID)) {
            if (!(meta.get(ToolResult.META_APPROVAL_ID) instanceof JsonString id)) {
                throw McpError.invalidParams("_meta \"" + ToolResult.META_APPROVAL_ID + "\" must be a string");
            }
            return new CallContext.Approval(id.getString(), null, null);
        }
        return null;
    }

    static String encodeCursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    static int decodeCursor(JsonValue cursor) {
        if (cursor == null || cursor == JsonValue.NULL) {
            return 0;
        }
        if (!(cursor instanceof JsonString s) || s.getString().length() > 64) {
            throw McpError.invalidParams("Invalid cursor");
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(s.getString()), StandardCharsets.UTF_8);
            if (!text.startsWith(CURSOR_PREFIX)) {
                throw McpError.invalidParams("Invalid cursor");
            }
            int offset = Integer.parseInt(text.substring(CURSOR_PREFIX.length()));
            if (offset < 0) {
                throw McpError.invalidParams("Invalid cursor");
            }
            return offset;
        } catch (IllegalArgumentException e) {
            throw McpError.invalidParams("Invalid cursor");
        }
    }

    static String clip(String text) {
        String printable = text.replaceAll("[\\p{Cntrl}]", "?");
        return printable.length() <= 100 ? printable : printable.substring(0, 100) + "…";
    }
}
