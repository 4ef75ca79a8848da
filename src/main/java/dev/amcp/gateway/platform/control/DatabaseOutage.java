package dev.amcp.gateway.platform.control;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * This node's view of whether its database can be reached, so that requests fail fast while it cannot.
 *
 * <p>A failure whose cause is the database being unreachable ({@link #causedBy}: a connection error, SQL state
 * {@code 08…}, or the server shutting down, {@code 57P0…}) starts an outage ({@link #noted}): one WARNING names the
 * cause, and from then on every request is answered 503 with {@link #MESSAGE} at once ({@link #refusing}) instead of
 * each waiting on the database. One request a second is let through to ask the database again; when it answers (or
 * readiness finds it back, {@link #reachable()}), the outage ends with one INFO line. It is one fact per node, held in
 * static state: the same for every part of the node that meets it, beans or not.
 */
public final class DatabaseOutage {

    /** What a client is told while the database is unreachable. */
    public static final String MESSAGE = "The gateway's database is unavailable; try again in a few seconds";
    /** Seconds a client is asked to wait ({@code Retry-After}). */
    public static final int RETRY_AFTER_SECONDS = 5;
    static final long PROBE_EVERY_NANOS = 1_000_000_000L;

    private static final Logger LOG = Logger.getLogger(DatabaseOutage.class.getName());
    private static final AtomicBoolean DOWN = new AtomicBoolean();
    private static final AtomicLong SINCE = new AtomicLong();
    private static final AtomicLong NEXT_PROBE = new AtomicLong();

    private DatabaseOutage() {}

    /** Whether this failure is the database being unreachable (not a bad statement or a constraint). */
    public static boolean causedBy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0"))) {
                return true;
            }
        }
        return false;
    }

    /** Notes a failure: true when it was the database being unreachable, which starts an outage if none is on. */
    public static boolean noted(Throwable failure) {
        if (!causedBy(failure)) {
            return false;
        }
        if (DOWN.compareAndSet(false, true)) {
            SINCE.set(System.nanoTime());
            NEXT_PROBE.set(System.nanoTime() + PROBE_EVERY_NANOS);
            LOG.warning(() -> "The database cannot be reached (" + rootMessage(failure) + "); requests are answered 503 until it answers again");
        }
        return true;
    }

    /** Whether a request should be answered 503 now: an outage is on, and this is not the request that asks again. */
    public static boolean refusing(DataSource dataSource) {
        if (!DOWN.get()) {
            return false;
        }
        long next = NEXT_PROBE.get();
        long now = System.nanoTime();
        if (now - next < 0 || !NEXT_PROBE.compareAndSet(next, now + PROBE_EVERY_NANOS)) {
            return true;
        }
        try (Connection connection = dataSource.getConnection()) {
            if (connection.isValid(2)) {
                reachable();
                return false;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "The database still cannot be reached", e);
        }
        return DOWN.get();
    }

    /** The database answered: an outage, if one was on, ends. */
    public static void reachable() {
        if (DOWN.compareAndSet(true, false)) {
            long seconds = (System.nanoTime() - SINCE.get()) / 1_000_000_000L;
            LOG.info(() -> "The database answers again, after " + seconds + " s; requests are served again");
        }
    }

    /** Whether an outage is on. */
    public static boolean on() {
        return DOWN.get();
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return Texts.clip(root.getClass().getSimpleName() + ": " + root.getMessage(), 300);
    }
}
