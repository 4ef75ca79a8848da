package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Connects to the code runner. The WebSocket container is obtained once at start-up, on a thread with the
 * application's class loader, because {@link ContainerProvider} fails on threads without it.
 */
@ApplicationScoped
public class RunnerConnector {

    public static final String URL_SETTING = "CODE_RUNNER_URL";
    public static final String TOKEN_SETTING = "CODE_RUNNER_TOKEN";
    static final String RUN_PATH = "/v1/run";

    @Inject
    Settings settings;

    /**
     * Connections being opened. Against a runner that accepts TCP but never answers the upgrade (a stopped supervisor)
     * a connect blocks its thread until the runner wakes, so connects get threads of their own, never the server's
     * shared pool, and only so many may be waiting; past that, runs are refused at once.
     */
    static final int MAX_PENDING_CONNECTS = 32;
    private final Semaphore pendingConnects = new Semaphore(MAX_PENDING_CONNECTS);
    private volatile ExecutorService connectThreads;

    @Resource
    ManagedThreadFactory threadFactory;

    private volatile WebSocketContainer container;
    // HTTP/1.1: an h2c upgrade header would reach the runner's WebSocket upgrade handler instead of /healthz.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    void obtainContainerOnStart(@Observes @Priority(Migrations.PRIORITY + 20) Startup startup) {
        container();
    }

    public boolean configured() {
        return settings.get(URL_SETTING).isPresent();
    }

    /** Why runs would be refused right now, or empty when the runner is configured (reachability is checked per run). */
    public Optional<String> unavailableReason() {
        return configured() ? Optional.empty()
                : Optional.of("Code mode is not configured on this gateway: the operator has not set " + URL_SETTING);
    }

    /**
     * Starts opening a WebSocket to the runner on a connect thread; the caller decides how long to wait. Fails at once
     * when too many earlier connects are still unanswered.
     */
    public CompletableFuture<Session> openAsync(Endpoint endpoint) {
        if (!pendingConnects.tryAcquire()) {
            return CompletableFuture.failedFuture(new IOException("the code runner has not answered " + MAX_PENDING_CONNECTS
                    + " earlier connections; it may be stuck"));
        }
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return open(endpoint);
                } catch (DeploymentException | IOException e) {
                    throw new CompletionException(e);
                } finally {
                    pendingConnects.release();
                }
            }, connectThreads());
        } catch (RuntimeException e) {
            pendingConnects.release();
            throw e;
        }
    }

    private ExecutorService connectThreads() {
        ExecutorService pool = connectThreads;
        if (pool == null) {
            synchronized (this) {
                if (connectThreads == null) {
                    connectThreads = Executors.newCachedThreadPool(threadFactory);
                }
                pool = connectThreads;
            }
        }
        return pool;
    }

    /**
     * Closes a runner connection on a connect thread. Liberty's close waits up to 3 s for the connection's read to
     * finish (and longer when the runner is closing at the same moment), which must never hold up a request.
     */
    public void closeInBackground(Session session) {
        if (session == null) {
            return;
        }
        try {
            connectThreads().execute(() -> closeQuietly(session));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            closeQuietly(session); // shutting down: close here rather than leak the socket
        }
    }

    static void closeQuietly(Session session) {
        try {
            if (session.isOpen()) {
                session.close();
            }
        } catch (IOException | IllegalStateException ignored) {
            // the exchange is decided; a failed close changes nothing
        }
    }

    @PreDestroy
    void stopConnectThreads() {
        if (connectThreads != null) {
            connectThreads.shutdownNow();
        }
    }

    /** Opens the WebSocket of one run on this thread. The token travels only in the upgrade's Authorization header. */
    Session open(Endpoint endpoint) throws DeploymentException, IOException {
        String token = settings.get(TOKEN_SETTING).orElse("");
        ClientEndpointConfig config = ClientEndpointConfig.Builder.create()
                .configurator(new ClientEndpointConfig.Configurator() {
                    @Override
                    public void beforeRequest(Map<String, List<String>> headers) {
                        headers.put("Authorization", List.of("Bearer " + token));
                    }
                }).build();
        return container().connectToServer(endpoint, config, runUri());
    }

    /** GET /healthz of the runner: its JSON, or empty when it does not answer 200. */
    public Optional<String> health() {
        if (!configured()) {
            return Optional.empty();
        }
        try {
            URI ws = URI.create(settings.get(URL_SETTING).get());
            String scheme = "wss".equals(ws.getScheme()) ? "https" : "http";
            URI uri = new URI(scheme, null, ws.getHost(), ws.getPort(), "/healthz", null, null);
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException | IllegalArgumentException | java.net.URISyntaxException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    URI runUri() {
        String base = settings.get(URL_SETTING).orElseThrow();
        base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return URI.create(base.endsWith(RUN_PATH) ? base : base + RUN_PATH);
    }

    private WebSocketContainer container() {
        WebSocketContainer c = container;
        if (c == null) {
            synchronized (this) {
                if (container == null) {
                    container = ContainerProvider.getWebSocketContainer();
                }
                c = container;
            }
        }
        return c;
    }
}
