package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.platform.control.ScheduledWork;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * The sign-in throttle's counts in {@code login_failures}, one row per key, so every node of a cluster counts the same
 * failures. A failure is one conditional update (the row lock orders two nodes counting at once), or the row's insert
 * when the key has none; each call is a transaction of its own. Plain SQL that runs on PostgreSQL and H2.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRES_NEW)
public class LoginFailures implements FailureCounts {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Override
    public int add(String key, Instant now, Instant forgetBefore) {
        int updated = em.createNativeQuery("update login_failures set failures = case when last_failure < ?1 "
                        + "and (locked_until is null or locked_until <= ?2) then 1 else failures + 1 end, last_failure = ?2 where failure_key = ?3")
                .setParameter(1, Timestamp.from(forgetBefore)).setParameter(2, Timestamp.from(now)).setParameter(3, key).executeUpdate();
        if (updated == 0) {
            // Two nodes inserting a key's first failure at once: one insert fails on the key, and its caller counts again.
            em.createNativeQuery("insert into login_failures (failure_key, failures, last_failure) values (?1, 1, ?2)")
                    .setParameter(1, key).setParameter(2, Timestamp.from(now)).executeUpdate();
            return 1;
        }
        return ((Number) em.createNativeQuery("select failures from login_failures where failure_key = ?1")
                .setParameter(1, key).getSingleResult()).intValue();
    }

    @Override
    public void lock(String key, Instant until) {
        em.createNativeQuery("update login_failures set locked_until = ?1 where failure_key = ?2 and (locked_until is null or locked_until < ?1)")
                .setParameter(1, Timestamp.from(until)).setParameter(2, key).executeUpdate();
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Instant lockedUntil(String key) {
        List<?> rows = em.createNativeQuery("select locked_until from login_failures where failure_key = ?1").setParameter(1, key).getResultList();
        return rows.isEmpty() ? null : ScheduledWork.instant(rows.get(0));
    }

    @Override
    public void clear(String key) {
        em.createNativeQuery("delete from login_failures where failure_key = ?1").setParameter(1, key).executeUpdate();
    }
}
