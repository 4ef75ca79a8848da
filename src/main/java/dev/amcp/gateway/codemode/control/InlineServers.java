package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import java.util.Optional;

/**
 * The one rule for where code-mode virtual tools appear: on {@code /mcp/{server}} of a server of the caller's
 * workspace whose code mode is {@code inline}, which the caller's role may use, in a scope that allows code tools
 * and (when it names tools) names this one.
 */
final class InlineServers {

    private InlineServers() {}

    static Optional<McpServerConfig> offering(Caller caller, String toolName, WorkspaceService workspaces) {
        var scope = caller.scope();
        if (scope.serverId() == null || !scope.codeToolsAllowed()
                || (scope.allowedTools() != null && !scope.allowedTools().contains(toolName))) {
            return Optional.empty();
        }
        McpServerConfig server = workspaces.server(scope.serverId());
        if (server == null || server.getWorkspaceId() != caller.workspaceId()
                || server.getCodeMode() != McpServerConfig.CodeMode.INLINE || !caller.role().mayUseServer(server.getId())) {
            return Optional.empty();
        }
        return Optional.of(server);
    }
}
