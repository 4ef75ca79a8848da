package dev.amcp.gateway.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Taking this node out of a load balancer before it stops. Once draining, readiness answers DOWN (so the balancer
 * sends nothing new here), listen streams end (their clients listen again on another node), and everything else this
 * node is serving, code runs included, goes on to its end; {@link #inFlight()} says when nothing is left and the
 * server may stop. Draining lasts until the node stops: a restarted node starts ready.
 */
@ApplicationScoped
public class Drain {

    private final AtomicReference<Instant> since = new AtomicReference<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Starts draining (again: no change); answers when it started. */
    public Instant begin() {
        since.compareAndSet(null, Instant.now());
        return since.get();
    }

    public boolean draining() {
        return since.get() != null;
    }

    /** When draining started, or {@code null}. */
    public Instant since() {
        return since.get();
    }

    /** Requests this node is serving now (the one asking included). */
    public int inFlight() {
        return inFlight.get();
    }

    /** A request starts; close the answer when it ends. */
    public Request request() {
        inFlight.incrementAndGet();
        return inFlight::decrementAndGet;
    }

    /** One request in flight. */
    public interface Request extends AutoCloseable {
        @Override
        void close();
    }
}
