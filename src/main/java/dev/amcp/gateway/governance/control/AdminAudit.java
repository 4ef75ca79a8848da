package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.AdminAuditEntry;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin audit log. Services fire an {@link AdminChange} for each change they make; this writes it as a row in the
 * transaction of the change ({@code MANDATORY}: a change fired outside one is a bug, not a row written on its own), so a
 * change that rolls back leaves no row and a row that cannot be written rolls the change back.
 */
@ApplicationScoped
public class AdminAudit {

    public static final int MAX_LIMIT = 500;
    public static final int DEFAULT_LIMIT = 100;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** What to list; {@code null} fields do not filter. {@code workspaceId} is for operators only. */
    public record Query(Long workspaceId, String kind, String actor, Instant since, Instant until, int limit) {}

    @Transactional(Transactional.TxType.MANDATORY)
    void record(@Observes AdminChange change) {
        em.persist(new AdminAuditEntry(change, Instant.now()));
    }

    /** Rows newest first: an operator's of every workspace and the instance, an admin's of their own workspace only. */
    @Transactional
    @RequiresCapability(value = Capability.ADMIN, orOperator = true)
    public List<AdminAuditEntry> list(Caller caller, Query query) {
        List<String> where = new ArrayList<>();
        Long workspaceId = caller.operator() ? query.workspaceId() : Long.valueOf(caller.workspaceId());
        if (workspaceId != null) {
            where.add("e.workspaceId = :workspaceId");
        }
        if (query.kind() != null) {
            where.add("e.kind = :kind");
        }
        if (query.actor() != null) {
            where.add("e.actorUsername = :actor");
        }
        if (query.since() != null) {
            where.add("e.at >= :since");
        }
        if (query.until() != null) {
            where.add("e.at <= :until");
        }
        String jpql = "select e from AdminAuditEntry e" + (where.isEmpty() ? "" : " where " + String.join(" and ", where))
                + " order by e.at desc, e.id desc";
        TypedQuery<AdminAuditEntry> q = em.createQuery(jpql, AdminAuditEntry.class).setMaxResults(query.limit());
        if (workspaceId != null) {
            q.setParameter("workspaceId", workspaceId);
        }
        if (query.kind() != null) {
            q.setParameter("kind", query.kind());
        }
        if (query.actor() != null) {
            q.setParameter("actor", query.actor());
        }
        if (query.since() != null) {
            q.setParameter("since", query.since());
        }
        if (query.until() != null) {
            q.setParameter("until", query.until());
        }
        return q.getResultList();
    }
}
