package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.governance.control.LicensedFeature;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes code tools for {@link CodeToolService}, in one transaction each: writes need the Enterprise edition and the
 * number of code tools is licensed ({@link LicensedFeature}, whose count holds the workspace row's lock until the
 * commit); every {@code uses} entry must be a non-code tool of the same workspace. All checks pass before anything is
 * written. The runner's verdict on the code comes in from outside, so no lock is held while the runner is asked.
 */
@ApplicationScoped
@Transactional
class CodeToolStore {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    ToolService tools;

    @Inject
    CodeToolDrift drift;

    /** A draft that passed every check, whether the runner could check its code, and what the save warns about. */
    private record Checked(McpServerConfig server, boolean codeChecked, List<Message> warnings) {
        <T> Gated<T> gated(T value) {
            Gated<T> gated = codeChecked ? Gated.of(value) : Gated.of(value).withWarning(Message.of("notice.codeTool.notChecked",
                    "Code not checked: runner unavailable (the runner still checks it before every run)"));
            for (Message warning : warnings) {
                gated = gated.withWarning(warning);
            }
            return gated;
        }
    }

    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    Gated<McpTool> create(Caller caller, CodeToolDraft draft, CodeCheck.Verdict verdict) {
        Checked checked = check(caller, draft, null, verdict);
        McpTool tool = new McpTool(caller.workspaceId(), checked.server().getId(), draft.tool().name());
        apply(caller, tool, draft);
        em.persist(tool);
        em.flush(); // the tool's id, which the audit row names
        tools.recordChange(caller, AdminChange.CREATE, null, tool);
        return checked.gated(tool);
    }

    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft, CodeCheck.Verdict verdict) {
        McpTool tool = tools.findInWorkspace(caller, toolId);
        if (!tool.isCodeTool()) {
            throw new IllegalArgumentException("Tool " + toolId + " is not a code tool");
        }
        Checked checked = check(caller, draft, tool, verdict);
        String oldHash = tool.getPinnedCodeSha256();
        var before = ToolService.snapshot(tool);
        tool.setServerId(checked.server().getId());
        tool.setName(draft.tool().name());
        apply(caller, tool, draft);
        tools.recordChange(caller, AdminChange.UPDATE, before, tool);
        Gated<McpTool> saved = checked.gated(tool);
        if (CodeToolSpec.DEFINER.equals(draft.spec().runAs()) && !tool.getPinnedCodeSha256().equals(oldHash)) {
            saved = saved.withWarning(Message.of("notice.codeTool.repinned",
                    "The tool runs as its definer: it is now pinned to this code and to your role ''{0}''", caller.role().name()));
        }
        return saved;
    }

    private Checked check(Caller caller, CodeToolDraft draft, McpTool existing, CodeCheck.Verdict verdict) {
        Map<String, Message> problems = new LinkedHashMap<>();
        McpServerConfig server = tools.checkCommon(caller, draft.tool(), existing, problems);
        CodeToolSpec spec = draft.spec();
        if (spec.code() == null || spec.code().isBlank()) {
            problems.put("code", Message.of("problem.codeTool.codeRequired", "Write the code the tool runs"));
        } else if (spec.code().length() > CodeToolSpec.MAX_CODE_CHARS) {
            problems.put("code", Message.of("problem.codeTool.codeTooLong", "Code is limited to {0} characters", CodeToolSpec.MAX_CODE_CHARS));
        }
        if (!CodeToolSpec.APPROVALS.contains(spec.approval())) {
            problems.put("approval", Message.of("problem.codeTool.approval", "approval is ''always'', ''never'' or ''role''"));
        } else if (!CodeToolSpec.APPROVAL_ROLE.equals(spec.approval()) && !spec.allowWrites()) {
            problems.put("approval", Message.of("problem.codeTool.approvalWithoutWrites", "approval applies to writes: set allowWrites, or leave approval to the role"));
        }
        if (!CodeToolSpec.INVOKER.equals(spec.runAs()) && !CodeToolSpec.DEFINER.equals(spec.runAs())) {
            problems.put("runAs", Message.of("problem.codeTool.runAs", "runAs is ''invoker'' or ''definer''"));
        }
        for (String use : spec.uses()) {
            McpTool used = em.createNamedQuery(McpTool.BY_NAME, McpTool.class).setParameter("workspaceId", caller.workspaceId())
                    .setParameter("name", use).getResultStream().findFirst().orElse(null);
            if (used == null) {
                problems.put("uses", Message.of("problem.codeTool.usesUnknown", "''{0}'' is not a tool of this workspace", use));
                break;
            }
            if (used.isCodeTool() || (existing != null && used.getId().equals(existing.getId()))) {
                problems.put("uses", Message.of("problem.codeTool.usesCodeTool", "''{0}'' is a code tool; code tools cannot call code tools", use));
                break;
            }
        }
        if (!problems.containsKey("code")) {
            verdict.problems().stream().findFirst().ifPresent(p -> problems.put("code", Message.of("problem.codeTool.codeCheck",
                    "Line {0}, column {1}: {2}", p.line(), p.column(), p.message())));
        }
        List<Message> warnings = toolNames(spec, verdict, problems);
        if (!problems.isEmpty()) {
            throw new ToolService.InvalidToolException(problems);
        }
        return new Checked(server, verdict.checked(), warnings);
    }

    /**
     * The tool names the runner read from the code: a literal name outside {@code uses} is a problem naming its line; a
     * name that cannot be read is a problem for a tool that runs as its definer (its pinned rights must be reviewable
     * from the code), and a warning otherwise (the bridge still holds every call to {@code uses} at run time).
     */
    private static List<Message> toolNames(CodeToolSpec spec, CodeCheck.Verdict verdict, Map<String, Message> problems) {
        List<RunnerFrames.ToolCall> outside = verdict.outside(spec.uses());
        if (!outside.isEmpty() && !problems.containsKey("uses")) {
            problems.put("uses", Message.of("problem.codeTool.notInUses", "Line {0} calls ''{1}'', which is not in uses (missing: {2})",
                    outside.get(0).line(), outside.get(0).name(), String.join(", ", outside.stream().map(RunnerFrames.ToolCall::name).toList())));
        }
        List<RunnerFrames.ComputedCall> computed = verdict.result().computed();
        if (computed.isEmpty()) {
            return List.of();
        }
        RunnerFrames.ComputedCall first = computed.get(0);
        if (CodeToolSpec.DEFINER.equals(spec.runAs())) {
            problems.putIfAbsent("code", Message.of("problem.codeTool.computedName",
                    "Line {0}, column {1}: {2}; a tool that runs as its definer must name every tool it calls literally",
                    first.line(), first.column(), first.reason()));
            return List.of();
        }
        return computed.stream().map(c -> Message.of("notice.codeTool.computedName",
                "Line {0}, column {1}: {2}; this call is checked against uses only when it runs", c.line(), c.column(), c.reason())).toList();
    }

    private void apply(Caller caller, McpTool tool, CodeToolDraft draft) {
        tool.setTitle(draft.tool().title());
        tool.setDescription(draft.tool().description());
        tool.setInputSchema(draft.tool().inputSchema());
        tool.setOutputSchema(draft.tool().outputSchema());
        tool.setEndpointMapping(draft.spec().toMapping());
        tool.pinDefiner(caller.userId(), caller.role().roleId(), CodeToolPin.of(draft.spec(), draft.tool().inputSchema()));
        tool.setUsesSchemaPins(drift.pins(caller.workspaceId(), draft.spec().uses())); // a save is the admin's review
    }
}
