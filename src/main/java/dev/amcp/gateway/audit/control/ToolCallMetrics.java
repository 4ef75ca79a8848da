package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.tools.entity.ToolCallCompleted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Counts and times every tool call by tool and outcome, and logs it at FINE. The counters and timers are looked up
 * once per tool and outcome: a registry lookup with tags cost as much as the rest of this observer.
 */
@ApplicationScoped
public class ToolCallMetrics {

    private static final Logger LOG = Logger.getLogger(ToolCallMetrics.class.getName());

    @Inject
    MetricRegistry registry;

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    void onToolCall(@Observes ToolCallCompleted call) {
        String outcome = call.outcome().name().toLowerCase();
        // A denied name is caller input; keep it out of the tags so nobody can inflate the metric space.
        String tool = call.outcome() == ToolCallCompleted.Outcome.DENIED ? "_denied" : call.toolName();
        counters.computeIfAbsent(tool + '\n' + outcome,
                k -> registry.counter("amcp_tool_calls", new Tag("tool", tool), new Tag("outcome", outcome))).inc();
        timers.computeIfAbsent(outcome, k -> registry.timer("amcp_tool_call_duration", new Tag("outcome", outcome)))
                .update(Duration.ofNanos(call.durationNanos()));
        LOG.fine(() -> "tool " + call.toolName() + " by " + call.caller().username() + ": " + outcome
                + " in " + call.durationNanos() / 1_000_000 + " ms");
    }
}
