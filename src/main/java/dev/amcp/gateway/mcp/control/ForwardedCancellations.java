package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.platform.control.Hashes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code mcp_cancellations} table: how a cancellation that reached one node gets to the node running the call
 * (behind a load balancer the two are often different, and the gateway keeps no session state to route by).
 */
@ApplicationScoped
public class ForwardedCancellations {

    /** Rows older than this are purged: the call they name has ended long since. */
    static final Duration KEEP = Duration.ofMinutes(10);

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** Leaves a cancellation for whichever node runs the call; a repeated one keeps the first. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void forward(String requestKey, String reason) {
        em.createNativeQuery("insert into mcp_cancellations (request_key_sha256, reason, created_at) values (?, ?, ?) on conflict do nothing")
                .setParameter(1, Hashes.sha256(requestKey)).setParameter(2, reason)
                .setParameter(3, Timestamp.from(Instant.now())).executeUpdate();
    }

    /**
     * Takes the cancellations left for any of these calls: returns request key → reason and deletes those rows, so
     * only one node acts on each.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Map<String, String> claim(Collection<String> requestKeys) {
        Map<String, String> byHash = new LinkedHashMap<>();
        requestKeys.forEach(key -> byHash.put(Hashes.sha256(key), key));
        Map<String, String> claimed = new LinkedHashMap<>();
        if (byHash.isEmpty()) {
            return claimed;
        }
        var query = em.createNativeQuery("select request_key_sha256, reason from mcp_cancellations where request_key_sha256 in ("
                + String.join(",", Collections.nCopies(byHash.size(), "?")) + ")");
        int position = 1;
        for (String hash : byHash.keySet()) {
            query.setParameter(position++, hash);
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        for (Object[] row : rows) {
            String hash = (String) row[0];
            int deleted = em.createNativeQuery("delete from mcp_cancellations where request_key_sha256 = ?").setParameter(1, hash).executeUpdate();
            if (deleted == 1) {
                claimed.put(byHash.get(hash), row[1] == null ? "" : (String) row[1]);
            }
        }
        return claimed;
    }

    /** Deletes cancellations older than {@link #KEEP}. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int purge() {
        return em.createNativeQuery("delete from mcp_cancellations where created_at < ?")
                .setParameter(1, Timestamp.from(Instant.now().minus(KEEP))).executeUpdate();
    }
}
