package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.RunnerConnector;
import dev.amcp.gateway.governance.control.RequiresOperator;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of code mode. An unreachable runner makes the gateway <em>degraded</em>, not down: plain MCP keeps
 * serving and code runs are refused with a clear error, so this check stays UP and says so in its data.
 * <p>
 * {@code /health/ready} is anonymous, so it carries only the state ({@code off}, {@code ready}, {@code degraded}); the
 * runner's own report (its Deno version, isolation, sandboxes) is for admins ({@link #detail}). The runner is asked
 * at most once every {@value #KEEP_SECONDS} seconds however often readiness is polled.
 */
@Readiness
@ApplicationScoped
public class RunnerReadiness implements HealthCheck {

    static final int KEEP_SECONDS = 5;

    @Inject
    RunnerConnector connector;

    /** The runner's last {@code /healthz} answer (empty: it did not answer) and when it was asked. */
    private record Probe(Optional<String> report, long askedNanos) {
        boolean fresh() {
            return System.nanoTime() - askedNanos < TimeUnit.SECONDS.toNanos(KEEP_SECONDS);
        }
    }

    private volatile Probe last;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("code-runner").up().withData("configured", connector.configured());
        if (!connector.configured()) {
            return response.withData("state", "off").build();
        }
        return probe().report().isPresent() ? response.withData("state", "ready").build()
                : response.withData("state", "degraded")
                        .withData("detail", "the code runner does not answer /healthz; code runs are refused").build();
    }

    /** The state with the runner's own report, for an operator (the runner serves every workspace). */
    @RequiresOperator
    public JsonObject detail(Caller caller) {
        JsonObjectBuilder detail = JsonSupport.JSON.createObjectBuilder().add("configured", connector.configured());
        if (!connector.configured()) {
            return detail.add("state", "off").build();
        }
        Optional<String> report = probe().report();
        detail.add("state", report.isPresent() ? "ready" : "degraded");
        report.ifPresent(json -> {
            try {
                detail.add("runner", JsonSupport.parse(json));
            } catch (IllegalArgumentException e) {
                detail.add("runner", json);
            }
        });
        return detail.build();
    }

    private Probe probe() {
        Probe probe = last;
        if (probe != null && probe.fresh()) {
            return probe;
        }
        synchronized (this) { // one outbound call at a time, however many polls arrive together
            probe = last;
            if (probe == null || !probe.fresh()) {
                probe = new Probe(connector.health(), System.nanoTime());
                last = probe;
            }
            return probe;
        }
    }
}
