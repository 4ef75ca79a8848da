package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.tools.control.ToolInvoker;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.Set;

/**
 * Runs saved code tools ({@code method = code}). The bridge may call only the tools in {@code uses}, writes only
 * with {@code allowWrites}, never another code tool. {@code runAs = definer} answers under the definer's role, but
 * only while the code is exactly the code the definer saved (its hash is pinned).
 */
@ApplicationScoped
public class CodeToolInvoker implements ToolInvoker {

    @Inject
    CodeExecutorService executor;

    @Inject
    WorkspaceService workspaces;

    @Override
    public boolean handles(String method) {
        return McpTool.CODE.equals(method);
    }

    @Override
    public ToolResult invoke(Caller caller, McpTool tool, JsonObject args) {
        CodeToolSpec spec = CodeToolSpec.from(tool.getEndpointMapping());
        CallScope bridgeScope = new CallScope(null, Set.copyOf(spec.uses()), !spec.allowWrites(), false);
        Caller runAs = caller;
        if (CodeToolSpec.DEFINER.equals(spec.runAs())) {
            Role definerRole = tool.getDefinerRoleId() == null ? null : workspaces.findRole(tool.getDefinerRoleId());
            if (definerRole == null || !Hashes.sha256(spec.code()).equals(tool.getPinnedCodeSha256())) {
                return ToolResult.error("Code tool '" + tool.getName() + "' runs as its definer, but its code no longer matches "
                        + "the code the definer saved; an admin must save it again");
            }
            runAs = caller.withRole(definerRole.toGrant());
        }
        // The bridge scope replaces the entry point's: uses[] may name tools of other servers of the workspace.
        Caller bridge = new Caller(runAs.workspaceId(), runAs.userId(), runAs.apiKeyId(), runAs.username(), runAs.role(), bridgeScope);
        return CodeResults.toToolResult(executor.run(new CodeRunRequest(caller, bridge, spec.code(), args, false,
                tool.getServerId(), tool.getId(), tool.getName(), spec.runAs())));
    }
}
