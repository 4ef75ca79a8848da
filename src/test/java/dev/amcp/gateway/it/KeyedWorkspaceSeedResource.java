package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * Test-only (never in the product WAR): a fresh workspace with a server {@code main} whose admin holds the API key the
 * deployment names in {@value #SETTING}. The key is known before the workspace exists, so a credential setting of the
 * same deployment can carry it: the gateway then reaches its own {@code /mcp} as an upstream MCP server.
 */
@Path("/it-seed/keyed-workspace")
@RequestScoped
public class KeyedWorkspaceSeedResource {

    public static final String SETTING = "it.seed.admin.key";

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService keys;

    @Inject
    Settings settings;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seed() {
        String slug = "keyed-" + UUID.randomUUID().toString().substring(0, 8);
        var ws = workspaces.createWorkspace(slug, "Keyed " + slug);
        workspaces.createServer(ws.getId(), "main", "Main", "The test server");
        var admin = workspaces.createUser(ws.getId(), slug + "-admin", "Admin", Role.ADMIN, "correct-horse-battery");
        keys.issue(admin.getId(), "seeded", null, settings.get(SETTING).orElseThrow());
        return Json.createObjectBuilder().add("workspace", slug).build().toString();
    }
}
