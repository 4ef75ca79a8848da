package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Notices MCP clients that hang up while their tool call runs. A streamed answer registers a {@link Watch}; one
 * sweeper, scheduled once, writes a heartbeat to every watch that has been quiet for {@value #HEARTBEAT_SETTING} ms
 * (default {@value #DEFAULT_HEARTBEAT_MS}; 0 turns it off). A write that fails means the client is gone, and its call
 * is cancelled as if it had sent {@code notifications/cancelled}. One sweeper instead of a timer per call keeps the
 * cost of a short call to two map updates.
 */
@ApplicationScoped
public class ClientWatches {

    public static final String HEARTBEAT_SETTING = "AMCP_MCP_HEARTBEAT_MS";
    public static final long DEFAULT_HEARTBEAT_MS = 1000;
    private static final Logger LOG = Logger.getLogger(ClientWatches.class.getName());

    @Inject
    Settings settings;

    @Inject
    McpCancellations cancellations;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private final Set<Watch> active = ConcurrentHashMap.newKeySet();
    private volatile ScheduledFuture<?> sweeper;

    /** Writes of one streamed answer; close it when the answer is complete. */
    public final class Watch implements AutoCloseable {
        private final OutputStream out;
        private final byte[] heartbeat;
        private final String requestKey;
        private long lastWriteNanos = System.nanoTime();
        private boolean gone;

        private Watch(OutputStream out, byte[] heartbeat, String requestKey) {
            this.out = out;
            this.heartbeat = heartbeat;
            this.requestKey = requestKey;
        }

        /** Writes and flushes (a heartbeat, a progress event); after the client is found gone, writes nothing more. */
        public void write(byte[] bytes) {
            write(bytes, true);
        }

        /**
         * Writes the complete answer without flushing: the container sends it when the response ends, so a call that
         * never needed a heartbeat goes out as one buffered response with a Content-Length, as if never watched.
         */
        public void finish(byte[] bytes) {
            close();
            write(bytes, false);
        }

        private synchronized void write(byte[] bytes, boolean flush) {
            if (gone) {
                return;
            }
            try {
                out.write(bytes);
                if (flush) {
                    out.flush();
                }
                lastWriteNanos = System.nanoTime();
            } catch (IOException | RuntimeException e) {
                gone = true;
                active.remove(this);
                LOG.fine(() -> "MCP client of " + requestKey + " went away: " + e);
                cancellations.cancel(requestKey, "the client disconnected");
            }
        }

        private synchronized boolean quietFor(long nanos, long now) {
            return now - lastWriteNanos >= nanos;
        }

        @Override
        public void close() {
            active.remove(this);
        }
    }

    /** Watches a streamed answer that writes {@code heartbeat} while it has nothing else to say. */
    public Watch watch(OutputStream out, byte[] heartbeat, String requestKey) {
        Watch watch = new Watch(out, heartbeat, requestKey);
        long every = heartbeatMillis();
        if (every > 0) {
            startSweeper(every);
            active.add(watch);
        }
        return watch;
    }

    private long heartbeatMillis() {
        return settings.getLong(HEARTBEAT_SETTING, DEFAULT_HEARTBEAT_MS);
    }

    private synchronized void startSweeper(long every) {
        if (sweeper == null) {
            // Sweeps twice per heartbeat, so no watch stays quiet much longer than one heartbeat.
            long period = Math.max(10, every / 2);
            sweeper = scheduler.scheduleAtFixedRate(() -> sweep(TimeUnit.MILLISECONDS.toNanos(every)), period, period, TimeUnit.MILLISECONDS);
        }
    }

    private void sweep(long quietNanos) {
        long now = System.nanoTime();
        for (Watch watch : active) {
            if (watch.quietFor(quietNanos, now)) {
                watch.write(watch.heartbeat);
            }
        }
    }

    @PreDestroy
    void stop() {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
    }
}
