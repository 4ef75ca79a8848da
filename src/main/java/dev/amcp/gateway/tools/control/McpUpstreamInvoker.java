package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.tools.entity.UpstreamListChanged;
import dev.amcp.gateway.upstreams.control.OutboundHttp;
import dev.amcp.gateway.upstreams.control.UpstreamAccounts;
import dev.amcp.gateway.upstreams.control.UpstreamCredentials;
import dev.amcp.gateway.upstreams.control.UpstreamDirectory;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import dev.amcp.gateway.upstreams.entity.UpstreamAccountClosed;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs tools of upstream MCP servers (method {@code MCP}, mapping {@code {"upstreamId", "tool"}}) with the official
 * MCP Java SDK client over Streamable HTTP. One client per upstream, opened on first use and kept (closed when the
 * upstream is deleted or the application stops, and dropped after a transport failure so the next call reconnects).
 * <p>
 * Every connection passes {@link UpstreamRules}: the URL is checked and resolved once, the client connects to that
 * address (the name in {@code Host} and SNI, as the HTTP invoker does) and a credential goes only to its own upstream.
 * The caller's cancellation becomes {@code notifications/cancelled} for the upstream request; the upstream's progress
 * goes to the caller's {@link CallContext}; an upstream error becomes a tool error carrying its message.
 */
@ApplicationScoped
public class McpUpstreamInvoker implements ToolInvoker, CancellationListener {

    public static final String METHOD = "MCP";
    public static final String TIMEOUT_SETTING = "AMCP_UPSTREAM_MCP_TIMEOUT_MS";
    static final long DEFAULT_TIMEOUT_MS = 60_000;
    /** How long a cancellation waits for the upstream to take {@code notifications/cancelled} before the call ends anyway. */
    static final Duration CANCELLATION_SEND_WAIT = Duration.ofSeconds(2);
    private static final Logger LOG = Logger.getLogger(McpUpstreamInvoker.class.getName());
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final tools.jackson.core.type.TypeReference<Map<String, Object>> MAP = new tools.jackson.core.type.TypeReference<>() {};

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    UpstreamRules upstreams;

    @Inject
    OutboundHttp http;

    @Inject
    UpstreamDirectory directory;

    @Inject
    UpstreamCredentials credentials;

    @Inject
    UpstreamAccounts accounts;

    @Inject
    Settings settings;

    @Inject
    Event<UpstreamListChanged> listChanged;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ContextService contexts;

    /** Open clients: one per upstream, and one per person at a per-person upstream. */
    private final Map<ConnectionKey, Connection> connections = new ConcurrentHashMap<>();
    /** Calls in flight by the caller's request key, for cancellation. */
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    /** The caller's context by the progress token sent upstream, for relaying progress. */
    private final Map<String, CallContext> progress = new ConcurrentHashMap<>();

    /**
     * An open client to one upstream, with the transport that remembers which request id carried which token. At a
     * per-person upstream, {@code bearer} holds the person's access token as last checked on the calling thread
     * ({@link UpstreamAccounts#bearer}); the SDK's requests read it from its own threads.
     */
    record Connection(ConnectionKey key, String url, McpAsyncClient client, RecordingTransport transport, String workspaceUpstream,
                      AtomicReference<String> bearer) {}

    /** A connection's upstream, and its person at a per-person upstream (else null). */
    record ConnectionKey(long upstreamId, Long userId) {}

    /** Where an upstream server's requests go (checked when the connection opens) and the header each request carries. */
    private record Route(CheckedUpstream checked, Supplier<Optional<Map.Entry<String, String>>> header) {}

    record InFlight(Connection connection, String token, CompletableFuture<McpSchema.CallToolResult> result) {}

    @Override
    public boolean handles(String method) {
        return METHOD.equals(method);
    }

    /** The upstream call's client span; its trace context goes in the request's {@code _meta} (SEP-414). */
    @Override
    public ToolResult invoke(Caller caller, McpTool tool, JsonObject args) {
        String upstreamTool = tool.getEndpointMapping().getString("tool");
        try (Tracing.Span span = Tracing.client("tools/call " + upstreamTool).attribute("mcp.method.name", "tools/call")
                .attribute("gen_ai.tool.name", upstreamTool)) {
            ToolResult result = call(caller, tool, args, span.headers());
            if (result.isError()) {
                span.fail("tool error");
            }
            return result;
        }
    }

