package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.RunnerConnector;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of code mode. An unreachable runner makes the gateway <em>degraded</em>, not down: plain MCP keeps
 * serving and code runs are refused with a clear error, so this check stays UP and says so in its data.
 */
@Readiness
@ApplicationScoped
public class RunnerReadiness implements HealthCheck {

    @Inject
    RunnerConnector connector;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("code-runner").up().withData("configured", connector.configured());
        if (!connector.configured()) {
            return response.withData("state", "off").build();
        }
        return connector.health()
                .map(json -> response.withData("state", "ready").withData("runner", json).build())
                .orElseGet(() -> response.withData("state", "degraded")
                        .withData("detail", "the code runner does not answer /healthz; code runs are refused").build());
    }
}
