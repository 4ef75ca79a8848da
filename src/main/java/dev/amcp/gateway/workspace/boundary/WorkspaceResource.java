package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.WorkspaceAdministration;
import dev.amcp.gateway.workspace.entity.Workspace;
import dev.amcp.gateway.workspace.entity.WorkspaceChange;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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
 * Workspaces, for operators only (the gate is {@code @RequiresOperator} on {@link WorkspaceAdministration}): list them,
 * create one with its built-in roles and first admin, rename, disable or enable one.
 */
@Path("/api/workspaces")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Workspaces", description = "Operator only: the instance's workspaces")
public class WorkspaceResource {

    /** A workspace as the API shows it. */
    public record WorkspaceView(String slug, String name, boolean enabled, String createdAt) {
        static WorkspaceView of(Workspace w) {
            return new WorkspaceView(w.getSlug(), w.getName(), w.isEnabled(), w.getCreatedAt() == null ? null : w.getCreatedAt().toString());
        }
    }

    /** The answer to a creation: the workspace, its roles, and its first admin with an API key shown this once. */
    public record CreatedView(String slug, String name, boolean enabled, List<String> roles, AdminView admin) {}

    public record AdminView(String username, String apiKey) {}

    public record WorkspaceList(List<WorkspaceView> workspaces) {}

    @Inject
    CurrentCaller caller;

    @Inject
    WorkspaceAdministration administration;

    @GET
    @Operation(summary = "List the instance's workspaces (operator only)")
    @APIResponse(responseCode = "200", description = "{\"workspaces\": [{\"slug\", \"name\", \"enabled\", \"createdAt\"}]}")
    @APIResponse(responseCode = "401", description = "No valid API key")
    @APIResponse(responseCode = "403", description = "The caller is not an operator")
    public WorkspaceList list() {
        return new WorkspaceList(administration.list(caller.get()).stream().map(WorkspaceView::of).toList());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a workspace with its built-in roles (admin, member, viewer) and its first admin (operator only)",
            description = "Body: {\"slug\", \"name\", \"admin\": {\"username\", \"password\"?, \"email\"?}}. The answer carries the "
                    + "admin's API key once; without a password the admin signs in with that key only, until one is set.")
    @APIResponse(responseCode = "201", description = "{\"slug\", \"name\", \"enabled\", \"roles\", \"admin\": {\"username\", \"apiKey\"}}")
    @APIResponse(responseCode = "400", description = "A field is missing or malformed; nothing was written")
    @APIResponse(responseCode = "403", description = "The caller is not an operator")
    @APIResponse(responseCode = "409", description = "The slug or the admin's username is taken; nothing was written")
    public Response create(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        JsonObject admin = JsonSupport.objectField(json, "admin");
        WorkspaceDraft.AccountDraft account = admin == null ? null : new WorkspaceDraft.AccountDraft(JsonSupport.stringField(admin, "username", null),
                JsonSupport.stringField(admin, "displayName", null), JsonSupport.stringField(admin, "password", null), JsonSupport.stringField(admin, "email", null));
        WorkspaceDraft draft = new WorkspaceDraft(JsonSupport.stringField(json, "slug", null), JsonSupport.stringField(json, "name", null), account);
        WorkspaceAdministration.Created created = administration.create(caller.get(), draft);
        Workspace w = created.workspace();
        return Response.status(Response.Status.CREATED).entity(new CreatedView(w.getSlug(), w.getName(), w.isEnabled(),
                created.roles().stream().map(Role::getName).toList(),
                new AdminView(created.admin().getUsername(), created.adminApiKey()))).build();
    }

    @PUT
    @Path("{slug}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Rename, disable or enable a workspace (operator only)",
            description = "Body: {\"name\"?, \"enabled\"?}. Disabling stops the workspace's API keys, MCP and editor sign-ins at once.")
    @APIResponse(responseCode = "200", description = "{\"slug\", \"name\", \"enabled\", \"createdAt\"}")
    @APIResponse(responseCode = "400", description = "A field is malformed")
    @APIResponse(responseCode = "403", description = "The caller is not an operator")
    @APIResponse(responseCode = "404", description = "No workspace has this slug")
    public Response update(@PathParam("slug") String slug, String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        WorkspaceChange change = new WorkspaceChange(JsonSupport.stringField(json, "name", null), JsonSupport.booleanFieldOrNull(json, "enabled"));
        return administration.update(caller.get(), slug, change)
                .map(w -> Response.ok(WorkspaceView.of(w)).build())
                .orElseGet(() -> ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No workspace '" + slug + "'"));
    }
}
