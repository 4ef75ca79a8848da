package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunRecorder;
import dev.amcp.gateway.audit.entity.CodeRunRecording;
import dev.amcp.gateway.codemode.entity.CodeApproval;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolCallRejectedException;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Human approval of the writes of code tools ({@code docs/code-mode.md#approvals}). A run that needs it
 * ({@link #needed}) runs its reads and pauses at its first write, leaving a pending approval bound to its caller. The
 * write is decided once: by the MCP client's user (2026-07-28 {@code input_required}) or by a workspace admin (the
 * editor's inbox, REST). Approving resumes the run through the {@code ToolExecutor} as its caller is now (role, scope,
 * license checked again), replaying the recorded reads and then making the write; a replay that diverges writes nothing.
 * The resumed run pauses again at its next write, under a new approval chained to the last: every write is approved on
 * its own, and a later resume answers the writes already made from the recording. The caller collects the result by
 * calling again with the approval's id. Run rows say who decided.
 */
@ApplicationScoped
public class WriteApprovals {

    @Inject
    ApprovalStore store;

    @Inject
    CodeExecutorService executor;

    @Inject
    CodeRunRecorder recorder;

    @Inject
    ToolExecutor tools;

    @Inject
    ToolCatalog catalog;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService keys;

    @Inject
    CodeRunSettings settings;

    /** Whether a run of a tool of {@code spec} called by {@code invoker} stops at its first write for a human. */
    boolean needed(Caller invoker, CodeToolSpec spec) {
        if (!spec.allowWrites() || CodeToolSpec.APPROVAL_NEVER.equals(spec.approval())) {
            return false;
        }
        Role role = CodeToolSpec.APPROVAL_ROLE.equals(spec.approval()) ? workspaces.findRole(invoker.role().roleId()) : null;
        return spec.writesNeedApproval(role != null && role.isApproveWrites());
    }

    /**
     * Runs a call of a code tool whose writes need approval: a run that makes no write answers as usual; one that
     * reaches a write pauses there, and the call answers the pending approval.
     */
    ToolResult pausing(CodeRunRequest request, McpTool tool) {
        CodeExecutorService.Paused paused = executor.runPausing(request);
        if (paused.write() == null) {
            return CodeResults.toToolResult(paused.outcome());
        }
        Caller invoker = request.invoker();
        Instant now = Instant.now();
        return opened(new CodeApproval(UUID.randomUUID().toString(), invoker.workspaceId(), paused.outcome().runId(),
                tool.getServerId(), tool.getId(), tool.getName(), invoker.userId(), invoker.apiKeyId(), invoker.username(),
                scopeJson(invoker.scope()), request.input() instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT, paused.write(),
                now, expiry(now)));
    }

    private ToolResult opened(CodeApproval approval) {
        store.open(approval);
        recorder.approval(approval.getRunId(), approval.getId(), CodeApproval.PENDING, null, null);
        return pendingResult(approval);
    }

    private Instant expiry(Instant now) {
        return now.plus(Duration.ofMinutes(settings.values().approvalTtlMinutes()));
    }

    /**
     * A call that follows up a paused write ({@link CallContext#approval()}): the same caller, tool and arguments as the
     * call that paused, or it is rejected. Without an answer it collects (the pending approval again, or how it ended);
     * with one it decides and, approved, resumes the run under {@code request} (prepared for this call, now).
     */
    ToolResult followUp(Caller caller, McpTool tool, JsonObject args, CodeRunRequest request, CallContext.Approval follow) {
        CodeApproval approval = store.find(follow.id()).filter(a -> boundTo(a, caller) && a.getToolId().equals(tool.getId()))
                .orElseThrow(() -> new ToolCallRejectedException("No paused write '" + Texts.clip(follow.id(), 64) + "' of yours for tool '" + tool.getName() + "'"));
        if (!CanonicalJson.of(approval.getInput()).equals(CanonicalJson.of(args == null ? JsonValue.EMPTY_JSON_OBJECT : args))) {
            throw new ToolCallRejectedException("The arguments differ from those of the call that paused (approval " + approval.getId()
                    + "); call again with the same arguments");
        }
        if (approval.isPending() && follow.approve() != null) { // decides only the write this id names, never a later one
            return decideAndResume(approval, request, follow, Instant.now()); // expired: the decision fails, settled says so
        }
        return settled(approval);
    }

    private ToolResult decideAndResume(CodeApproval approval, CodeRunRequest request, CallContext.Approval follow, Instant now) {
        String status = follow.approve() ? CodeApproval.APPROVED : CodeApproval.REFUSED;
        if (!decide(approval, status, follow.decidedBy(), now)) {
            return settled(store.find(approval.getId()).orElseThrow()); // decided meanwhile by someone else
        }
        if (!follow.approve()) {
            ToolResult refused = refusal(approval, follow.decidedBy());
            store.resumed(approval.getId(), CodeApproval.REFUSED, null, refused.toJson());
            return refused;
        }
        CodeRunRecording recording = store.recording(approval.getRunId());
        if (recording == null) {
            ToolResult gone = ToolResult.error("The paused run's recording is gone; " + nothingWritten(approval));
            store.resumed(approval.getId(), CodeApproval.FAILED, null, gone.toJson());
            return gone;
        }
        Caller bridge = request.bridgeCaller();
        // Pause answers are not results: the write a run paused at is made by this resume (approved) or a later one.
        List<JsonObject> calls = recording.getRecording().getJsonArray("calls").getValuesAs(JsonObject.class).stream()
                .filter(c -> !(c.get("error") instanceof JsonObject e && BridgeDispatcher.Answer.PAUSED.equals(JsonSupport.string(e, "code", null))))
                .toList();
        RecordedAnswers recorded = new RecordedAnswers(executor.live(), calls, name -> name.isEmpty() || catalog.findStored(bridge, name).isPresent(),
                (c, name) -> catalog.findStored(c, name).isPresent());
        ResumeAnswers answers = new ResumeAnswers(executor.live(), recorded, executor.pausing(), catalog, approval.plannedWrite());
        RunOutcome outcome = executor.run(request, answers, approval.getRunId());
        recorder.approval(outcome.runId(), approval.getId(), CodeApproval.APPROVED, follow.decidedBy(), now);
        if (outcome.status() == RunStatus.PAUSED && answers.planned() != null) { // the next write waits for its own approval
            Instant paused = Instant.now();
            ToolResult next = opened(approval.next(UUID.randomUUID().toString(), outcome.runId(), answers.planned(), paused, expiry(paused)));
            store.resumed(approval.getId(), CodeApproval.APPROVED, outcome.runId(), next.toJson());
            return next;
        }
        boolean diverged = outcome.status() == RunStatus.DIVERGED && !answers.wrote();
        String end = outcome.status() == RunStatus.SUCCESS ? CodeApproval.APPROVED : diverged ? CodeApproval.DIVERGED : CodeApproval.FAILED;
        ToolResult result = diverged
                ? ToolResult.error("The approved run diverged when it was resumed, so " + nothingWritten(approval) + ": " + outcome.error())
                : CodeResults.toToolResult(outcome);
        store.resumed(approval.getId(), end, outcome.runId(), result.toJson());
        return result;
    }

    /** What a refused write answers: it was not made, nor anything after it. */
    private ToolResult refusal(CodeApproval approval, String by) {
        return ToolResult.error("The write with '" + approval.getPlannedTool() + "' was refused by " + by + "; " + nothingWritten(approval));
    }

    /** "nothing was written", or, past the first write of a chain, that the writes approved before stay made. */
    private String nothingWritten(CodeApproval approval) {
        return store.previous(approval.getRunId()).isEmpty() ? "nothing was written"
                : "nothing more was written (the writes approved before it in this run were made)";
    }

    /**
     * What a follow-up collects: the pending approval again, or how it ended; an approved write after which the run
     * paused again answers as the next approval of its chain does now.
     */
    private ToolResult settled(CodeApproval approval) {
        Instant now = Instant.now();
        if (approval.expiredAt(now)) {
            expire(approval, now);
            approval = store.find(approval.getId()).orElseThrow();
        }
        return switch (approval.getStatus()) {
            case CodeApproval.PENDING -> pendingResult(approval);
            case CodeApproval.EXPIRED -> ToolResult.error("Approval " + approval.getId() + " expired undecided; " + nothingWritten(approval));
            default -> {
                if (approval.getOutcome() == null) {
                    yield ToolResult.error("Approval " + approval.getId() + " was " + approval.getStatus().toLowerCase() + " by "
                            + approval.getDecidedBy() + "; the run is being resumed, call again shortly");
                }
                ToolResult result = ToolResult.fromJson(approval.getOutcome());
                JsonObject next = result.pendingApproval();
                yield next == null ? result : store.find(JsonSupport.string(next, "id", null)).map(this::settled).orElse(result);
            }
        };
    }

    private void expire(CodeApproval approval, Instant now) {
        decide(approval, CodeApproval.EXPIRED, null, now);
    }

    /** Moves a pending approval to {@code status} and notes it on its run's row: true when this call did it. */
    private boolean decide(CodeApproval approval, String status, String by, Instant now) {
        if (!store.decide(approval.getId(), status, by, now)) {
            return false;
        }
        recorder.approval(approval.getRunId(), approval.getId(), status, by, now);
        return true;
    }

    /** Whether the approval belongs to this principal: the workspace, user and key of the call that paused. */
    private static boolean boundTo(CodeApproval approval, Caller caller) {
        return approval.getWorkspaceId() == caller.workspaceId() && Objects.equals(approval.getRequesterKeyId(), caller.apiKeyId())
                && Objects.equals(approval.getRequesterUserId(), caller.userId());
    }

    private static ToolResult pendingResult(CodeApproval a) {
        return ToolResult.pendingApproval("This run paused before a write that needs a human's approval; nothing has been written. "
                + a.getSummary() + ". Approval " + a.getId() + " waits until " + a.getExpiresAt() + ": once an admin decides in the "
                + "approvals inbox, call this tool again with the same arguments and _meta {\"" + ToolResult.META_APPROVAL_ID + "\": \""
                + a.getId() + "\"} to get the result.", JsonSupport.JSON.createObjectBuilder().add("id", a.getId()).add("status", a.getStatus())
                .add("plannedWrite", a.plannedWrite().json()).add("expiresAt", a.getExpiresAt().toString()).build());
    }

    // ---- the admins' side: the inbox and REST ----

    /** The workspace's pending approvals, newest first; those expired meanwhile are marked so and left out. */
    @RequiresCapability(Capability.ADMIN)
    public List<CodeApproval> pending(Caller admin) {
        Instant now = Instant.now();
        return store.pending(admin.workspaceId()).stream().filter(a -> {
            if (a.expiredAt(now)) {
                expire(a, now);
                return false;
            }
            return true;
        }).toList();
    }

    /** One approval, for a workspace admin or the principal it is bound to; 404 for anyone else. */
    public CodeApproval shown(Caller caller, String id) {
        return store.find(id).filter(a -> a.getWorkspaceId() == caller.workspaceId() && (caller.has(Capability.ADMIN) || boundTo(a, caller)))
                .orElseThrow(() -> noSuch(id));
    }

    /**
     * An admin approves: the run resumes now, as its caller is now, and the approval ends APPROVED (the result waits
     * for the caller), DIVERGED (nothing written) or FAILED. 404 outside the admin's workspace, 409 once decided or expired.
     */
    @RequiresCapability(Capability.ADMIN)
    public CodeApproval approve(Caller admin, String id) {
        CodeApproval approval = decidable(admin, id);
        CallContext.Approval follow = new CallContext.Approval(approval.getId(), true, decider(admin));
        Caller requester = keys.callerNow(approval.getWorkspaceId(), approval.getRequesterUserId(), approval.getRequesterKeyId())
                .map(c -> c.withScope(scopeOf(approval.getCallScope()))).orElse(null);
        try {
            if (requester == null) {
                throw new ToolNotAvailableException(approval.getToolName());
            }
            new CallContext(null, null).following(follow).run(() -> tools.call(requester, approval.getToolName(), approval.getInput()));
        } catch (ToolNotAvailableException e) { // the requester lost the tool, or their access, since the pause
            if (decide(approval, CodeApproval.FAILED, follow.decidedBy(), Instant.now())) {
                store.resumed(approval.getId(), CodeApproval.FAILED, null, ToolResult.error("The run was approved by " + follow.decidedBy()
                        + ", but its caller may no longer call '" + approval.getToolName() + "'; " + nothingWritten(approval)).toJson());
            }
        } catch (ToolCallRejectedException e) {
            throw new ConflictException(e.getMessage());
        }
        return store.find(id).orElseThrow();
    }

    /** An admin refuses: nothing is written, and the caller's next call with the id learns who refused. */
    @RequiresCapability(Capability.ADMIN)
    public CodeApproval refuse(Caller admin, String id) {
        CodeApproval approval = decidable(admin, id);
        String by = decider(admin);
        if (!decide(approval, CodeApproval.REFUSED, by, Instant.now())) {
            throw notPending(store.find(id).orElseThrow());
        }
        store.resumed(approval.getId(), CodeApproval.REFUSED, null, refusal(approval, by).toJson());
        return store.find(id).orElseThrow();
    }

    private CodeApproval decidable(Caller admin, String id) {
        CodeApproval approval = store.find(id).filter(a -> a.getWorkspaceId() == admin.workspaceId()).orElseThrow(() -> noSuch(id));
        Instant now = Instant.now();
        if (approval.expiredAt(now)) {
            expire(approval, now);
            throw new ConflictException(Message.of("problem.approval.expired", "Approval {0} expired undecided; nothing was written", id));
        }
        if (!approval.isPending()) {
            throw notPending(approval);
        }
        return approval;
    }

    private static ConflictException notPending(CodeApproval approval) {
        return new ConflictException(Message.of("problem.approval.decided", "Approval {0} is already {1}", approval.getId(),
                approval.getStatus().toLowerCase()));
    }

    private static NoSuchItemException noSuch(String id) {
        return new NoSuchItemException(Message.of("problem.approval.notFound", "No approval {0} in this workspace", Texts.clip(id, 64)));
    }

    /** Who decided, as the run rows keep it: an admin by user name, or a client's user ({@code client:}). */
    static String decider(Caller admin) {
        return "admin:" + admin.username();
    }

    static JsonObject scopeJson(CallScope scope) {
        var b = JsonSupport.JSON.createObjectBuilder().add("readOnlyOnly", scope.readOnlyOnly()).add("codeToolsAllowed", scope.codeToolsAllowed());
        if (scope.serverId() != null) {
            b.add("serverId", scope.serverId());
        }
        if (scope.allowedTools() != null) {
            JsonArrayBuilder tools = JsonSupport.JSON.createArrayBuilder();
            scope.allowedTools().stream().sorted().forEach(tools::add);
            b.add("allowedTools", tools);
        }
        return b.build();
    }

    static CallScope scopeOf(JsonObject json) {
        Set<String> allowed = json.get("allowedTools") instanceof jakarta.json.JsonArray a
                ? a.getValuesAs(JsonString.class).stream().map(JsonString::getString).collect(Collectors.toSet()) : null;
        return new CallScope(json.containsKey("serverId") ? json.getJsonNumber("serverId").longValue() : null, allowed,
                json.getBoolean("readOnlyOnly", false), json.getBoolean("codeToolsAllowed", true));
    }
}
