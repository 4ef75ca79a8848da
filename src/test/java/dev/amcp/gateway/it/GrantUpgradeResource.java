package dev.amcp.gateway.it;

import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.upstreams.control.UpstreamGrantUpgrade;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Test-only: plays an install that upgrades to grants. {@code POST /it-grant-upgrade/tool/{workspace}/{name}} (body: the
 * endpoint mapping) stores an HTTP tool as an earlier release did, past today's checks; {@code POST
 * /it-grant-upgrade/forget} forgets that the one-time step ran; {@code POST /it-grant-upgrade/run} runs it as a start
 * does and answers {@code {"granted": n}}.
 */
@Path("/it-grant-upgrade")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class GrantUpgradeResource {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    UpstreamGrantUpgrade upgrade;

    @POST
    @Path("tool/{workspace}/{name}")
    @Transactional
    public String tool(@PathParam("workspace") String slug, @PathParam("name") String name, String mapping) {
        var workspace = workspaces.findWorkspace(slug).orElseThrow();
        var server = workspaces.findServer(workspace.getId(), "demo").orElseThrow();
        McpTool tool = new McpTool(workspace.getId(), server.getId(), name);
        tool.setDescription("stored by an earlier release");
        tool.setEndpointMapping(Json.createReader(new java.io.StringReader(mapping)).readObject());
        em.persist(tool);
        return "{}";
    }

    @POST
    @Path("forget")
    @Transactional
    public String forget() {
        em.createNativeQuery("delete from upgrade_steps where name = 'upstream-grants'").executeUpdate();
        return "{}";
    }

    @POST
    @Path("run")
    public String run() {
        return Json.createObjectBuilder().add("granted", upgrade.grantWhatWasInUse()).build().toString();
    }
}
