package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.UserAdministration;
import dev.amcp.gateway.workspace.entity.UserChange;
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
 * The people of the caller's workspace, for its admins (the gate is {@code @RequiresCapability("admin")} on
 * {@link UserAdministration}).
 */
@Path("/api/users")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Users", description = "Admins: the people of the caller's workspace")
public class UserResource {

    /** A user as the API shows it; never a password or its hash. */
    public record UserView(String username, String displayName, String email, String role, boolean enabled, String createdAt) {
        static UserView of(UserAdministration.Member m) {
            var u = m.user();
            return new UserView(u.getUsername(), u.getDisplayName(), u.getEmail(), m.role(), u.isEnabled(),
                    u.getCreatedAt() == null ? null : u.getCreatedAt().toString());
        }
    }

    public record UserList(List<UserView> users) {}

    @Inject
    CurrentCaller caller;

    @Inject
    UserAdministration users;

    @GET
    @Operation(summary = "List the workspace's users (admins)")
    @APIResponse(responseCode = "200", description = "{\"users\": [{\"username\", \"displayName\", \"email\", \"role\", \"enabled\", \"createdAt\"}]}")
    @APIResponse(responseCode = "403", description = "The caller's role lacks the admin capability")
    public UserList list() {
        return new UserList(users.list(caller.get()).stream().map(UserView::of).toList());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add a user to the workspace (admins)",
            description = "Body: {\"username\", \"displayName\"?, \"email\"?, \"role\", \"password\"?}. Usernames are unique on the instance. "
                    + "Without a password the user cannot sign in to the editor until one is set.")
    @APIResponse(responseCode = "201", description = "The user")
    @APIResponse(responseCode = "400", description = "A field is missing or malformed, or the role does not exist; nothing was written")
    @APIResponse(responseCode = "403", description = "The caller's role lacks the admin capability")
    @APIResponse(responseCode = "409", description = "The username is taken")
    public Response create(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        var account = new WorkspaceDraft.AccountDraft(JsonSupport.stringField(json, "username", null), JsonSupport.stringField(json, "displayName", null),
                JsonSupport.stringField(json, "password", null), JsonSupport.stringField(json, "email", null));
        return Response.status(Response.Status.CREATED)
                .entity(UserView.of(users.create(caller.get(), account, JsonSupport.stringField(json, "role", null)))).build();
    }

    @PUT
    @Path("{username}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a user's role, password or whether they are enabled (admins)",
            description = "Body: {\"role\"?, \"enabled\"?, \"password\"?}. Disabling ends their editor sessions and revokes their API keys at once.")
    @APIResponse(responseCode = "200", description = "The user")
    @APIResponse(responseCode = "400", description = "A field is malformed, or the role does not exist")
    @APIResponse(responseCode = "403", description = "The caller's role lacks the admin capability")
    @APIResponse(responseCode = "404", description = "The workspace has no user of this name")
    @APIResponse(responseCode = "409", description = "The change would leave the workspace without an enabled admin")
    public Response update(@PathParam("username") String username, String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        UserChange change = new UserChange(JsonSupport.stringField(json, "role", null), JsonSupport.booleanFieldOrNull(json, "enabled"),
                JsonSupport.stringField(json, "password", null));
        return users.update(caller.get(), username, change).map(m -> Response.ok(UserView.of(m)).build())
                .orElseGet(() -> ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No user '" + username + "' in this workspace"));
    }
}