    /**
     * The upstream's {@code tools/call}: the trace context in {@code _meta} beside the progress token (a fresh one per
     * call, so the upstream's progress finds its caller).
     */
    static McpSchema.CallToolRequest request(String upstreamTool, Map<String, Object> arguments, String progressToken,
                                             Map<String, String> traceContext) {
        return McpSchema.CallToolRequest.builder().name(upstreamTool).arguments(arguments)
                .meta(new HashMap<>(traceContext)).progressToken(progressToken).build();
    }

    private ToolResult call(Caller caller, McpTool tool, JsonObject args, Map<String, String> traceContext) {
        JsonObject mapping = tool.getEndpointMapping();
        long upstreamId = mapping.getJsonNumber("upstreamId").longValue();
        Connection connection;
        try {
            connection = connection(upstreamId, tool.getWorkspaceId(), caller);
        } catch (UpstreamAccounts.AccountNeeded e) {
            return ToolResult.error("Tool '" + tool.getName() + "' needs your own account: " + e.getMessage());
        } catch (InvalidInputException e) {
            return ToolResult.error("Tool '" + tool.getName() + "' cannot call its upstream MCP server: " + e.problem().english());
        } catch (RuntimeException e) {
            return ToolResult.error("The upstream MCP server of tool '" + tool.getName() + "' is unreachable (" + reason(e) + ")");
        }
        if (connection.workspaceUpstream() != null) {
            directory.upstream(tool.getWorkspaceId(), connection.workspaceUpstream()).ifPresent(ref -> credentials.noteUse(ref, caller));
        }
        CallContext context = CallContext.current();
        String token = UUID.randomUUID().toString();
        progress.put(token, context);
        McpSchema.CallToolRequest request = request(mapping.getString("tool"), MAPPER.readValue(args.toString(), MAP), token, traceContext);
        CompletableFuture<McpSchema.CallToolResult> result = connection.client().callTool(request).toFuture();
        InFlight call = new InFlight(connection, token, result);
        String key = context.requestKey();
        if (key != null) {
            inFlight.put(key, call);
        }
        try {
            if (context.isCancelled()) {
                cancelUpstream(call, context.cancelReason());
            }
            return toResult(result.get(timeoutMs() + 1000, TimeUnit.MILLISECONDS));
        } catch (CancellationException e) {
            return ToolResult.error("The call was cancelled" + (context.cancelReason() == null || context.cancelReason().isBlank() ? "" : ": " + context.cancelReason()));
        } catch (TimeoutException e) {
            cancelUpstream(call, "timed out");
            return ToolResult.error("The upstream MCP server did not answer within " + timeoutMs() + " ms (" + TIMEOUT_SETTING + ")");
        } catch (ExecutionException e) {
            return failure(connection, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancelUpstream(call, "interrupted");
            return ToolResult.error("The call was interrupted");
        } finally {
            progress.remove(token);
            connection.transport().forget(token);
            if (key != null) {
                inFlight.remove(key, call);
            }
        }
    }

    /** Forwards a caller's cancellation of a call in flight here to its upstream. */
    @Override
    public void cancelled(String requestKey, String reason) {
        InFlight call = inFlight.get(requestKey);
        if (call != null) {
            cancelUpstream(call, reason);
        }
    }

    /**
     * Tells the upstream, then ends the call here: the caller's "cancelled" answer comes only once the upstream has
     * taken the notification (or failed to, or {@link #CANCELLATION_SEND_WAIT} passed), so the caller never sees its
     * call over while the upstream still works on it unaware.
     */
    private void cancelUpstream(InFlight call, String reason) {
        Object requestId = call.connection().transport().requestIdOf(call.token());
        if (requestId == null) {
            call.result().cancel(true);
            return;
        }
        call.connection().transport().sendMessage(cancellation(requestId, reason))
                .timeout(CANCELLATION_SEND_WAIT)
                .doOnError(e -> LOG.fine(() -> "Forwarding a cancellation failed: " + e))
                .onErrorComplete()
                .doFinally(signal -> call.result().cancel(true))
                .subscribe();
    }

    /** The {@code notifications/cancelled} the upstream gets for its request. */
    static McpSchema.JSONRPCNotification cancellation(Object requestId, String reason) {
        Map<String, Object> params = reason == null || reason.isBlank() ? Map.of("requestId", requestId)
                : Map.of("requestId", requestId, "reason", reason);
        return new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled", params);
    }

    private ToolResult failure(Connection connection, Throwable cause) {
        if (cause instanceof McpError error) {
            String message = error.getJsonRpcError() == null ? error.getMessage() : error.getJsonRpcError().message();
            return ToolResult.error("The upstream MCP server answered an error: " + message);
        }
        if (cause instanceof TimeoutException || cause != null && cause.getCause() instanceof TimeoutException) {
            return ToolResult.error("The upstream MCP server did not answer within " + timeoutMs() + " ms (" + TIMEOUT_SETTING + ")");
        }
        close(connection.key()); // the session may be gone; the next call opens a new one
        for (Throwable c = cause; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof InvalidInputException refused) { // the upstream rule, checked again for this request
                return ToolResult.error("The upstream MCP server may not be called now: " + refused.problem().english());
            }
        }
        return ToolResult.error("The upstream MCP server is unreachable (" + reason(cause) + ")");
    }

