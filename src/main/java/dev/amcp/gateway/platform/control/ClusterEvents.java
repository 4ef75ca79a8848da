package dev.amcp.gateway.platform.control;

import dev.amcp.gateway.platform.entity.ClusterEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Tells the other nodes of a cluster what this one committed, through {@code cluster_events}: {@link #publish} appends
 * a row (off the committing thread), and every node reads the rows after the last one it saw every
 * {@value #POLL_SETTING} milliseconds and fires each one another node wrote as a {@link ClusterEvent}. Plain SQL on
 * one indexed column, so it works on any database the gateway runs on; a single node reads nothing new and does no more.
 */
@ApplicationScoped
public class ClusterEvents {

    public static final String POLL_SETTING = "AMCP_CLUSTER_POLL_MS";
    private static final Logger LOG = Logger.getLogger(ClusterEvents.class.getName());

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Resource
    ManagedExecutorService executor;

    @Inject
    Settings settings;

    @Inject
    Event<ClusterEvent> events;

    private volatile long lastSeen = -1;
    private ScheduledFuture<?> poller;

    void start(@Observes @jakarta.annotation.Priority(Migrations.PRIORITY + 5) Startup startup) {
        long every = settings.getLong(POLL_SETTING, 250);
        if (every > 0) {
            lastSeen = latest();
            poller = scheduler.scheduleWithFixedDelay(this::poll, every, every, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (poller != null) {
            poller.cancel(false);
        }
    }

    /** Appends a change this node committed, on another thread (the caller's transaction has ended or is ending). */
    public void publish(String kind, Long workspaceId) {
        try {
            executor.execute(() -> insert(kind, workspaceId));
        } catch (RejectedExecutionException e) {
            insert(kind, workspaceId); // shutting down: write it here rather than lose it
        }
    }

    private void insert(String kind, Long workspaceId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement st = c.prepareStatement("insert into cluster_events (kind, workspace_id, node, at) values (?, ?, ?, ?)")) {
            st.setString(1, kind);
            if (workspaceId == null) {
                st.setNull(2, java.sql.Types.BIGINT);
            } else {
                st.setLong(2, workspaceId);
            }
            st.setString(3, ScheduledWork.NODE);
            st.setTimestamp(4, Timestamp.from(Instant.now()));
            st.executeUpdate();
        } catch (SQLException e) {
            // The other nodes fall back on their caches' short lifetime (AMCP_ACCESS_CACHE_SECONDS).
            LOG.log(Level.WARNING, "Telling the other nodes of a change failed: " + e.getMessage());
        }
    }

    private long latest() {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement("select coalesce(max(id), 0) from cluster_events");
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "Reading the cluster's changes failed: " + e.getMessage());
            return 0;
        }
    }

    private void poll() {
        try (Connection c = dataSource.getConnection();
             PreparedStatement st = c.prepareStatement("select id, kind, workspace_id, node from cluster_events where id > ? order by id")) {
            st.setLong(1, lastSeen);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    lastSeen = rs.getLong(1);
                    if (!ScheduledWork.NODE.equals(rs.getString(4))) {
                        long ws = rs.getLong(3);
                        events.fire(new ClusterEvent(rs.getString(2), rs.wasNull() ? null : ws));
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Reading the cluster's changes failed; trying again", e);
        }
    }
}
