package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.tools.control.ToolAccessPolicy;
import dev.amcp.gateway.tools.entity.McpTool;

/**
 * What of a tool a signed-in person sees in the editor. Admins manage every tool of their workspace, so they see all
 * of it. Anyone else sees exactly the tools MCP would list for them ({@link ToolAccessPolicy}: their role's servers,
 * reads unless they may write) and never a mapping: URLs, headers and credentials of HTTP tools, the code and the
 * tools it uses of code tools.
 */
public final class EditorToolAccess {

    private EditorToolAccess() {}

    public static boolean visible(Caller caller, McpTool tool) {
        return isAdmin(caller) ? tool.getWorkspaceId() == caller.workspaceId() : ToolAccessPolicy.permits(caller, tool);
    }

    public static boolean showsMapping(Caller caller) {
        return isAdmin(caller);
    }

    private static boolean isAdmin(Caller caller) {
        return caller.has(Capability.ADMIN);
    }
}
