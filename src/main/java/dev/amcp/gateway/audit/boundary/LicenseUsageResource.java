package dev.amcp.gateway.audit.boundary;

import dev.amcp.gateway.audit.control.WorkspaceUsage;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** {@code GET /api/license/usage}: the caller's own workspace against the license in force, nothing of other workspaces. */
@Path("/api/license/usage")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class LicenseUsageResource {

    /** The workspace's code tools and code runs this month, each with the license's limit. */
    public record UsageView(String edition, long codeTools, int maxCodeTools, long runsThisMonth, long monthlyCodeRuns) {}

    @Inject
    CurrentCaller caller;

    @Inject
    LicenseService licenses;

    @Inject
    WorkspaceUsage usage;

    @GET
    @Operation(summary = "The caller's workspace usage against the license in force")
    @APIResponse(responseCode = "200", description = "{\"edition\", \"codeTools\", \"maxCodeTools\", \"runsThisMonth\", \"monthlyCodeRuns\"}")
    @APIResponse(responseCode = "404", description = "An operator belongs to no workspace")
    public Response get() {
        Caller current = caller.get();
        if (current.operator()) {
            return ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "An operator belongs to no workspace, so has no usage");
        }
        LicenseTerms terms = licenses.current();
        WorkspaceUsage.Usage used = usage.of(current.workspaceId());
        return Response.ok(new UsageView(terms.edition().wire(), used.codeTools(), terms.maxCodeTools(), used.runsThisMonth(),
                terms.monthlyCodeRuns())).build();
    }
}