    /** An upstream result as a tool result: its text, its structured content, and its error flag with its message. */
    static ToolResult toResult(McpSchema.CallToolResult result) {
        StringJoiner text = new StringJoiner("\n");
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            if (content instanceof McpSchema.TextContent t) {
                text.add(t.text());
            } else if (content instanceof McpSchema.ImageContent i) {
                text.add("[image " + i.mimeType() + "]");
            } else if (content instanceof McpSchema.AudioContent a) {
                text.add("[audio " + a.mimeType() + "]");
            } else if (content instanceof McpSchema.ResourceLink link) {
                text.add("[resource " + link.uri() + "]");
            } else if (content instanceof McpSchema.EmbeddedResource r) {
                text.add("[resource " + r.resource().uri() + "]");
            }
        }
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.error(text.length() == 0 ? "The upstream tool failed without a message" : text.toString());
        }
        JsonValue structured = result.structuredContent() == null ? null : JsonSupport.parse(MAPPER.writeValueAsString(result.structuredContent()));
        if (structured instanceof JsonObject object) {
            return new ToolResult(text.length() == 0 ? object.toString() : text.toString(), object, object, false);
        }
        return new ToolResult(text.toString(), null, structured, false);
    }

    // ---- discovery ----

    /**
     * Every tool the upstream lists, page by page, over a connection of its own that is closed afterwards; at a
     * per-person upstream with that person's access token ({@code bearer}).
     */
    public List<McpSchema.Tool> listTools(UpstreamServer upstream, String bearer) {
        Connection connection = open(upstream, false, null, bearer);
        try {
            List<McpSchema.Tool> tools = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                McpSchema.ListToolsResult page = connection.client().listTools(cursor).block(Duration.ofMillis(timeoutMs()));
                tools.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty() && ++pages < 100);
            return tools;
        } finally {
            connection.client().close();
        }
    }

    /** The schema of an upstream tool as JSON, or null. */
    public static JsonObject json(Map<String, Object> schema) {
        return schema == null ? null : JsonSupport.parseObject(MAPPER.writeValueAsString(schema));
    }

    // ---- connections ----

    /** The open client for this call; at a per-person upstream the caller's own, with their token checked just now. */
    private Connection connection(long upstreamId, long workspaceId, Caller caller) throws UpstreamAccounts.AccountNeeded {
        ConnectionKey shared = new ConnectionKey(upstreamId, null);
        Connection open = connections.get(shared);
        if (open != null) {
            return open;
        }
        UpstreamServer upstream = em.find(UpstreamServer.class, upstreamId);
        if (upstream == null || upstream.getWorkspaceId() != workspaceId) {
            throw new IllegalStateException("the upstream server was deleted");
        }
        if (!upstream.isPerPerson()) {
            return connections.computeIfAbsent(shared, key -> open(upstream, true, key, null));
        }
        String bearer = accounts.bearer(caller, upstream); // the one place a token is read, on this thread, in a transaction
        Connection personal = connections.computeIfAbsent(new ConnectionKey(upstreamId, caller.userId()), key -> open(upstream, true, key, bearer));
        personal.bearer().set(bearer);
        return personal;
    }

    /** Closes every client of an upstream (deleted, changed, or broken); the next call opens a new one. */
    public void close(long upstreamId) {
        List.copyOf(connections.keySet()).stream().filter(k -> k.upstreamId() == upstreamId).forEach(this::close);
    }

    /** Closes one person's client of a per-person upstream (disconnected); the next call finds no account. */
    void close(@Observes UpstreamAccountClosed closed) {
        close(new ConnectionKey(closed.upstreamServerId(), closed.userId()));
    }

    private void close(ConnectionKey key) {
        Connection connection = connections.remove(key);
        if (connection != null) {
            connection.client().close();
        }
    }

    @PreDestroy
    void closeAll() {
        List.copyOf(connections.keySet()).forEach(this::close);
    }

    /**
     * The route of an upstream server. Under a workspace upstream: its base plus the server's path, the workspace rule
     * (checked again per request, so a narrowed ceiling stops the next request), and that upstream's credential looked
     * up per request (a new secret counts at once, a removed upstream stops the calls). Else the operator's rule: the credential under its own base, and the operator's grant of every base
     * the URL is under, asked again per request so a revoked grant counts at once.
     */
    private Route route(UpstreamServer upstream, AtomicReference<String> bearer) {
        long workspaceId = upstream.getWorkspaceId();
        String name = upstream.getUpstream();
        Supplier<Optional<Map.Entry<String, String>>> personal = () -> Optional.of(Map.entry("Authorization", "Bearer " + bearer.get()));
        if (name != null) {
            UpstreamDirectory.UpstreamRef ref = workspaceUpstream(workspaceId, name);
            CheckedUpstream checked = upstreams.resolveForWorkspaceCall(uri(ref.base() + upstream.getUrl()), ref.base(), directory.egressRules());
            return new Route(checked, () -> {
                // per request, as for the operator's grants: a narrowed ceiling or a moved base stops the next request
                UpstreamDirectory.UpstreamRef now = workspaceUpstream(workspaceId, name);
                if (!now.base().equals(ref.base())) {
                    throw new IllegalStateException("its upstream '" + name + "' now has another base URL; the next call connects there");
                }
                upstreams.checkWorkspaceBase(uri(now.base() + upstream.getUrl()), directory.egressRules());
                return upstream.isPerPerson() ? personal.get() : credentials.header(now);
            });
        }
        URI target = uri(upstreams.expandBases(upstream.getUrl()));
        String credential = upstream.getCredential();
        upstreams.checkOperatorUpstream(target, credential, directory.grants(workspaceId));
        return new Route(upstreams.resolveForCall(target), () -> {
            upstreams.checkOperatorUpstream(target, credential, directory.grants(workspaceId));
            return upstream.isPerPerson() ? personal.get() : credential == null ? Optional.empty() : Optional.of(credentials.header(credential));
        });
    }

    /** The URL of an upstream server as its sign-in discovery starts from: checked at save, expanded. */
    public URI resource(UpstreamServer upstream) {
        String name = upstream.getUpstream();
        return name == null ? uri(upstreams.expandBases(upstream.getUrl()))
                : uri(workspaceUpstream(upstream.getWorkspaceId(), name).base() + upstream.getUrl());
    }

    private UpstreamDirectory.UpstreamRef workspaceUpstream(long workspaceId, String name) {
        return directory.upstream(workspaceId, name)
                .orElseThrow(() -> new IllegalArgumentException("its upstream '" + name + "' is no longer in this workspace"));
    }

    private static URI uri(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("its URL is not valid: " + e.getReason());
        }
    }

    private Connection open(UpstreamServer upstream, boolean watch, ConnectionKey key, String bearer) {
        AtomicReference<String> personal = upstream.isPerPerson() ? new AtomicReference<>(bearer) : null;
        if (personal != null && bearer == null) {
            throw new IllegalArgumentException("it acts with each person's own account, and none was given");
        }
        Route route = route(upstream, personal);
        CheckedUpstream checked = route.checked();
        // The SDK sends some requests from its own threads (notifications/initialized once the event stream is open,
        // its re-listing after list_changed), and the per-request check reads the database: Liberty's JPA fails on a
        // thread without the application's context (a NullPointerException on the UOW coordinator), so the check
        // runs with the context of the thread that opened the connection.
        Supplier<Optional<Map.Entry<String, String>>> header = contexts.contextualSupplier(route.header());
        URI pinned = checked.pinnedUri();
        String base = pinned.getScheme() + "://" + pinned.getRawAuthority();
        String endpoint = (pinned.getRawPath() == null || pinned.getRawPath().isEmpty() ? "/" : pinned.getRawPath())
                + (pinned.getRawQuery() == null ? "" : "?" + pinned.getRawQuery());
        EventStreamOpening eventStream = new EventStreamOpening();
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint)
                .clientBuilder(eventStream.watching(clientBuilder(checked)))
                .connectTimeout(Duration.ofSeconds(5))
                .httpRequestCustomizer((builder, method, uri, body, context) -> {
                    http.pinHost(builder, checked);
                    header.get().ifPresent(h -> builder.setHeader(h.getKey(), h.getValue()));
                })
                .build();
        RecordingTransport recording = new RecordingTransport(transport, eventStream);
        long upstreamId = upstream.getId() == null ? -1 : upstream.getId();
        McpClient.AsyncSpec spec = McpClient.async(recording)
                .clientInfo(new McpSchema.Implementation("amcp-gateway", "1"))
                .requestTimeout(Duration.ofMillis(timeoutMs()))
                .initializationTimeout(Duration.ofMillis(Math.min(timeoutMs(), 30_000)))
                .progressConsumer(notification -> {
                    CallContext context = progress.get(String.valueOf(notification.progressToken()));
                    if (context != null) {
                        context.progress(notification.progress() == null ? 0 : notification.progress(), notification.total(), notification.message());
                    }
                    return Mono.empty();
                });
        if (watch) {
            spec.toolsChangeConsumer(tools -> {
                executor.execute(() -> listChanged.fire(new UpstreamListChanged(upstreamId)));
                return Mono.empty();
            });
        }
        McpAsyncClient client = spec.build();
        try {
            client.initialize().block(Duration.ofMillis(Math.min(timeoutMs(), 30_000)));
        } catch (RuntimeException e) {
            client.close();
            throw new IllegalArgumentException(reason(e), e);
        }
        return new Connection(key == null ? new ConnectionKey(upstreamId, null) : key, upstream.getUrl(), client, recording,
                upstream.getUpstream(), personal);
    }

    private static HttpClient.Builder clientBuilder(CheckedUpstream checked) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5));
        if (checked.named() && "https".equalsIgnoreCase(checked.uri().getScheme())) {
            try {
                SSLContext context = SSLContext.getDefault();
                SSLParameters parameters = context.getDefaultSSLParameters();
                parameters.setServerNames(List.of(new SNIHostName(checked.serverName())));
                builder.sslContext(context).sslParameters(parameters);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("No default TLS context", e);
            }
        }
        return builder;
    }

    private long timeoutMs() {
        return settings.getLong(TIMEOUT_SETTING, DEFAULT_TIMEOUT_MS);
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return Texts.clip(message, 200);
    }

    /**
     * The SDK's transport, remembering the JSON-RPC id of each {@code tools/call} by the progress token it carries: the
     * SDK does not send {@code notifications/cancelled} itself, and this is how the gateway learns which id to cancel.
     * It also holds {@code notifications/initialized} until the upstream's event stream is open ({@link EventStreamOpening}).
     */
    static final class RecordingTransport implements McpClientTransport {
        private final McpClientTransport delegate;
        private final EventStreamOpening eventStream;
        private final Map<String, Object> ids = new ConcurrentHashMap<>();

        RecordingTransport(McpClientTransport delegate, EventStreamOpening eventStream) {
            this.delegate = delegate;
            this.eventStream = eventStream;
        }

        Object requestIdOf(String token) {
            return ids.get(token);
        }

        void forget(String token) {
            ids.remove(token);
        }

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return delegate.connect(handler);
        }

        @Override
        public void setExceptionHandler(java.util.function.Consumer<Throwable> handler) {
            delegate.setExceptionHandler(handler);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            if (message instanceof McpSchema.JSONRPCRequest request && request.params() instanceof McpSchema.CallToolRequest call
                    && call.meta() != null && call.meta().get("progressToken") != null) {
                ids.put(String.valueOf(call.meta().get("progressToken")), request.id());
            }
            if (message instanceof McpSchema.JSONRPCNotification notification
                    && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(notification.method())) {
                return eventStream.beforeInitialized(Mono.defer(() -> delegate.sendMessage(message)));
            }
            return delegate.sendMessage(message);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return delegate.closeGracefully();
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return delegate.unmarshalFrom(data, type);
        }

        @Override
        public List<String> protocolVersions() {
            return delegate.protocolVersions();
        }
    }
}
