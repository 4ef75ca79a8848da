package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.IdentityMemo;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.upstreams.control.BoundedExchange;
import dev.amcp.gateway.upstreams.control.OutboundHttp;
import dev.amcp.gateway.upstreams.control.UpstreamCredentials;
import dev.amcp.gateway.upstreams.control.UpstreamDirectory;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Matcher;

/**
 * Calls the upstream of an HTTP tool with the JDK {@link HttpClient}. Upstream errors, timeouts, non-JSON and
 * oversize bodies become tool errors with a clear message. Redirects are not followed, so a tool cannot be bounced
 * to a host its admin did not name.
 * <p>
 * Every call passes {@link UpstreamRules#resolveForCall} (or its workspace form) and is sent by {@link OutboundHttp}
 * to the address the rule checked.
 */
@ApplicationScoped
public class HttpToolInvoker implements ToolInvoker {

    static final String MAX_BYTES_SETTING = "AMCP_UPSTREAM_MAX_BYTES";
    private static final int SNIPPET = 200;

    @Inject
    Settings settings;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamDirectory directory;

    @Inject
    UpstreamCredentials credentials;

    @Inject
    OutboundHttp http;

    /** A mapping ready to call: read and checked, settings put into its URL, the URL split at its {arguments}. */
    record Prepared(HttpEndpointMapping mapping, List<String> urlParts) {}

    /** A cached tool keeps its mapping object, so it is prepared once rather than on every call. */
    private final IdentityMemo<JsonObject, Prepared> prepared = new IdentityMemo<>(1024, this::prepare);

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
            sender = http.clientFor(call.target());
        } catch (IllegalArgumentException e) {
            return ToolResult.error("Tool '" + tool.getName() + "' cannot call its upstream: " + e.getMessage());
        }
        long maxBytes = settings.getLong(MAX_BYTES_SETTING, 1024 * 1024);
        try (Tracing.Span span = upstreamSpan(request)) {
            HttpResponse<byte[]> response = BoundedExchange.send(sender, withTrace(request, span), maxBytes);
            span.attribute("http.response.status_code", response.statusCode());
            if (response.statusCode() >= 400) {
                span.fail("HTTP " + response.statusCode());
            }
            byte[] body = response.body();
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
        long timeoutMs = mapping.timeoutMs() != null ? mapping.timeoutMs() : settings.getLong(OutboundHttp.TIMEOUT_SETTING, 10_000);
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
        http.pinHost(builder, checked);
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

    /** The configured credential's header ({@code AMCP_CREDENTIAL_<NAME>_HEADER}, default Authorization); checked by then. */
    private void addCredential(HttpRequest.Builder builder, String credential) {
        if (credential != null) {
            Map.Entry<String, String> header = credentials.staticHeader(credential);
            builder.setHeader(header.getKey(), header.getValue());
        }
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
