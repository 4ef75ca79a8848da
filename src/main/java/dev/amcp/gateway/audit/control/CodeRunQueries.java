package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads the code-run audit of the caller's workspace, for admins only. */
@ApplicationScoped
@jakarta.transaction.Transactional // a fresh persistence context per call: outside a transaction Liberty keeps one per request
public class CodeRunQueries {

    public static final int MAX_PAGE = 500;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** Filters of the run history; any may be null. The user is an id or a username. */
    public record Filter(String status, String tool, Long userId, String username, Instant from, Instant to, int limit) {
        public Filter(String status, String tool, Long userId, Instant from, Instant to, int limit) {
            this(status, tool, userId, null, from, to, limit);
        }
    }

    /** A status filter in any case; anything else is refused with the valid values. */
    public static String status(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        String upper = status.strip().toUpperCase(java.util.Locale.ROOT);
        if (!CodeRun.STATUSES.contains(upper)) {
            throw new IllegalArgumentException("status must be one of " + String.join(", ", CodeRun.STATUSES) + "; got '" + status + "'");
        }
        return upper;
    }

    @RequiresCapability(Capability.ADMIN)
    public List<CodeRun> list(Caller caller, Filter filter) {
        StringBuilder jpql = new StringBuilder("select r from CodeRun r where r.workspaceId = :ws");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("ws", caller.workspaceId());
        if (filter.status() != null) {
            jpql.append(" and r.status = :status");
            params.put("status", status(filter.status()));
        }
        if (filter.tool() != null) {
            jpql.append(" and r.toolName = :tool");
            params.put("tool", filter.tool());
        }
        if (filter.userId() != null) {
            jpql.append(" and r.invokerUserId = :user");
            params.put("user", filter.userId());
        }
        if (filter.username() != null) {
            jpql.append(" and r.invokerUserId in (select u.id from UserAccount u where u.workspaceId = :ws and u.username = :username)");
            params.put("username", filter.username());
        }
        if (filter.from() != null) {
            jpql.append(" and r.startedAt >= :from");
            params.put("from", filter.from());
        }
        if (filter.to() != null) {
            jpql.append(" and r.startedAt < :to");
            params.put("to", filter.to());
        }
        jpql.append(" order by r.startedAt desc, r.id desc");
        TypedQuery<CodeRun> query = em.createQuery(jpql.toString(), CodeRun.class);
        params.forEach(query::setParameter);
        return query.setMaxResults(Math.max(1, Math.min(MAX_PAGE, filter.limit()))).getResultList();
    }

    @RequiresCapability(Capability.ADMIN)
    public Optional<CodeRun> find(Caller caller, String runId) {
        return em.createQuery("select r from CodeRun r where r.runId = :id and r.workspaceId = :ws", CodeRun.class)
                .setParameter("id", runId).setParameter("ws", caller.workspaceId()).getResultStream().findFirst();
    }
}
