package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.WriteApprovals;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Approvals of paused writes ({@code docs/code-mode.md#approvals}): the workspace admins' inbox, one approval (for its
 * admins or the caller it is bound to), approve and refuse.
 */
@Path("/api/approvals")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class ApprovalResource {

    @Inject
    CurrentCaller caller;

    @Inject
    WriteApprovals approvals;

    @GET
    @Operation(summary = "The workspace's pending approvals of writes (admins)")
    @APIResponse(responseCode = "200", description = "{\"approvals\": [{\"id\", \"status\", \"runId\", \"tool\", \"requester\", "
            + "\"plannedWrite\": {\"tool\", \"args\", \"summary\"}, \"createdAt\", \"expiresAt\"}]}")
    @APIResponse(responseCode = "403", description = "The caller is not a workspace admin")
    public String list() {
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        approvals.pending(caller.get()).forEach(a -> array.add(a.json()));
        return JsonSupport.JSON.createObjectBuilder().add("approvals", array).build().toString();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One approval: for a workspace admin, or the caller whose run paused")
    @APIResponse(responseCode = "200", description = "The approval, with \"decidedBy\", \"decidedAt\", \"resumeRunId\" and the "
            + "client's \"outcome\" once decided")
    @APIResponse(responseCode = "404", description = "No such approval in the caller's workspace, or bound to another caller")
    public String get(@PathParam("id") String id) {
        return approvals.shown(caller.get(), id).json().toString();
    }

    @POST
    @Path("{id}/approve")
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    @Operation(summary = "Approve a paused write (admins): the run resumes now by replaying its recorded reads, then writes",
            description = "Answers the approval as it ended: APPROVED (the run resumed; its result waits for the caller), DIVERGED "
                    + "(the replay left the recording; nothing was written) or FAILED (e.g. the caller lost access; nothing was written).")
    @APIResponse(responseCode = "200", description = "The approval after the resumed run")
    @APIResponse(responseCode = "403", description = "The caller is not a workspace admin")
    @APIResponse(responseCode = "404", description = "No such approval in the caller's workspace")
    @APIResponse(responseCode = "409", description = "Already decided, or expired")
    public String approve(@PathParam("id") String id) {
        return approvals.approve(caller.get(), id).json().toString();
    }

    @POST
    @Path("{id}/refuse")
    @Consumes({MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    @Operation(summary = "Refuse a paused write (admins): nothing is written")
    @APIResponse(responseCode = "200", description = "The approval, REFUSED")
    @APIResponse(responseCode = "403", description = "The caller is not a workspace admin")
    @APIResponse(responseCode = "404", description = "No such approval in the caller's workspace")
    @APIResponse(responseCode = "409", description = "Already decided, or expired")
    public String refuse(@PathParam("id") String id) {
        return approvals.refuse(caller.get(), id).json().toString();
    }
}
