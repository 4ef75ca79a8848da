package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.IdentityMemo;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.entity.CheckedUpstream;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Calls the upstream of an HTTP tool with the JDK {@link HttpClient}. Upstream errors, timeouts, non-JSON and
 * oversize bodies become tool errors with a clear message. Redirects are not followed, so a tool cannot be bounced
 * to a host its admin did not name.
 * <p>
 * Every call passes {@link UpstreamRules#resolveForCall} and connects to the address it checked: the JDK client has
 * no per-client resolver, so the request goes to that address as its URL host, with the name in the {@code Host}
 * header and, for HTTPS, in SNI through a client per host name (the JDK checks the certificate against the SNI name).
 * Sending {@code Host} needs {@code jdk.httpclient.allowRestrictedHeaders=host}, which this class sets before the JDK
 * client first reads it (at start, ahead of any other client of this application).
 */
@ApplicationScoped
public class HttpToolInvoker implements ToolInvoker {

    static final String TIMEOUT_SETTING = "AMCP_UPSTREAM_TIMEOUT_MS";
    static final String MAX_BYTES_SETTING = "AMCP_UPSTREAM_MAX_BYTES";
    static final String RESTRICTED_HEADERS = "jdk.httpclient.allowRestrictedHeaders";
    private static final int SNIPPET = 200;
    private static final Logger LOG = Logger.getLogger(HttpToolInvoker.class.getName());

    static {
        String allowed = System.getProperty(RESTRICTED_HEADERS, "");
        if (Arrays.stream(allowed.split(",")).map(String::strip).noneMatch("host"::equalsIgnoreCase)) {
            System.setProperty(RESTRICTED_HEADERS, allowed.isBlank() ? "host" : allowed + ",host");
        }
    }

    @Inject
    Settings settings;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamDirectory directory;

    @Inject
    UpstreamCredentials credentials;

    private HttpClient client;
    /** HTTPS clients by host name, each sending that name in SNI; the names are bounded by the operator's settings. */
    private final Map<String, HttpClient> tlsClients = new ConcurrentHashMap<>();
    private boolean hostHeaderAllowed;

    /** A mapping ready to call: read and checked, settings put into its URL, the URL split at its {arguments}. */
    record Prepared(HttpEndpointMapping mapping, List<String> urlParts) {}

    /** A cached tool keeps its mapping object, so it is prepared once rather than on every call. */
    private final IdentityMemo<JsonObject, Prepared> prepared = new IdentityMemo<>(1024, this::prepare);

    @PostConstruct
    void init() {
        client = newClient().build();
        try {
            HttpRequest.newBuilder().header("Host", "probe");
            hostHeaderAllowed = true;
        } catch (IllegalArgumentException e) {
            LOG.severe("This JVM's HTTP client was started before the gateway could allow the Host header; HTTP tools whose "
                    + "URL names a host will be refused. Start the server with -D" + RESTRICTED_HEADERS + "=host");
        }
    }

    /** Created at start, before other beans of this application create JDK HTTP clients (see the class comment). */
    void createOnStart(@Observes @Priority(Migrations.PRIORITY) Startup startup) {
        // creating the bean is the point
    }

    static HttpClient.Builder newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                // The response handling only queues buffers for the calling thread, so it can run on the client's
                // selector thread; the default pool added a thread hand-off to every call.
                .executor(Runnable::run);
    }

    HttpClient clientFor(CheckedUpstream target) {
        if (!target.named() || !"https".equalsIgnoreCase(target.uri().getScheme())) {
            return client;
        }
        return tlsClients.computeIfAbsent(target.serverName(), name -> {
            try {
                return tlsClient(name, SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("No default TLS context", e);
            }
        });
    }

    /** A client that sends this name in SNI even to an address URL; the JDK then checks the certificate against it. */
    static HttpClient tlsClient(String serverName, SSLContext context) {
        SSLParameters parameters = context.getDefaultSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        return newClient().sslContext(context).sslParameters(parameters).build();
    }

    @Override
    public boolean handles(String method) {
        return McpTool.HTTP_METHODS.contains(method);
    }

    @Override
    public ToolResult invoke(Caller caller, McpTool tool, JsonObject args) {
        HttpRequest request;
        HttpClient sender;
        try {
            Prepared ready = prepared.apply(tool.getEndpointMapping());
            String upstreamName = ready.mapping().upstream();
            UpstreamDirectory.UpstreamRef upstream = upstreamName == null ? null : directory.upstream(tool.getWorkspaceId(), upstreamName)
                    .orElseThrow(() -> new IllegalArgumentException("its upstream '" + upstreamName + "' is no longer in this workspace"));
            Call call = buildRequest(ready, args, upstream, caller, upstream == null ? directory.grants(tool.getWorkspaceId()) : Set.of());
            request = call.request();
            sender = clientFor(call.target());
        } catch (IllegalArgumentException e) {
            return ToolResult.error("Tool '" + tool.getName() + "' cannot call its upstream: " + e.getMessage());
        }
        long maxBytes = settings.getLong(MAX_BYTES_SETTING, 1024 * 1024);
        try (Tracing.Span span = upstreamSpan(request)) {
            HttpResponse<InputStream> response = sender.send(withTrace(request, span), HttpResponse.BodyHandlers.ofInputStream());
            span.attribute("http.response.status_code", response.statusCode());
            if (response.statusCode() >= 400) {
                span.fail("HTTP " + response.statusCode());
            }
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 1, maxBytes + 1));
            }
            if (body.length > maxBytes) {
                return ToolResult.error("Upstream response is larger than the " + maxBytes + "-byte limit; ask for less (filter or page the request)");
            }
            return toResult(response, new String(body, StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            return ToolResult.error("Upstream did not answer within " + request.timeout().map(Duration::toMillis).orElse(0L) + " ms");
        } catch (IOException e) {
            return ToolResult.error("Upstream is unreachable (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("The call was interrupted");
        }
    }

    /**
     * The upstream call's span (OpenTelemetry's HTTP client conventions). The query string stays out: it may carry
     * secrets; the host is the tool's own (the request URL carries the checked address).
     */
    private static Tracing.Span upstreamSpan(HttpRequest request) {
        return Tracing.client(request.method()).attribute("http.request.method", request.method())
                .attribute("server.address", request.headers().firstValue("Host").orElse(request.uri().getHost()))
                .attribute("url.path", request.uri().getRawPath());
    }

    /** The request with the span's {@code traceparent}, so the upstream continues the trace; unchanged when tracing is off. */
    static HttpRequest withTrace(HttpRequest request, Tracing.Span span) {
        Map<String, String> headers = span.headers();
        if (headers.isEmpty()) {
            return request;
        }
        HttpRequest.Builder traced = HttpRequest.newBuilder(request, (name, value) -> true);
        headers.forEach(traced::setHeader);
        return traced.build();
    }

    /** A document fetched from an upstream: status, content type, and the body (at most the cap, {@code tooLarge} past it). */
    public record Fetched(int status, String contentType, byte[] body, boolean tooLarge) {}

    /**
     * Fetches a document (such as an OpenAPI description) with a GET through the same rules as every tool call: the
     * URL may start with an {@code ${AMCP_UPSTREAM_<NAME>}} base, must pass {@link UpstreamRules}, connects to the
     * checked address, follows no redirect, and sends a credential only to its own upstream. Reads at most
     * {@code maxBytes} (one more marks it too large). A refused URL is an {@code InvalidInputException}; an unreachable
     * or silent upstream an {@code IllegalArgumentException} with the reason.
     */
    public Fetched fetch(String urlTemplate, String credential, Set<String> granted, long maxBytes) {
        URI target;
        try {
            target = new URI(upstreams.expandBases(urlTemplate));
        } catch (java.net.URISyntaxException e) {
            throw new dev.amcp.gateway.platform.entity.InvalidInputException(dev.amcp.gateway.platform.entity.Message.of(
                    "problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason()));
        }
        upstreams.checkOperatorUpstream(target, credential, granted);
        CheckedUpstream checked = upstreams.resolveForCall(target);
        HttpRequest.Builder builder = documentRequest(checked);
        addCredential(builder, credential);
        return fetched(builder, checked, target, maxBytes);
    }

    /** The same fetch at a path under a workspace upstream, with its credential; the workspace rule judges it. */
    public Fetched fetch(UpstreamDirectory.UpstreamRef upstream, String path, Caller caller, long maxBytes) {
        URI target;
        try {
            target = new URI(upstream.base() + path);
        } catch (java.net.URISyntaxException e) {
            throw new dev.amcp.gateway.platform.entity.InvalidInputException(dev.amcp.gateway.platform.entity.Message.of(
                    "problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason()));
        }
        CheckedUpstream checked = upstreams.resolveForWorkspaceCall(target, upstream.base(), directory.egressRules());
        HttpRequest.Builder builder = documentRequest(checked);
        credentials.header(upstream, caller).ifPresent(header -> builder.setHeader(header.getKey(), header.getValue()));
        return fetched(builder, checked, target, maxBytes);
    }

    private HttpRequest.Builder documentRequest(CheckedUpstream checked) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(checked.pinnedUri())
                .timeout(Duration.ofMillis(settings.getLong(TIMEOUT_SETTING, 10_000)))
                .header("Accept", "application/json, application/yaml, text/yaml, */*").GET();
        pinHost(builder, checked);
        return builder;
    }

    private Fetched fetched(HttpRequest.Builder builder, CheckedUpstream checked, URI target, long maxBytes) {
        try {
            HttpResponse<InputStream> response = clientFor(checked).send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 1, maxBytes + 1));
                return new Fetched(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                        body.length > maxBytes ? Arrays.copyOf(body, (int) maxBytes) : body, body.length > maxBytes);
            }
        } catch (HttpTimeoutException e) {
            throw new IllegalArgumentException(target.getHost() + " did not answer in time (" + TIMEOUT_SETTING + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(target.getHost() + " is unreachable (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("the fetch was interrupted");
        }
    }

    /** A request ready to send, and the checked upstream it goes to. */
    record Call(HttpRequest request, CheckedUpstream target) {}

    Prepared prepare(JsonObject json) {
        HttpEndpointMapping mapping = HttpEndpointMapping.from(json);
        String url = upstreams.expandBases(mapping.url());
        List<String> parts = new ArrayList<>();
        Matcher path = HttpEndpointMapping.PATH_PARAM.matcher(url);
        int textStart = 0;
        while (path.find()) {
            parts.add(url.substring(textStart, path.start()));
            parts.add(path.group(1));
            textStart = path.end();
        }
        parts.add(url.substring(textStart));
        return new Prepared(mapping, List.copyOf(parts));
    }

    /** For unit tests: a call of a workspace holding every operator grant. */
    Call buildRequest(Prepared prepared, JsonObject args) {
        return buildRequest(prepared, args, null, null, upstreams.operatorNames());
    }

    /**
     * The request for these arguments. Under a workspace upstream ({@code upstream} not null) the URL is its base plus
     * the mapping's relative URL, the workspace rule judges it, and the upstream's own credential goes with it.
     */
    Call buildRequest(Prepared prepared, JsonObject args, UpstreamDirectory.UpstreamRef upstream, Caller caller, Set<String> granted) {
        HttpEndpointMapping mapping = prepared.mapping();
        Set<String> consumed = new HashSet<>();
        StringBuilder resolved = new StringBuilder(upstream == null ? "" : upstream.base().toString());
        List<String> parts = prepared.urlParts();
        for (int i = 0; i < parts.size(); i++) {
            if (i % 2 == 0) {
                resolved.append(parts.get(i));
                continue;
            }
            String name = parts.get(i);
            JsonValue value = args.get(name);
            if (value == null || value == JsonValue.NULL) {
                throw new IllegalArgumentException("missing path argument '" + name + "'");
            }
            consumed.add(name);
            String text = scalar(value);
            if (text.isEmpty()) {
                throw new IllegalArgumentException("path argument '" + name + "' is empty");
            }
            if (UpstreamRules.walksPath(text)) {
                throw new IllegalArgumentException("path argument '" + name + "' may not be '.' or '..' (also percent-encoded) or contain such a segment");
            }
            resolved.append(encode(text));
        }
        StringJoiner query = new StringJoiner("&");
        for (Map.Entry<String, String> q : mapping.query().entrySet()) {
            JsonValue value = args.get(q.getValue());
            consumed.add(q.getValue());
            if (value instanceof jakarta.json.JsonArray items) {
                items.forEach(item -> query.add(encode(q.getKey()) + "=" + encode(scalar(item)))); // OpenAPI's form style
            } else if (value != null && value != JsonValue.NULL) {
                query.add(encode(q.getKey()) + "=" + encode(scalar(value)));
            }
        }
        String uri = resolved + (query.length() == 0 ? "" : (resolved.indexOf("?") >= 0 ? "&" : "?") + query);
        long timeoutMs = mapping.timeoutMs() != null ? mapping.timeoutMs() : settings.getLong(TIMEOUT_SETTING, 10_000);
        URI target = URI.create(uri);
        CheckedUpstream checked;
        if (upstream == null) {
            upstreams.checkOperatorUpstream(target, mapping.credential(), granted);
            checked = upstreams.resolveForCall(target);
        } else {
            checked = upstreams.resolveForWorkspaceCall(target, upstream.base(), directory.egressRules());
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(checked.pinnedUri())
                .timeout(Duration.ofMillis(timeoutMs))
                .header("Accept", "application/json");
        mapping.headers().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("Host")) {
                builder.setHeader(name, value);
            }
        });
        pinHost(builder, checked);
        mapping.headerArgs().forEach((header, arg) -> {
            JsonValue value = args.get(arg);
            consumed.add(arg);
            if (value != null && value != JsonValue.NULL) {
                String text = scalar(value);
                if (text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                    throw new IllegalArgumentException("header argument '" + arg + "' may not contain control characters");
                }
                builder.setHeader(header, text);
            }
        });
        if (upstream == null) {
            addCredential(builder, mapping.credential());
        } else {
            credentials.header(upstream, caller).ifPresent(header -> builder.setHeader(header.getKey(), header.getValue()));
        }
        if (mapping.sendsBody()) {
            JsonObjectBuilder body = JsonSupport.JSON.createObjectBuilder();
            args.forEach((k, v) -> {
                boolean listed = mapping.body() == null ? !consumed.contains(k) : mapping.body().contains(k);
                if (listed) {
                    body.add(mapping.bodyNames().getOrDefault(k, k), v);
                }
            });
            builder.method(mapping.method(), HttpRequest.BodyPublishers.ofString(body.build().toString()))
                    .header("Content-Type", "application/json");
        } else {
            builder.method(mapping.method(), HttpRequest.BodyPublishers.noBody());
        }
        return new Call(builder.build(), checked);
    }

    /** The Host header of a pinned request whose URL names its host (the URL itself carries the checked address). */
    void pinHost(HttpRequest.Builder builder, CheckedUpstream checked) {
        if (checked.named()) {
            if (!hostHeaderAllowed) {
                throw new IllegalArgumentException("this server's JVM does not let the gateway pin the upstream's address "
                        + "(start it with -D" + RESTRICTED_HEADERS + "=host)");
            }
            builder.setHeader("Host", checked.hostHeader());
        }
    }

    /** The configured credential's header ({@code AMCP_CREDENTIAL_<NAME>_HEADER}, default Authorization); checked by then. */
    private void addCredential(HttpRequest.Builder builder, String credential) {
        if (credential != null) {
            Map.Entry<String, String> header = credentialHeader(credential);
            builder.setHeader(header.getKey(), header.getValue());
        }
    }

    /** A static credential's header: name and secret value; the MCP upstream invoker sends the same. */
    Map.Entry<String, String> credentialHeader(String credential) {
        String name = credential.toUpperCase(java.util.Locale.ROOT);
        String secret = settings.get("AMCP_CREDENTIAL_" + name + "_VALUE")
                .orElseThrow(() -> new IllegalArgumentException("credential " + name + " is not configured (set AMCP_CREDENTIAL_" + name + "_VALUE)"));
        return Map.entry(settings.get("AMCP_CREDENTIAL_" + name + "_HEADER", "Authorization"), secret);
    }

    static ToolResult toResult(HttpResponse<?> response, String body) {
        int status = response.statusCode();
        String contentType = response.headers().firstValue("Content-Type").orElse("none");
        if (status < 200 || status >= 300) {
            return ToolResult.error("Upstream answered HTTP " + status + (body.isBlank() ? "" : ": " + snippet(body)));
        }
        if (body.isBlank()) {
            return ToolResult.json(JsonSupport.JSON.createObjectBuilder().add("status", status).build());
        }
        try {
            return ToolResult.json(JsonSupport.parse(body));
        } catch (IllegalArgumentException e) {
            return ToolResult.error("Upstream answered with a non-JSON body (Content-Type " + contentType + "): " + snippet(body));
        }
    }

    private static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= SNIPPET ? flat : flat.substring(0, SNIPPET) + "…";
    }

    private static String scalar(JsonValue value) {
        return value.getValueType() == JsonValue.ValueType.STRING ? ((JsonString) value).getString() : value.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
