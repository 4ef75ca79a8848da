package dev.amcp.gateway.audit.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Duration;
import java.time.Instant;

/**
 * The audit record of one code run, refused runs included: who ran what code under which role, how it ended, and
 * the trace of its bridge calls.
 */
@Entity
@Table(name = "code_runs")
public class CodeRun {

    /** The most console characters an audit row keeps (the last ones). */
    public static final int CONSOLE_TAIL_CHARS = 4000;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "run_id", nullable = false, unique = true)
    private String runId;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "server_id")
    private Long serverId;

    @Column(name = "tool_id")
    private Long toolId;

    @Column(name = "tool_name")
    private String toolName;

    @Column(name = "inline_run", nullable = false)
    private boolean inlineRun;

    @Column(name = "invoker_user_id")
    private Long invokerUserId;

    @Column(name = "invoker_key_id")
    private Long invokerKeyId;

    @Column(name = "run_as_mode", nullable = false)
    private String runAsMode;

    @Column(name = "run_as_role", nullable = false)
    private String runAsRole;

    @Column(name = "code_sha256", nullable = false)
    private String codeSha256;

    /** Every status a row can have: {@code RUNNING} until the run ends, then how it ended. */
    public static final java.util.List<String> STATUSES = java.util.List.of("SUCCESS", "ERROR", "TIMEOUT", "LIMIT", "CANCELLED", "REFUSED", "DIVERGED", "PAUSED", "RUNNING");

    /** A run's kind: a live run, a replay of a recorded run (no tool is ever called), or a dry run (writes planned, not made). */
    public static final String LIVE = "live";
    public static final String REPLAY = "replay";
    public static final String DRY_RUN = "dry_run";

    @Column(name = "run_kind", nullable = false)
    private String kind = LIVE;

    /** The run a replay replayed. */
    @Column(name = "replay_of")
    private String replayOf;

    @Column(nullable = false)
    private String status = "RUNNING";

    /** The approval of a write the run paused at or resumed after, its decision and who decided (else null). */
    @Column(name = "approval_id")
    private String approvalId;

    private String approval;

    @Column(name = "approval_by")
    private String approvalBy;

    @Column(name = "approval_at")
    private Instant approvalAt;

    private String error;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "bridge_trace")
    private JsonObject bridgeTrace;

    @Column(name = "bridge_calls")
    private int bridgeCalls;

    @Column(name = "input_bytes")
    private long inputBytes;

    @Column(name = "output_bytes")
    private long outputBytes;

    @Column(name = "console_bytes")
    private long consoleBytes;

    @Column(name = "console_tail")
    private String consoleTail;

    @Column(name = "started_at", nullable = false)
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "wall_ms")
    private Long wallMs;

    protected CodeRun() {}

    public CodeRun(String runId, Long workspaceId, boolean inlineRun, String runAsMode, String runAsRole,
                   String codeSha256, Instant startedAt) {
        this.runId = runId;
        this.workspaceId = workspaceId;
        this.inlineRun = inlineRun;
        this.runAsMode = runAsMode;
        this.runAsRole = runAsRole;
        this.codeSha256 = codeSha256;
        this.startedAt = startedAt;
    }

    /** Closes the record with its outcome. The error text is cut to the column's size. */
    public void finish(String status, String error, JsonObject bridgeTrace, int bridgeCalls, long inputBytes,
                       long outputBytes, long consoleBytes, Instant finishedAt) {
        this.status = status;
        this.error = clippedError(error);
        this.bridgeTrace = bridgeTrace;
        this.bridgeCalls = bridgeCalls;
        this.inputBytes = inputBytes;
        this.outputBytes = outputBytes;
        this.consoleBytes = consoleBytes;
        this.finishedAt = finishedAt;
        this.wallMs = Duration.between(startedAt, finishedAt).toMillis();
    }

    /** A run's error as its column keeps it: at most 4,000 characters. */
    public static String clippedError(String error) {
        return error == null || error.length() <= 4000 ? error : error.substring(0, 3999) + "…";
    }

    /** The end of a run's console output, cut to the column's size, or null when there was none. */
    public static String consoleTailOf(String console) {
        return console == null || console.isEmpty() ? null
                : console.length() <= CONSOLE_TAIL_CHARS ? console : "…" + console.substring(console.length() - CONSOLE_TAIL_CHARS + 1);
    }

    public void attribute(Long serverId, Long toolId, String toolName, Long invokerUserId, Long invokerKeyId) {
        this.serverId = serverId;
        this.toolId = toolId;
        this.toolName = toolName;
        this.invokerUserId = invokerUserId;
        this.invokerKeyId = invokerKeyId;
    }

    /** Marks the row as a replay of {@code replayOf} or a dry run; rows are live runs otherwise. */
    public void kind(String kind, String replayOf) {
        this.kind = kind;
        this.replayOf = replayOf;
    }

    /** Notes the approval of the write this run paused at or resumed after: its state, who decided and when. */
    public void approval(String approvalId, String approval, String by, Instant at) {
        this.approvalId = approvalId;
        this.approval = approval;
        this.approvalBy = by;
        this.approvalAt = at;
    }

    public String getApprovalId() { return approvalId; }
    public String getApproval() { return approval; }
    public String getApprovalBy() { return approvalBy; }
    public Instant getApprovalAt() { return approvalAt; }
    public Long getId() { return id; }
    public String getKind() { return kind; }
    public String getReplayOf() { return replayOf; }
    public String getRunId() { return runId; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getServerId() { return serverId; }
    public Long getToolId() { return toolId; }
    public String getToolName() { return toolName; }
    public boolean isInlineRun() { return inlineRun; }
    public Long getInvokerUserId() { return invokerUserId; }
    public Long getInvokerKeyId() { return invokerKeyId; }
    public String getRunAsMode() { return runAsMode; }
    public String getRunAsRole() { return runAsRole; }
    public String getCodeSha256() { return codeSha256; }
    public String getStatus() { return status; }
    public String getError() { return error; }
    public JsonObject getBridgeTrace() { return bridgeTrace; }
    public int getBridgeCalls() { return bridgeCalls; }
    public long getInputBytes() { return inputBytes; }
    public long getOutputBytes() { return outputBytes; }
    public long getConsoleBytes() { return consoleBytes; }
    public String getConsoleTail() { return consoleTail; }
    public Instant getStartedAt() { return startedAt; }
    public Instant getFinishedAt() { return finishedAt; }
    public Long getWallMs() { return wallMs; }
}
