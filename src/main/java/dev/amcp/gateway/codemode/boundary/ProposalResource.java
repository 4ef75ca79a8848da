package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.ProposalService;
import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.boundary.ToolResource;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Admin REST for code-tool proposals: list, accept (through the code-tool gates) and reject. */
@Path("/api/proposals")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class ProposalResource {

    @Inject
    CurrentCaller caller;

    @Inject
    ProposalService proposals;

    @GET
    public String list(@QueryParam("status") String status) {
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        proposals.list(caller.get(), status).forEach(p -> array.add(json(p)));
        return JsonSupport.JSON.createObjectBuilder().add("proposals", array).build().toString();
    }

    @POST
    @Path("{id}/accept")
    public Response accept(@PathParam("id") long id) {
        Gated<McpTool> created = proposals.accept(caller.get(), id);
        return ToolResource.saved(created.value(), created.englishWarnings(), true);
    }

    @POST
    @Path("{id}/reject")
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    public String reject(@PathParam("id") long id, String body) {
        String note = body == null || body.isBlank() ? null : JsonSupport.stringField(JsonSupport.parseObject(body), "note", null);
        return json(proposals.reject(caller.get(), id, note)).toString();
    }

    static JsonObject json(SkillSuggestion p) {
        var b = JsonSupport.JSON.createObjectBuilder().add("id", p.getId()).add("name", p.getName()).add("status", p.getStatus())
                .add("payload", p.getPayload()).add("createdAt", p.getCreatedAt().toString());
        if (p.getDescription() != null) {
            b.add("description", p.getDescription());
        }
        if (p.getReviewNote() != null) {
            b.add("reviewNote", p.getReviewNote());
        }
        return b.build();
    }
}
