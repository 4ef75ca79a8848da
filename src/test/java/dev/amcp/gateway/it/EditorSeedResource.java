package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Role;
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
 * Test-only (never in the product WAR): seeds a workspace with a server and an admin, a member and a viewer who can
 * sign in to the editor, for browser tests that run outside the server.
 */
@Path("/it-seed/editor-tenant")
@RequestScoped
public class EditorSeedResource {

    public static final String PASSWORD = "correct-horse-battery";

    @Inject
    WorkspaceService workspaces;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seed() {
        String slug = "ed-" + UUID.randomUUID().toString().substring(0, 8);
        var ws = workspaces.createWorkspace(slug, "Editor test " + slug);
        workspaces.createServer(ws.getId(), "main", "Main", "The test server");
        var result = Json.createObjectBuilder().add("workspace", slug).add("password", PASSWORD);
        for (String role : new String[] {Role.ADMIN, Role.MEMBER, Role.VIEWER}) {
            result.add(role, workspaces.createUser(ws.getId(), slug + "-" + role, role, role, PASSWORD).getUsername());
        }
        return result.build().toString();
    }
}
