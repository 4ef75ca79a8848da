package dev.amcp.gateway.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.lang.management.ManagementFactory;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Work that one node of a cluster does at a time, through a lease in {@code scheduled_work}: a node takes it by
 * moving {@code leased_until} forward only when it has passed (one row update, so two nodes never both win), and gives
 * it back with its result. A node that dies holding it blocks the work only until the lease runs out.
 */
@ApplicationScoped
public class ScheduledWork {

    /** This node, as leases and results name it (host and process id). */
    public static final String NODE = ManagementFactory.getRuntimeMXBean().getName();

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** This bean through its proxy: a call on {@code this} would skip {@code @Transactional}. */
    @Inject
    ScheduledWork self;

    /** Where a piece of work stands: who holds it until when, and how it last ended (all may be null). */
    public record State(String leasedBy, Instant leasedUntil, Instant lastStartedAt, Instant lastFinishedAt, String lastResult) {}

    /**
     * Runs {@code work} under the lease of {@code name} when it last finished {@code every} ago or more (or never) and
     * no other node holds it, and keeps its result; answers the result, or empty when it was not due or not this node's
     * turn. A failure gives the lease back and is thrown.
     */
    public Optional<JsonObject> runIfDue(String name, Duration every, Duration lease, Supplier<JsonObject> work) {
        Instant last = self.state(name).map(State::lastFinishedAt).orElse(null);
        if (last != null && last.plus(every).isAfter(Instant.now())) {
            return Optional.empty();
        }
        return runUnderLease(name, lease, work);
    }

    /** Runs {@code work} under the lease of {@code name} unless another node holds it (empty then); as {@link #runIfDue}. */
    public Optional<JsonObject> runUnderLease(String name, Duration lease, Supplier<JsonObject> work) {
        if (!self.tryLease(name, lease)) {
            return Optional.empty();
        }
        try {
            JsonObject result = work.get();
            self.finish(name, result);
            return Optional.of(result);
        } catch (RuntimeException e) {
            self.release(name);
            throw e;
        }
    }

    /** Takes the lease of {@code name} for {@code length} unless another node holds it; answers whether it did. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public boolean tryLease(String name, Duration length) {
        Instant now = Instant.now();
        return em.createNativeQuery("update scheduled_work set leased_by = ?1, leased_until = ?2, last_started_at = ?3 "
                        + "where name = ?4 and (leased_until is null or leased_until < ?3)")
                .setParameter(1, NODE).setParameter(2, Timestamp.from(now.plus(length))).setParameter(3, Timestamp.from(now))
                .setParameter(4, name).executeUpdate() == 1;
    }

    /** Gives the lease back and keeps the result; only the holder's call changes anything. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void finish(String name, JsonObject result) {
        em.createNativeQuery("update scheduled_work set leased_by = null, leased_until = null, last_finished_at = ?1, last_result = ?2 "
                        + "where name = ?3 and leased_by = ?4")
                .setParameter(1, Timestamp.from(Instant.now())).setParameter(2, result.toString()).setParameter(3, name)
                .setParameter(4, NODE).executeUpdate();
    }

    /** Gives the lease back without a result (the work failed); the next attempt may run at once. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void release(String name) {
        em.createNativeQuery("update scheduled_work set leased_by = null, leased_until = null where name = ?1 and leased_by = ?2")
                .setParameter(1, name).setParameter(2, NODE).executeUpdate();
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<State> state(String name) {
        List<?> rows = em.createNativeQuery("select leased_by, leased_until, last_started_at, last_finished_at, last_result "
                + "from scheduled_work where name = ?1").setParameter(1, name).getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] row = (Object[]) rows.get(0);
        return Optional.of(new State((String) row[0], instant(row[1]), instant(row[2]), instant(row[3]), row[4] == null ? null : row[4].toString()));
    }

    /**
     * A {@code timestamp} column as a native query answers it (a {@link Timestamp}, or a {@code LocalDateTime} on some
     * drivers), read back in the zone {@link Timestamp#from} wrote it in; {@code null} stays {@code null}.
     */
    public static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Timestamp t) {
            return t.toInstant();
        }
        if (value instanceof java.time.LocalDateTime l) {
            return Timestamp.valueOf(l).toInstant();
        }
        if (value instanceof java.time.OffsetDateTime o) {
            return o.toInstant();
        }
        throw new IllegalStateException("Unexpected timestamp type " + value.getClass().getName());
    }
}
