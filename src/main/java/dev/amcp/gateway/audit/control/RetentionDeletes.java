package dev.amcp.gateway.audit.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * One batch of a purge in a transaction of its own, so a purge of millions of rows never holds a lock on more than
 * one batch and never leaves a long transaction open.
 */
@ApplicationScoped
public class RetentionDeletes {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** Runs {@code statement} (a delete whose {@code ?1} is the cutoff and whose batch size is written in) once. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int batch(String statement, Instant cutoff) {
        return em.createNativeQuery(statement).setParameter(1, Timestamp.from(cutoff)).executeUpdate();
    }
}
