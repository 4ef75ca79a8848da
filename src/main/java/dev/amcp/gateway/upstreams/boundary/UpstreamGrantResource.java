package dev.amcp.gateway.upstreams.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The operator's grants over REST (operators only): which workspaces may use each operator upstream
 * {@code AMCP_UPSTREAM_<NAME>} and the credentials bound to it. A workspace without the grant cannot save, import or
 * call anything under that base.
 */
@Path("/api/upstream-grants")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Upstream grants", description = "Operator only: which workspaces may use the operator's upstreams")
public class UpstreamGrantResource {

    @Inject
    CurrentCaller caller;

    @Inject
    WorkspaceUpstreams upstreams;

    @Inject
    UpstreamRules rules;

    @GET
    @Operation(summary = "The grants, and the operator's upstreams they may name")
    @APIResponse(responseCode = "200", description = "{\"grants\": [{\"id\", \"upstream\", \"workspace\", \"grantedBy\", \"grantedAt\"}], "
            + "\"operatorUpstreams\": [{\"name\", \"baseUrl\"}]}")
    public String list() {
        var grants = JsonSupport.JSON.createArrayBuilder();
        upstreams.grants(caller.get()).forEach(g -> grants.add(view(g)));
        var operator = JsonSupport.JSON.createArrayBuilder();
        rules.operatorBases().forEach((setting, base) -> operator.add(JsonSupport.JSON.createObjectBuilder()
                .add("name", UpstreamRules.operatorName(setting)).add("baseUrl", base)));
        return JsonSupport.JSON.createObjectBuilder().add("grants", grants).add("operatorUpstreams", operator).build().toString();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Grant an operator upstream to a workspace", description = "{\"upstream\": \"SHOP\", \"workspace\": \"<slug>\"}")
    @APIResponse(responseCode = "201", description = "The grant")
    @APIResponse(responseCode = "400", description = "Not an operator upstream, or no such workspace")
    @APIResponse(responseCode = "409", description = "Granted already")
    public Response grant(String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        WorkspaceUpstreams.GrantView granted = upstreams.grant(caller.get(), JsonSupport.stringField(json, "upstream", null),
                JsonSupport.stringField(json, "workspace", null));
        return Response.status(Response.Status.CREATED).entity(view(granted).toString()).build();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Revoke a grant; the workspace's tools under that base are refused from their next call")
    @APIResponse(responseCode = "204", description = "Revoked")
    @APIResponse(responseCode = "404", description = "No such grant")
    public Response revoke(@PathParam("id") long id) {
        upstreams.revokeGrant(caller.get(), id);
        return Response.noContent().build();
    }

    private static JsonObject view(WorkspaceUpstreams.GrantView g) {
        return JsonSupport.JSON.createObjectBuilder().add("id", g.id()).add("upstream", g.upstream()).add("workspace", g.workspace())
                .add("grantedBy", g.grantedBy()).add("grantedAt", g.grantedAt().toString()).build();
    }
}
