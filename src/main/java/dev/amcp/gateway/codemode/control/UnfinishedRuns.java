package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunRecorder;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.ScheduledWork;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Closes the audit rows of code runs that never ended because their node died (killed, crashed, or without its
 * database when the run ended): no run outlives its wall time ({@code AMCP_CODE_TIMEOUT_MS}, from its admission), so
 * a row still {@code RUNNING} {@link #GRACE} after that has no node left to end it. Every node looks every
 * {@link #EVERY}, one at a time (a lease), and marks such rows {@code ERROR}. A run in flight on a node that is killed
 * is therefore closed by a surviving node within its wall time plus {@link #GRACE} plus {@link #EVERY} of its start.
 */
@ApplicationScoped
public class UnfinishedRuns {

    static final String WORK = "unfinished-code-runs";
    static final Duration EVERY = Duration.ofSeconds(15);
    /** Past the wall time: the kill of a run at its deadline and the write of its end take far less. */
    static final Duration GRACE = Duration.ofSeconds(15);
    static final String ERROR = "The run never ended: the gateway node running it stopped (or lost its database) before it "
            + "recorded the run's end";
    private static final Logger LOG = Logger.getLogger(UnfinishedRuns.class.getName());

    @Inject
    CodeRunSettings settings;

    @Inject
    CodeRunRecorder recorder;

    @Inject
    ScheduledWork work;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> schedule;

    void start(@Observes Startup startup) {
        schedule = scheduler.scheduleWithFixedDelay(this::closeQuietly, EVERY.toSeconds(), EVERY.toSeconds(), TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    /** Closes what is overdue now, unless another node is at it; answers how many rows it closed. */
    public int close() {
        Instant before = Instant.now().minusMillis(settings.limits().timeoutMs()).minus(GRACE);
        return work.runUnderLease(WORK, EVERY, () -> JsonSupport.JSON.createObjectBuilder()
                .add("closed", recorder.closeUnfinished(before, ERROR)).build()).map(r -> r.getInt("closed")).orElse(0);
    }

    private void closeQuietly() {
        try {
            int closed = close();
            if (closed > 0) {
                LOG.warning(() -> "Closed " + closed + " code run(s) still RUNNING past their wall time: " + ERROR);
            }
        } catch (RuntimeException e) {
            // The database is away (readiness says so); the next look tries again.
            LOG.log(Level.FINE, "Looking for unfinished code runs failed", e);
        }
    }
}
