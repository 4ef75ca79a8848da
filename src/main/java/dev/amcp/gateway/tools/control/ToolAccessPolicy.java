package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.tools.entity.McpTool;

/**
 * The one home of the rule "may this caller use this stored tool here". Listing and execution both ask it, so
 * what a caller can see and what it can call never drift apart.
 */
public final class ToolAccessPolicy {

    private ToolAccessPolicy() {}

    public static boolean permits(Caller caller, McpTool tool) {
        CallScope scope = caller.scope();
        boolean readOnly = tool.isReadOnly();
        return tool.isEnabled()
                && tool.getWorkspaceId() == caller.workspaceId()
                && caller.role().mayUseServer(tool.getServerId())
                && (scope.serverId() == null || scope.serverId().equals(tool.getServerId()))
                && (scope.allowedTools() == null || scope.allowedTools().contains(tool.getName()))
                && (!scope.readOnlyOnly() || readOnly)
                && (scope.codeToolsAllowed() || !tool.isCodeTool())
                && (readOnly || caller.has(Capability.TOOLS_WRITE));
    }
}
