package dev.amcp.gateway.governance.entity;

import dev.amcp.gateway.platform.control.ClusterEvents;
import dev.amcp.gateway.platform.entity.ClusterEvent;
import jakarta.enterprise.inject.spi.CDI;
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
 * the transaction ends, so a cache refilled from the database between the change and its commit is dropped as well,
 * and a committed change is told to the other nodes of a cluster ({@link ClusterEvents}), whose counters move when they
 * read it ({@link #changedElsewhere}).
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
                if (tx.getResource(AccessChanges.class) == null) { // the other nodes hear once per transaction
                    tx.putResource(AccessChanges.class, Boolean.TRUE);
                    tx.registerInterposedSynchronization(new Synchronization() {
                        @Override
                        public void beforeCompletion() {}

                        @Override
                        public void afterCompletion(int status) {
                            GENERATION.incrementAndGet();
                            if (status == Status.STATUS_COMMITTED) {
                                tellOtherNodes();
                            }
                        }
                    });
                }
            } else {
                tellOtherNodes();
            }
        } catch (NamingException | IllegalStateException e) {
            // no transaction to wait for (a unit test, say): the change above is all there is
        }
    }

    /** A change another node committed ({@link ClusterEvent#ACCESS}): this node's caches drop what they hold. */
    public static void changedElsewhere() {
        GENERATION.incrementAndGet();
    }

    private static void tellOtherNodes() {
        try {
            CDI.current().select(ClusterEvents.class).get().publish(ClusterEvent.ACCESS, null);
        } catch (IllegalStateException e) {
            // no CDI container (a unit test): there are no other nodes
        }
    }
}
