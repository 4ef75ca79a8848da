package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.health.Readiness;

/** {@code GET /api/code-runner}: the code runner's state and its own report, for operators (readiness shows the state only). */
@Path("/api/code-runner")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class RunnerStatusResource {

    @Inject
    CurrentCaller caller;

    @Inject
    @Readiness // the health check's qualifier is its only one
    RunnerReadiness readiness;

    @GET
    public String get() {
        return readiness.detail(caller.get()).toString();
    }
}
