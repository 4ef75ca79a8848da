package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.workspace.control.ServerDirectory;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import java.util.Optional;

/**
 * The one rule for where code-mode virtual tools appear: on {@code /mcp/{server}} of a server of the caller's
 * workspace whose code mode is {@code inline}, which the caller's role may use, in a scope that allows code tools
 * and (when it names tools) names this one.
 */
final class InlineServers {

    private InlineServers() {}

    static Optional<ServerDirectory.ServerRef> offering(Caller caller, String toolName, ServerDirectory servers) {
        var scope = caller.scope();
        if (scope.serverId() == null || !scope.codeToolsAllowed()
                || (scope.allowedTools() != null && !scope.allowedTools().contains(toolName))) {
            return Optional.empty();
        }
        return servers.byId(scope.serverId()).filter(server -> server.workspaceId() == caller.workspaceId()
                && server.codeMode() == McpServerConfig.CodeMode.INLINE && caller.role().mayUseServer(server.id()));
    }
}
