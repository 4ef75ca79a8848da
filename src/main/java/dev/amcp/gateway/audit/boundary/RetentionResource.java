package dev.amcp.gateway.audit.boundary;

import dev.amcp.gateway.audit.control.Retention;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Retention over REST (operators only): the policy and the last purge, and a purge at once. */
@Path("/api/retention")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Retention", description = "Operator only: how long code runs, recordings, approvals and audit rows are kept")
public class RetentionResource {

    @Inject
    CurrentCaller caller;

    @Inject
    Retention retention;

    @GET
    @Operation(summary = "The retention policy, a purge running now (node, since) and the last purge's counts")
    public String status() {
        return retention.status(caller.get()).toString();
    }

    @POST
    @Path("run")
    @Operation(summary = "Purge now what the policy no longer keeps, in batches")
    @APIResponse(responseCode = "200", description = "{\"recordings\", \"codeRuns\", \"approvals\", \"audit\", \"millis\"}: rows deleted")
    @APIResponse(responseCode = "409", description = "Another node is purging")
    public String run() {
        return retention.runNow(caller.get()).orElseThrow(() -> new ConflictException(Message.of("problem.retention.running",
                "A retention purge is running already (on another node, or a scheduled one); see GET /api/retention"))).toString();
    }
}
