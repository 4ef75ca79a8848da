package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.CancellationListener;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Handles {@code notifications/cancelled}. The gateway keeps no session state, so a cancellation is recorded
 * (logged), flags the call if it is in flight on this node (tools see it through {@link CallContext#isCancelled()}),
 * and is handed to every {@link CancellationListener} bean (code mode stops its run there). A cancellation for a call
 * this node is not running is forwarded through the database ({@link ForwardedCancellations}); every node with calls in
 * flight looks for forwarded ones every {@value #POLL_SETTING} ms (default {@value #DEFAULT_POLL_MS}; 0 turns
 * forwarding off), so behind a load balancer the node running the call stops it. A plain HTTP tool call already sent
 * upstream completes; its result is still returned on the open HTTP response, which a client that cancelled ignores.
 */
@ApplicationScoped
public class McpCancellations {

    private static final Logger LOG = Logger.getLogger(McpCancellations.class.getName());
    private static final int MAX_REASON = 200;

    @Inject
    Instance<CancellationListener> listeners;

    public static final String POLL_SETTING = "AMCP_CANCEL_POLL_MS";
    public static final long DEFAULT_POLL_MS = 500;

    @Inject
    ForwardedCancellations forwarded;

    @Inject
    Settings settings;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private final Map<String, CallContext> inFlight = new ConcurrentHashMap<>();
    private volatile ScheduledFuture<?> poller;
    private volatile long lastPurgeNanos = System.nanoTime();

    public void started(CallContext context) {
        inFlight.put(context.requestKey(), context);
        if (poller == null) {
            startPolling();
        }
    }

    public void finished(CallContext context) {
        inFlight.remove(context.requestKey(), context);
    }

    public boolean isInFlight(String requestKey) {
        return inFlight.containsKey(requestKey);
    }

    public void cancel(String requestKey, String reason) {
        String why = reason == null ? "" : reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason;
        CallContext context = inFlight.get(requestKey);
        boolean forward = context == null && pollMillis() > 0;
        LOG.info(() -> "MCP cancellation of " + requestKey + (context != null ? " (in flight here)" : forward ? " (forwarded to the other nodes)" : "")
                + (why.isEmpty() ? "" : ": " + why));
        if (forward) {
            forwarded.forward(requestKey, why);
            return;
        }
        cancelHere(requestKey, context, why);
    }

    private void cancelHere(String requestKey, CallContext context, String why) {
        if (context != null) {
            context.cancel(why);
        }
        for (CancellationListener listener : listeners) {
            try {
                listener.cancelled(requestKey, why);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "A cancellation listener failed", e);
            }
        }
    }

    private long pollMillis() {
        return settings.getLong(POLL_SETTING, DEFAULT_POLL_MS);
    }

    private synchronized void startPolling() {
        long every = pollMillis();
        if (poller == null && every > 0) {
            poller = scheduler.scheduleWithFixedDelay(this::pollForwarded, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Takes the cancellations other nodes forwarded for calls in flight here; one query, and none while idle. */
    private void pollForwarded() {
        try {
            if (!inFlight.isEmpty()) {
                forwarded.claim(List.copyOf(inFlight.keySet())).forEach((key, why) -> {
                    LOG.info(() -> "MCP cancellation of " + key + " forwarded by another node");
                    cancelHere(key, inFlight.get(key), why);
                });
            }
            if (System.nanoTime() - lastPurgeNanos > TimeUnit.MINUTES.toNanos(1)) {
                lastPurgeNanos = System.nanoTime();
                forwarded.purge();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Looking for forwarded MCP cancellations failed; trying again", e);
        }
    }

    @PreDestroy
    void stop() {
        if (poller != null) {
            poller.cancel(false);
        }
    }
}
