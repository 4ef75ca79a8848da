package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.UsedToolDrift;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolInvoker;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Set;

/**
 * Runs saved code tools ({@code method = code}). The bridge may call only the tools in {@code uses}, writes only
 * with {@code allowWrites}, never another code tool. A tool runs only while its whole definition is what an admin
 * saved ({@link CodeToolPin}); {@code runAs = definer} then answers under the definer's role, and only while the tools
 * it uses still have the schemas it was saved against ({@link CodeToolDrift}). A refused run is
 * audited like any other. A tool whose writes need a human's approval pauses at its first write ({@link WriteApprovals}).
 */
@ApplicationScoped
public class CodeToolInvoker implements ToolInvoker {

    @Inject
    CodeExecutorService executor;

    @Inject
    WorkspaceService workspaces;

    @Inject
    CodeToolDrift drift;

    @Inject
    WriteApprovals approvals;

    @Override
    public boolean handles(String method) {
        return McpTool.CODE.equals(method);
    }

    @Override
    public ToolResult invoke(Caller caller, McpTool tool, JsonObject args) {
        CodeToolSpec spec = CodeToolSpec.from(tool.getEndpointMapping());
        Prepared run = prepare(caller, tool, spec, false, spec.code(), args);
        if (run.refusal() != null) {
            return CodeResults.toToolResult(executor.refuse(run.request(), run.refusal()));
        }
        CallContext context = CallContext.current();
        if (context.approval() != null) { // a follow-up of a paused write: collect, or decide and resume
            return approvals.followUp(caller, tool, args, run.request(), context.approval());
        }
        if (!context.dryRun() && approvals.needed(caller, spec)) {
            return approvals.pausing(run.request(), tool);
        }
        return executor.call(run.request());
    }

    /** A run of a code tool as {@code caller} would start it, or the reason it may not run ({@code refusal}). */
    record Prepared(CodeRunRequest request, String refusal) {}

    /**
     * The run of {@code code} as this tool, called by {@code caller} with {@code input}: the tool's own code for a call,
     * or another program for a replay, under the bridge rules of {@code spec} (the stored one, or a draft being saved,
     * which is not pinned yet) and the same run-as role.
     */
    Prepared prepare(Caller caller, McpTool tool, CodeToolSpec spec, boolean draft, String code, JsonValue input) {
        CallScope bridgeScope = new CallScope(null, Set.copyOf(spec.uses()), !spec.allowWrites(), false);
        Caller runAs = caller;
        String refusal = null;
        List<UsedToolDrift> drifted = CodeToolSpec.DEFINER.equals(spec.runAs()) && !draft ? drift.of(tool) : List.of();
        if (!draft && !CodeToolPin.of(spec, tool.getInputSchema()).equals(tool.getPinnedCodeSha256())) {
            refusal = "Code tool '" + tool.getName() + "' was changed outside an admin's save (its code, uses, allowWrites, runAs "
                    + "or input schema no longer match what was saved); an admin must save it again";
        } else if (!drifted.isEmpty()) {
            refusal = "Code tool '" + tool.getName() + "' needs review: " + drifted.stream()
                    .map(d -> "'" + d.tool() + "' " + (UsedToolDrift.REMOVED.equals(d.status()) ? "was removed" : "changed its schema"))
                    .collect(java.util.stream.Collectors.joining(", ")) + " since it was saved. It runs as its definer, so an admin "
                    + "must review it and save it again before it runs";
        } else if (CodeToolSpec.DEFINER.equals(spec.runAs()) && !draft) { // a draft is saved, and so defined, by the caller
            Role definerRole = tool.getDefinerRoleId() == null ? null : workspaces.findRole(tool.getDefinerRoleId());
            if (definerRole == null) {
                refusal = "Code tool '" + tool.getName() + "' runs as its definer, whose role no longer exists; an admin must save it again";
            } else {
                runAs = caller.withRole(definerRole.toGrant());
            }
        }
        // The bridge scope replaces the entry point's: uses[] may name tools of other servers of the workspace.
        Caller bridge = new Caller(runAs.workspaceId(), runAs.userId(), runAs.apiKeyId(), runAs.username(), runAs.role(), bridgeScope);
        return new Prepared(new CodeRunRequest(caller, bridge, code, input, false, tool.getServerId(), tool.getId(),
                tool.getName(), spec.runAs()), refusal);
    }
}
