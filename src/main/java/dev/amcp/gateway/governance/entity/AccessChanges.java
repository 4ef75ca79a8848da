package dev.amcp.gateway.governance.entity;

import jakarta.persistence.PostPersist;
import jakarta.persistence.PostRemove;
import jakarta.persistence.PostUpdate;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Entity listener on everything that decides who may do what with which tools (API keys, users, roles, servers, tools):
 * each change moves a generation counter, so the short caches of those answers on this node know at once that they went
 * stale. It moves again when
 * the transaction ends, so a cache refilled from the database between the change and its commit is dropped as well.
 */
public class AccessChanges {

    private static final AtomicLong GENERATION = new AtomicLong();

    /** Changes this node has seen so far; a cached answer is good only while this is unchanged. */
    public static long generation() {
        return GENERATION.get();
    }

    @PostPersist
    @PostUpdate
    @PostRemove
    void changed(Object entity) {
        changed();
    }

    /**
     * A change to what callers may see that is not an entity's (a tool provider's own list, say): the same signal,
     * again when the current transaction, if any, ends.
     */
    public static void changed() {
        GENERATION.incrementAndGet();
        try {
            TransactionSynchronizationRegistry tx = InitialContext.doLookup("java:comp/TransactionSynchronizationRegistry");
            if (tx.getTransactionStatus() == Status.STATUS_ACTIVE) {
                tx.registerInterposedSynchronization(new Synchronization() {
                    @Override
                    public void beforeCompletion() {}

                    @Override
                    public void afterCompletion(int status) {
                        GENERATION.incrementAndGet();
                    }
                });
            }
        } catch (NamingException | IllegalStateException e) {
            // no transaction to wait for (a unit test, say): the change above is all there is
        }
    }
}
