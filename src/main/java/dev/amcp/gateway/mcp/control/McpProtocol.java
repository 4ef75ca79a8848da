package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The MCP methods of a tools-only server: {@code initialize}, {@code ping}, {@code tools/list} and
 * {@code tools/call}, plus the notifications a client sends. Transport concerns (HTTP status, SSE, sessions) stay
 * in the boundary; everything here works on one already-authenticated, already-scoped {@link Exchange}.
 */
@ApplicationScoped
public class McpProtocol {

    public static final String PAGE_SIZE_SETTING = "AMCP_MCP_PAGE_SIZE";
    public static final String SERVER_NAME = "amcp-gateway";
    public static final String SERVER_VERSION = "0.1.0";
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
     */
    public record Exchange(Caller caller, boolean shared, String endpoint, String title, ProtocolVersion version,
                           String sessionTag) {

        public String requestKey(JsonValue id) {
            // a caller with an OAuth token has no key: its user tells it apart
            String who = caller.apiKeyId() != null ? "/key:" + caller.apiKeyId() : "/user:" + caller.userId();
            return "ws:" + caller.workspaceId() + who + "/session:" + sessionTag + "/id:" + id;
        }
    }

    /** Answers a request with its JSON-RPC response; never throws. {@code progress} may be null. */
    public JsonObject answer(Exchange exchange, JsonRpcMessage request, CallContext.ProgressSink progress) {
        try {
            return JsonRpcMessage.result(request.id(), result(exchange, request, progress));
        } catch (McpError e) {
            return JsonRpcMessage.error(e, request.id());
        } catch (ToolNotAvailableException e) {
            return JsonRpcMessage.error(request.id(), McpError.INVALID_PARAMS, "Unknown tool: '" + clip(e.toolName()) + "'");
        } catch (RuntimeException | StackOverflowError e) {
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
        return switch (request.method()) {
            case "initialize" -> initialize(exchange, request);
            case "ping" -> JsonValue.EMPTY_JSON_OBJECT;
            case "tools/list" -> listTools(exchange, request.params());
            case "tools/call" -> callTool(exchange, request, progress);
            default -> throw McpError.methodNotFound(clip(request.method()));
        };
    }

    private JsonObject initialize(Exchange exchange, JsonRpcMessage request) {
        ProtocolVersion version = negotiated(request);
        JsonValue capabilities = request.params().get("capabilities");
        if (capabilities != null && capabilities.getValueType() != JsonValue.ValueType.OBJECT) {
            throw McpError.invalidParams("params.capabilities must be an object");
        }
        String instructions = exchange.shared()
                ? "Tools of every MCP server of this workspace that your key's role may use."
                : "Tools of the MCP server '" + exchange.title() + "' that your key's role may use.";
        return new McpWire.InitializeResult(version,
                new McpWire.Implementation(SERVER_NAME, "AMCP Gateway", SERVER_VERSION), instructions).toJson();
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
        return new McpWire.ToolsPage(page, end < all.size() ? encodeCursor(end) : null).toJson(exchange.version());
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
        CallContext context = new CallContext(exchange.requestKey(request.id()), progress);
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
            return new McpWire.CallToolResult(result).toJson(exchange.version());
        } finally {
            cancellations.finished(context);
        }
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
