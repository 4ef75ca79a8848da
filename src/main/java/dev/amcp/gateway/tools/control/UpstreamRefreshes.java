package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.entity.UpstreamListChanged;
import dev.amcp.gateway.tools.entity.UpstreamServer;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Refreshes upstream MCP servers without an admin asking: every {@value #SETTING} minutes (0, the default, turns it
 * off) and when an upstream announces {@code notifications/tools/list_changed}. A refresh only stages its diff; nothing
 * changes until an admin applies it.
 */
@ApplicationScoped
public class UpstreamRefreshes {

    public static final String SETTING = "AMCP_UPSTREAM_REFRESH_MINUTES";
    private static final Logger LOG = Logger.getLogger(UpstreamRefreshes.class.getName());

    @Inject
    McpUpstreams upstreams;

    @Inject
    Settings settings;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> schedule;

    void start(@Observes Startup startup) {
        long minutes = settings.getLong(SETTING, 0);
        if (minutes > 0) {
            schedule = scheduler.scheduleWithFixedDelay(this::refreshAll, minutes, minutes, TimeUnit.MINUTES);
        }
    }

    void listChanged(@Observes UpstreamListChanged changed) {
        stage(changed.upstreamId(), true);
    }

    private void refreshAll() {
        List<Long> ids = em.createNamedQuery(UpstreamServer.ALL, UpstreamServer.class).getResultStream().map(UpstreamServer::getId).toList();
        ids.forEach(id -> stage(id, false));
    }

    private void stage(long id, boolean listChanged) {
        try {
            upstreams.stage(id, listChanged);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Refreshing upstream MCP server " + id + " failed; trying again later: " + e.getMessage());
        }
    }

    @PreDestroy
    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }
}
