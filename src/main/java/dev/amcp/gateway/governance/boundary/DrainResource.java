package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.control.NodeDrain;
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

/** Draining the node that answers (operators only), before it stops: call it on the node itself, not through the balancer. */
@Path("/api/node/drain")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Node", description = "Operator only: take this node out of the load balancer before stopping it")
public class DrainResource {

    @Inject
    CurrentCaller caller;

    @Inject
    NodeDrain drain;

    @GET
    @Operation(summary = "Whether this node drains, since when, and how many other requests it is serving")
    public String status() {
        return drain.status(caller.get()).toString();
    }

    @POST
    @Operation(summary = "Start draining: readiness answers DOWN from now on until the node stops; requests in flight run to their end")
    @APIResponse(responseCode = "200", description = "{\"node\", \"draining\": true, \"since\", \"inFlight\"}")
    public String begin() {
        return drain.begin(caller.get()).toString();
    }
}
