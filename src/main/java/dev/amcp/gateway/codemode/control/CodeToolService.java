package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.control.LicensedFeature;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.control.Hashes;
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
 * must be a non-code tool of the same workspace. All checks pass before anything is written.
 */
@ApplicationScoped
@Transactional
public class CodeToolService {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    ToolService tools;

    @RequiresCapability(Capability.ADMIN)
    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    public Gated<McpTool> create(Caller caller, CodeToolDraft draft) {
        McpServerConfig server = check(caller, draft, null);
        McpTool tool = new McpTool(caller.workspaceId(), server.getId(), draft.tool().name());
        apply(caller, tool, draft);
        em.persist(tool);
        return Gated.of(tool);
    }

    @RequiresCapability(Capability.ADMIN)
    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.TOOL_COUNT})
    public Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft) {
        McpTool tool = tools.findInWorkspace(caller, toolId);
        if (!tool.isCodeTool()) {
            throw new IllegalArgumentException("Tool " + toolId + " is not a code tool");
        }
        McpServerConfig server = check(caller, draft, tool);
        String oldHash = tool.getPinnedCodeSha256();
        tool.setServerId(server.getId());
        tool.setName(draft.tool().name());
        apply(caller, tool, draft);
        Gated<McpTool> saved = Gated.of(tool);
        if (CodeToolSpec.DEFINER.equals(draft.spec().runAs()) && !tool.getPinnedCodeSha256().equals(oldHash)) {
            saved = saved.withWarning(Message.of("notice.codeTool.repinned",
                    "The tool runs as its definer: it is now pinned to this code and to your role ''{0}''", caller.role().name()));
        }
        return saved;
    }

    private McpServerConfig check(Caller caller, CodeToolDraft draft, McpTool existing) {
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
        if (!problems.isEmpty()) {
            throw new ToolService.InvalidToolException(problems);
        }
        return server;
    }

    private static void apply(Caller caller, McpTool tool, CodeToolDraft draft) {
        tool.setTitle(draft.tool().title());
        tool.setDescription(draft.tool().description());
        tool.setInputSchema(draft.tool().inputSchema());
        tool.setOutputSchema(draft.tool().outputSchema());
        tool.setEndpointMapping(draft.spec().toMapping());
        tool.pinDefiner(caller.userId(), caller.role().roleId(), Hashes.sha256(draft.spec().code()));
    }
}
