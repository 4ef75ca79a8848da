package dev.amcp.gateway.sources.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.ScheduledWork;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.entity.UpstreamListChanged;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Refreshes upstream MCP servers without an admin asking: every {@value #SETTING} minutes (0, the default, turns it
 * off) and when an upstream announces {@code notifications/tools/list_changed}. A refresh only stages its diff; nothing
 * changes until an admin applies it. In a cluster the scheduled refresh runs on one node at a time and once per period
 * across the cluster ({@link ScheduledWork}); a {@code list_changed} is staged by the node whose connection heard it.
 */
@ApplicationScoped
public class UpstreamRefreshes {

    public static final String SETTING = "AMCP_UPSTREAM_REFRESH_MINUTES";
    public static final String WORK = "upstream-refresh";
    private static final Logger LOG = Logger.getLogger(UpstreamRefreshes.class.getName());

    @Inject
    McpUpstreams upstreams;

    @Inject
    Settings settings;

    @Inject
    ScheduledWork work;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> schedule;

    void start(@Observes Startup startup) {
        long minutes = settings.getLong(SETTING, 0);
        if (minutes > 0) {
            Duration every = Duration.ofMinutes(minutes);
            // Every node looks once a minute whether a refresh is due; the lease and the last finish make it one.
            schedule = scheduler.scheduleWithFixedDelay(() -> refreshIfDue(every), 1, 1, TimeUnit.MINUTES);
        }
    }

    private void refreshIfDue(Duration every) {
        try {
            work.runIfDue(WORK, every, every, () -> JsonSupport.JSON.createObjectBuilder().add("upstreams", refreshAll()).build())
                    .ifPresent(done -> LOG.info(() -> "Scheduled refresh of upstream MCP servers done on this node: " + done));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The scheduled refresh of upstream MCP servers failed; it is tried again later: " + e.getMessage(), e);
        }
    }

    void listChanged(@Observes UpstreamListChanged changed) {
        stage(changed.upstreamId(), true);
    }

    private int refreshAll() {
        List<Long> ids = em.createNamedQuery(UpstreamServer.ALL, UpstreamServer.class).getResultStream().map(UpstreamServer::getId).toList();
        ids.forEach(id -> stage(id, false));
        return ids.size();
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
