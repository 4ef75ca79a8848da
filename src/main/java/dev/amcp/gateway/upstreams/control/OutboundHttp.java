package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The JDK HTTP clients every outbound call of the gateway sends with, to the address {@link UpstreamRules} checked.
 * Redirects are not followed, so a call cannot be bounced to a host its admin did not name.
 * <p>
 * The JDK client has no per-client resolver, so a request goes to the checked address as its URL host, with the name
 * in the {@code Host} header and, for HTTPS, in SNI through a client per host name (the JDK checks the certificate
 * against the SNI name). Sending {@code Host} needs {@code jdk.httpclient.allowRestrictedHeaders=host}, which this
 * class sets before the JDK client first reads it (at start, ahead of any other client of this application).
 */
@ApplicationScoped
public class OutboundHttp {

    /** The timeout of an HTTP tool's call and of a document fetch. */
    public static final String TIMEOUT_SETTING = "AMCP_UPSTREAM_TIMEOUT_MS";
    static final String RESTRICTED_HEADERS = "jdk.httpclient.allowRestrictedHeaders";
    private static final Logger LOG = Logger.getLogger(OutboundHttp.class.getName());

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

    @PostConstruct
    public void init() {
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

    public static HttpClient.Builder newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                // The response handling only queues buffers for the calling thread, so it can run on the client's
                // selector thread; the default pool added a thread hand-off to every call.
                .executor(Runnable::run);
    }

    /** The client for a checked upstream: the shared one, or for HTTPS to a name the one sending that name in SNI. */
    public HttpClient clientFor(CheckedUpstream target) {
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
    public static HttpClient tlsClient(String serverName, SSLContext context) {
        SSLParameters parameters = context.getDefaultSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        return newClient().sslContext(context).sslParameters(parameters).build();
    }

    /** The Host header of a pinned request whose URL names its host (the URL itself carries the checked address). */
    public void pinHost(HttpRequest.Builder builder, CheckedUpstream checked) {
        if (checked.named()) {
            if (!hostHeaderAllowed) {
                throw new IllegalArgumentException("this server's JVM does not let the gateway pin the upstream's address "
                        + "(start it with -D" + RESTRICTED_HEADERS + "=host)");
            }
            builder.setHeader("Host", checked.hostHeader());
        }
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
        URI target = uri(upstreams.expandBases(urlTemplate));
        upstreams.checkOperatorUpstream(target, credential, granted);
        CheckedUpstream checked = upstreams.resolveForCall(target);
        HttpRequest.Builder builder = documentRequest(checked);
        if (credential != null) {
            Map.Entry<String, String> header = credentials.staticHeader(credential);
            builder.setHeader(header.getKey(), header.getValue());
        }
        return fetched(builder, checked, target, maxBytes);
    }

    /** The same fetch at a path under a workspace upstream, with its credential; the workspace rule judges it. */
    public Fetched fetch(UpstreamDirectory.UpstreamRef upstream, String path, Caller caller, long maxBytes) {
        URI target = uri(upstream.base() + path);
        CheckedUpstream checked = upstreams.resolveForWorkspaceCall(target, upstream.base(), directory.egressRules());
        HttpRequest.Builder builder = documentRequest(checked);
        credentials.header(upstream, caller).ifPresent(header -> builder.setHeader(header.getKey(), header.getValue()));
        return fetched(builder, checked, target, maxBytes);
    }

    private static URI uri(String text) {
        try {
            return new URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new InvalidInputException(Message.of("problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason()));
        }
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
            HttpResponse<byte[]> response = BoundedExchange.send(clientFor(checked), builder.build(), maxBytes);
            byte[] body = response.body();
            return new Fetched(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    body.length > maxBytes ? Arrays.copyOf(body, (int) maxBytes) : body, body.length > maxBytes);
        } catch (HttpTimeoutException e) {
            throw new IllegalArgumentException(target.getHost() + " did not answer in time (" + TIMEOUT_SETTING + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(target.getHost() + " is unreachable (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("the fetch was interrupted");
        }
    }
}
