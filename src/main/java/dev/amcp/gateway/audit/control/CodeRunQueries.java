package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.audit.entity.CodeRunRecording;
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

    /** A recorded run and its recording. */
    public record Recorded(CodeRun run, CodeRunRecording recording) {}

    private static final String RECORDED = "select r, c from CodeRun r, CodeRunRecording c where c.runId = r.runId"
            + " and r.workspaceId = :ws and r.toolId = :tool and r.kind = '" + CodeRun.LIVE + "'";

    /**
     * A live run of this code tool with its recording, for a replay. What the caller may see of it is the replay's
     * concern (results of tools the caller may not read are withheld there), and so is its gate.
     */
    public Optional<Recorded> recorded(Caller caller, long toolId, String runId) {
        return em.createQuery(RECORDED + " and r.runId = :id", Object[].class).setParameter("ws", caller.workspaceId())
                .setParameter("tool", toolId).setParameter("id", runId).getResultStream()
                .map(row -> new Recorded((CodeRun) row[0], (CodeRunRecording) row[1])).findFirst();
    }

    /** The last {@code limit} recorded live runs of this code tool, newest first; only successful ones if asked. */
    public List<Recorded> lastRecorded(Caller caller, long toolId, boolean successfulOnly, int limit) {
        return em.createQuery(RECORDED + (successfulOnly ? " and r.status = 'SUCCESS'" : "") + " order by r.startedAt desc, r.id desc",
                        Object[].class).setParameter("ws", caller.workspaceId()).setParameter("tool", toolId)
                .setMaxResults(limit).getResultStream().map(row -> new Recorded((CodeRun) row[0], (CodeRunRecording) row[1])).toList();
    }

    @RequiresCapability(Capability.ADMIN)
    public Optional<CodeRun> find(Caller caller, String runId) {
        return em.createQuery("select r from CodeRun r where r.runId = :id and r.workspaceId = :ws", CodeRun.class)
                .setParameter("id", runId).setParameter("ws", caller.workspaceId()).getResultStream().findFirst();
    }
}
