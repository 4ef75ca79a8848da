package dev.amcp.gateway.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Warns at start about settings people are likely to set that the gateway does not read, naming the one that does
 * what they meant. {@code AMCP_METRICS_PUBLIC}: Liberty's {@code server.xml} cannot invert a variable, and an
 * {@code <include>} chosen by a variable is kept across restarts, so {@code /metrics} is opened with
 * {@code AMCP_METRICS_AUTHENTICATION=false} instead.
 */
@ApplicationScoped
public class MisnamedSettings {

    static final Map<String, String> INSTEAD = Map.of("AMCP_METRICS_PUBLIC", "AMCP_METRICS_AUTHENTICATION=false");
    private static final Logger LOG = Logger.getLogger(MisnamedSettings.class.getName());

    @Inject
    Settings settings;

    void warnOnStart(@Observes Startup startup) {
        INSTEAD.forEach((name, instead) -> settings.get(name).ifPresent(value ->
                LOG.warning(name + " is set but not read; to get what it suggests, set " + instead)));
    }
}
