package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.control.LicensedFeature;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
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
import java.util.Map;

/**
 * Saves code tools behind their gates: only admins define them ({@link RequiresCapability}); writes need the
 * Enterprise edition and the number of code tools is licensed ({@link LicensedFeature}); every {@code uses} entry
 * must be a non-code tool of the same workspace; the runner checks the code ({@link CodeCheck}). All checks pass
 * before anything is written.
 */
@ApplicationScoped
@Transactional
public class CodeToolService {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    ToolService tools;

    @Inject
    CodeCheck codeCheck;

    /** A draft that passed every check, and whether the runner could check its code. */
    private record Checked(McpServerConfig server, boolean codeChecked) {
        <T> Gated<T> gated(T value) {
            return codeChecked ? Gated.of(value) : Gated.of(value).withWarning(Message.of("notice.codeTool.notChecked",
                    "Code not checked: runner unavailable (the runner still checks it before every run)"));
        }
    }

    @RequiresCapability(Capability.ADMIN)
    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    public Gated<McpTool> create(Caller caller, CodeToolDraft draft) {
        Checked checked = check(caller, draft, null);
        McpTool tool = new McpTool(caller.workspaceId(), checked.server().getId(), draft.tool().name());
        apply(caller, tool, draft);
        em.persist(tool);
        return checked.gated(tool);
    }

    @RequiresCapability(Capability.ADMIN)
    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    public Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft) {
        McpTool tool = tools.findInWorkspace(caller, toolId);
        if (!tool.isCodeTool()) {
            throw new IllegalArgumentException("Tool " + toolId + " is not a code tool");
        }
        Checked checked = check(caller, draft, tool);
        String oldHash = tool.getPinnedCodeSha256();
        tool.setServerId(checked.server().getId());
        tool.setName(draft.tool().name());
        apply(caller, tool, draft);
        Gated<McpTool> saved = checked.gated(tool);
        if (CodeToolSpec.DEFINER.equals(draft.spec().runAs()) && !tool.getPinnedCodeSha256().equals(oldHash)) {
            saved = saved.withWarning(Message.of("notice.codeTool.repinned",
                    "The tool runs as its definer: it is now pinned to this code and to your role ''{0}''", caller.role().name()));
        }
        return saved;
    }

    private Checked check(Caller caller, CodeToolDraft draft, McpTool existing) {
        Map<String, Message> problems = new LinkedHashMap<>();
        McpServerConfig server = tools.checkCommon(caller, draft.tool(), existing, problems);
        CodeToolSpec spec = draft.spec();
        if (spec.code() == null || spec.code().isBlank()) {
            problems.put("code", Message.of("problem.codeTool.codeRequired", "Write the code the tool runs"));
        } else if (spec.code().length() > CodeToolSpec.MAX_CODE_CHARS) {
            problems.put("code", Message.of("problem.codeTool.codeTooLong", "Code is limited to {0} characters", CodeToolSpec.MAX_CODE_CHARS));
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
        boolean codeChecked = false;
        if (!problems.containsKey("code")) {
            var found = codeCheck.check(spec.code());
            codeChecked = found.isPresent();
            found.flatMap(p -> p.stream().findFirst()).ifPresent(p -> problems.put("code", Message.of("problem.codeTool.codeCheck",
                    "Line {0}, column {1}: {2}", p.line(), p.column(), p.message())));
        }
        if (!problems.isEmpty()) {
            throw new ToolService.InvalidToolException(problems);
        }
        return new Checked(server, codeChecked);
    }

    private static void apply(Caller caller, McpTool tool, CodeToolDraft draft) {
        tool.setTitle(draft.tool().title());
        tool.setDescription(draft.tool().description());
        tool.setInputSchema(draft.tool().inputSchema());
        tool.setOutputSchema(draft.tool().outputSchema());
        tool.setEndpointMapping(draft.spec().toMapping());
        tool.pinDefiner(caller.userId(), caller.role().roleId(), CodeToolPin.of(draft.spec(), draft.tool().inputSchema()));
    }
}
