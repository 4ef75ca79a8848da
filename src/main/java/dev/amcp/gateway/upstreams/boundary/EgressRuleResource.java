package dev.amcp.gateway.upstreams.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.EgressRule;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
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
 * The operator's egress ceiling over REST (operators only): the hosts and ranges workspaces may add upstreams for,
 * beside {@code AMCP_UPSTREAM_ALLOWED_HOSTS}, which is listed read-only.
 */
@Path("/api/egress-rules")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Egress rules", description = "Operator only: where workspaces may add upstreams")
public class EgressRuleResource {

    @Inject
    CurrentCaller caller;

    @Inject
    WorkspaceUpstreams upstreams;

    @Inject
    UpstreamRules rules;

    @GET
    @Operation(summary = "The egress rules, and AMCP_UPSTREAM_ALLOWED_HOSTS (read-only)")
    @APIResponse(responseCode = "200", description = "{\"rules\": [{\"id\", \"rule\", \"note\"?, \"createdBy\", \"createdAt\"}], \"allowedHosts\": [...]}")
    public String list() {
        var list = JsonSupport.JSON.createArrayBuilder();
        upstreams.egressRules(caller.get()).forEach(r -> list.add(view(r)));
        var allowed = JsonSupport.JSON.createArrayBuilder();
        rules.allowedHosts().forEach(allowed::add);
        return JsonSupport.JSON.createObjectBuilder().add("rules", list).add("allowedHosts", allowed).build().toString();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add a rule: a host, *.domain, host:port, IP address, [IPv6]:port or CIDR range",
            description = "{\"rule\", \"note\"?}. A special address (loopback, link-local, ...) is allowed only by a rule that lies inside its block.")
    @APIResponse(responseCode = "201", description = "The rule")
    @APIResponse(responseCode = "400", description = "Not a rule")
    @APIResponse(responseCode = "409", description = "The rule exists already")
    public Response add(String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        EgressRule added = upstreams.addEgressRule(caller.get(), JsonSupport.stringField(json, "rule", null), JsonSupport.stringField(json, "note", null));
        return Response.status(Response.Status.CREATED).entity(view(added).toString()).build();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Remove a rule; upstreams only it let in are refused from their next call")
    public Response remove(@PathParam("id") long id) {
        upstreams.removeEgressRule(caller.get(), id);
        return Response.noContent().build();
    }

    private static JsonObject view(EgressRule r) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", r.getId()).add("rule", r.getRule())
                .add("createdBy", r.getCreatedBy()).add("createdAt", r.getCreatedAt().toString());
        if (r.getNote() != null) {
            b.add("note", r.getNote());
        }
        return b.build();
    }
}
