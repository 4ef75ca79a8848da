package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A write a paused code run waits to have approved ({@code code_approvals}): the run that paused, the caller it is bound
 * to (only that principal collects the result), the scope it called in, the tool's input and the planned write. Its
 * {@code status} moves once from {@code PENDING} to {@code APPROVED} (resumed; {@code outcome} is the client's result),
 * {@code REFUSED}, {@code EXPIRED}, {@code DIVERGED} (approved, but the replay left the recording: no write) or
 * {@code FAILED} (approved, the resumed run ended otherwise).
 */
@Entity
@Table(name = "code_approvals")
@NamedQuery(name = CodeApproval.BY_WORKSPACE_STATUS, query = "select a from CodeApproval a where a.workspaceId = :workspaceId "
        + "and a.status = :status order by a.createdAt desc")
public class CodeApproval {

    public static final String BY_WORKSPACE_STATUS = "CodeApproval.byWorkspaceStatus";
    public static final String PENDING = "PENDING";
    public static final String APPROVED = "APPROVED";
    public static final String REFUSED = "REFUSED";
    public static final String EXPIRED = "EXPIRED";
    public static final String DIVERGED = "DIVERGED";
    public static final String FAILED = "FAILED";

    @Id
    private String id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "run_id", nullable = false)
    private String runId;

    @Column(name = "server_id")
    private Long serverId;

    @Column(name = "tool_id", nullable = false)
    private Long toolId;

    @Column(name = "tool_name", nullable = false)
    private String toolName;

    @Column(name = "requester_user_id")
    private Long requesterUserId;

    @Column(name = "requester_key_id")
    private Long requesterKeyId;

    @Column(name = "requester_name")
    private String requesterName;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "call_scope", nullable = false)
    private JsonObject callScope;

    @Convert(converter = JsonObjectConverter.class)
    @Column(nullable = false)
    private JsonObject input;

    @Column(name = "planned_tool", nullable = false)
    private String plannedTool;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "planned_args", nullable = false)
    private JsonObject plannedArgs;

    @Column(nullable = false)
    private String summary;

    @Column(nullable = false)
    private String status = PENDING;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    private Instant expiresAt;

    @Column(name = "decided_by")
    private String decidedBy;

    @Column(name = "decided_at")
    private Instant decidedAt;

    @Column(name = "resume_run_id")
    private String resumeRunId;

    @Convert(converter = JsonObjectConverter.class)
    private JsonObject outcome;

    protected CodeApproval() {}

    public CodeApproval(String id, Long workspaceId, String runId, Long serverId, Long toolId, String toolName, Long requesterUserId,
                        Long requesterKeyId, String requesterName, JsonObject callScope, JsonObject input, PlannedWrite write,
                        Instant createdAt, Instant expiresAt) {
        this.id = id;
        this.workspaceId = workspaceId;
        this.runId = runId;
        this.serverId = serverId;
        this.toolId = toolId;
        this.toolName = toolName;
        this.requesterUserId = requesterUserId;
        this.requesterKeyId = requesterKeyId;
        this.requesterName = requesterName;
        this.callScope = callScope;
        this.input = input;
        this.plannedTool = write.tool();
        this.plannedArgs = write.args();
        this.summary = write.summary();
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    /** The approval of the run's next write, chained to this one: the same caller, tool, call and scope; paused in {@code runId}. */
    public CodeApproval next(String id, String runId, PlannedWrite write, Instant createdAt, Instant expiresAt) {
        return new CodeApproval(id, workspaceId, runId, serverId, toolId, toolName, requesterUserId, requesterKeyId, requesterName,
                callScope, input, write, createdAt, expiresAt);
    }

    /** Settles the approval once: its final status, who decided (or why nobody did) and when. */
    public void decide(String status, String decidedBy, Instant at) {
        this.status = status;
        this.decidedBy = decidedBy == null || decidedBy.length() <= 200 ? decidedBy : decidedBy.substring(0, 199) + "…";
        this.decidedAt = at;
    }

    /** The end of the resumed run: its id and the result its caller collects. */
    public void resumed(String status, String resumeRunId, JsonObject outcome) {
        this.status = status;
        this.resumeRunId = resumeRunId;
        this.outcome = outcome;
    }

    public boolean isPending() {
        return PENDING.equals(status);
    }

    public boolean expiredAt(Instant now) {
        return isPending() && !now.isBefore(expiresAt);
    }

    public PlannedWrite plannedWrite() {
        return new PlannedWrite(plannedTool, plannedArgs, summary);
    }

    /** The approval as the REST API and the editor show it. */
    public JsonObject json() {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", id).add("status", status).add("runId", runId)
                .add("tool", toolName).add("requester", requesterName == null ? "" : requesterName)
                .add("plannedWrite", plannedWrite().json()).add("createdAt", createdAt.toString()).add("expiresAt", expiresAt.toString());
        if (decidedBy != null) {
            b.add("decidedBy", decidedBy).add("decidedAt", decidedAt.toString());
        }
        if (resumeRunId != null) {
            b.add("resumeRunId", resumeRunId);
        }
        if (outcome != null) {
            b.add("outcome", outcome);
        }
        return b.build();
    }

    public String getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getRunId() { return runId; }
    public Long getServerId() { return serverId; }
    public Long getToolId() { return toolId; }
    public String getToolName() { return toolName; }
    public Long getRequesterUserId() { return requesterUserId; }
    public Long getRequesterKeyId() { return requesterKeyId; }
    public String getRequesterName() { return requesterName; }
    public JsonObject getCallScope() { return callScope; }
    public JsonObject getInput() { return input; }
    public String getPlannedTool() { return plannedTool; }
    public JsonObject getPlannedArgs() { return plannedArgs; }
    public String getSummary() { return summary; }
    public String getStatus() { return status; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getExpiresAt() { return expiresAt; }
    public String getDecidedBy() { return decidedBy; }
    public Instant getDecidedAt() { return decidedAt; }
    public String getResumeRunId() { return resumeRunId; }
    public JsonObject getOutcome() { return outcome; }
}
