package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.CancellationListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Handles {@code notifications/cancelled}. The gateway keeps no session state, so a cancellation is recorded
 * (logged), flags the call if it is still in flight on this node (tools see it through
 * {@link CallContext#isCancelled()}), and is handed to every {@link CancellationListener} bean (code mode stops its
 * run there, whichever node runs it). A plain HTTP tool call already sent upstream completes; its result is still
 * returned on the open HTTP response, which a client that cancelled ignores.
 */
@ApplicationScoped
public class McpCancellations {

    private static final Logger LOG = Logger.getLogger(McpCancellations.class.getName());
    private static final int MAX_REASON = 200;

    @Inject
    Instance<CancellationListener> listeners;

    private final Map<String, CallContext> inFlight = new ConcurrentHashMap<>();

    public void started(CallContext context) {
        inFlight.put(context.requestKey(), context);
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
        LOG.info(() -> "MCP cancellation of " + requestKey + (context != null ? " (in flight here)" : "") + (why.isEmpty() ? "" : ": " + why));
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
}
