package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.SsoRoleMappings;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The single sign-on role mapping of the caller's workspace, for its admins (the gate is on {@link SsoRoleMappings}):
 * which values of the role claim ({@code AMCP_OIDC_ROLE_CLAIM}) give which role.
 */
@Path("/api/sso/mappings")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Single sign-on", description = "Admins: which identity-provider groups give which role of the workspace")
public class SsoMappingResource {

    public record MappingList(List<SsoRoleMappings.MappingRow> mappings) {}

    @Inject
    CurrentCaller caller;

    @Inject
    SsoRoleMappings mappings;

    @GET
    @Operation(summary = "List the workspace's single sign-on role mapping (admins)")
    @APIResponse(responseCode = "200", description = "{\"mappings\": [{\"id\", \"claimValue\", \"role\"}]}")
    public MappingList list() {
        return new MappingList(mappings.list(caller.get()));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Map a value of the role claim to a role (admins)", description = "Body: {\"claimValue\", \"role\"}")
    @APIResponse(responseCode = "201", description = "The mapping")
    @APIResponse(responseCode = "400", description = "A missing or too long value, an unknown role")
    @APIResponse(responseCode = "409", description = "The value is already mapped in this workspace")
    public Response create(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        var row = mappings.create(caller.get(), JsonSupport.stringField(json, "claimValue", null), JsonSupport.stringField(json, "role", null));
        return Response.status(Response.Status.CREATED).entity(row).build();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a mapping (admins); people it provisioned keep their accounts")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No mapping with this id in the workspace")
    public Response delete(@PathParam("id") long id) {
        return mappings.delete(caller.get(), id) ? Response.noContent().build()
                : ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No single sign-on mapping " + id + " in this workspace");
    }
}
