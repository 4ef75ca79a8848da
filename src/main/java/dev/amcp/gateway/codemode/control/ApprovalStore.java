package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.entity.CodeRunRecording;
import dev.amcp.gateway.codemode.entity.CodeApproval;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code code_approvals} rows, each change in a transaction of its own (a run in between takes seconds). A decision
 * is one conditional update, so of two deciders (an admin and the client, or two admins) exactly one wins.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRES_NEW)
public class ApprovalStore {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    public void open(CodeApproval approval) {
        em.persist(approval);
    }

    public Optional<CodeApproval> find(String id) {
        return id == null || id.length() > 64 ? Optional.empty() : Optional.ofNullable(em.find(CodeApproval.class, id));
    }

    /** The pending approvals of a workspace, newest first (expired ones included until someone looks at them). */
    public List<CodeApproval> pending(long workspaceId) {
        return em.createNamedQuery(CodeApproval.BY_WORKSPACE_STATUS, CodeApproval.class).setParameter("workspaceId", workspaceId)
                .setParameter("status", CodeApproval.PENDING).setMaxResults(500).getResultList();
    }

    /**
     * Moves a pending approval to {@code status}, decided {@code by} at {@code at}: true when this call did it, false
     * when it was no longer pending (decided meanwhile) or, for a decision other than expiry, had expired.
     */
    public boolean decide(String id, String status, String by, Instant at) {
        String expiry = CodeApproval.EXPIRED.equals(status) ? "" : " and a.expiresAt > :at";
        return em.createQuery("update CodeApproval a set a.status = :status, a.decidedBy = :by, a.decidedAt = :at "
                        + "where a.id = :id and a.status = :pending" + expiry)
                .setParameter("status", status).setParameter("by", by).setParameter("at", at).setParameter("id", id)
                .setParameter("pending", CodeApproval.PENDING).executeUpdate() == 1;
    }

    /** The end of the resumed run: the approval's final status, the run and the result its caller collects. */
    public void resumed(String id, String status, String resumeRunId, JsonObject outcome) {
        CodeApproval approval = em.find(CodeApproval.class, id);
        if (approval != null) {
            approval.resumed(status, resumeRunId, outcome);
        }
    }

    /** The approval whose resumed run paused again as {@code runId}, i.e. the one before it in its chain. */
    public Optional<CodeApproval> previous(String runId) {
        return em.createQuery("select a from CodeApproval a where a.resumeRunId = :runId", CodeApproval.class)
                .setParameter("runId", runId).getResultStream().findFirst();
    }

    /** The recording of the run that paused, or {@code null}. */
    public CodeRunRecording recording(String runId) {
        return em.find(CodeRunRecording.class, runId);
    }
}
