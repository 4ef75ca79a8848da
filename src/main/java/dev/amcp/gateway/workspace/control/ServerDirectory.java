package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Which MCP server a slug or id names, for the request path (every MCP request resolves its server, and every tool list
 * and call asks whether code mode is on). Answers are immutable {@link ServerRef}s kept briefly like the API key
 * answers ({@link ShortCache}); a change to any server on this node drops them at once ({@link AccessChanges}).
 */
@ApplicationScoped
public class ServerDirectory {

    /** The facts about a server that requests need. */
    public record ServerRef(long id, long workspaceId, String slug, String name, McpServerConfig.CodeMode codeMode) {
        static ServerRef of(McpServerConfig server) {
            return new ServerRef(server.getId(), server.getWorkspaceId(), server.getSlug(), server.getName(), server.getCodeMode());
        }
    }

    private record Slug(long workspaceId, String slug) {}

    @Inject
    WorkspaceService workspaces;

    @Inject
    Settings settings;

    private ShortCache<Slug, ServerRef> bySlug;
    private ShortCache<Long, ServerRef> byId;

    @PostConstruct
    void configure() {
        bySlug = new ShortCache<>(settings, AccessChanges::generation);
        byId = new ShortCache<>(settings, AccessChanges::generation);
    }

    public Optional<ServerRef> bySlug(long workspaceId, String slug) {
        return bySlug.get(new Slug(workspaceId, slug), k -> workspaces.findServer(k.workspaceId(), k.slug()).map(ServerRef::of));
    }

    public Optional<ServerRef> byId(long serverId) {
        return byId.get(serverId, id -> Optional.ofNullable(workspaces.server(id)).map(ServerRef::of));
    }
}
