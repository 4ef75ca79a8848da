package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.KeyAdministration;
import dev.amcp.gateway.workspace.entity.ApiKey;
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
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** API keys of a person of the caller's workspace: members their own, admins anyone's ({@link KeyAdministration}). */
@Path("/api/users/{username}/keys")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Keys", description = "API keys of a person: members their own, admins anyone's")
public class KeyResource {

    /** A key as lists show it: never the key itself, only the first characters. */
    public record KeyView(long id, String name, String prefix, String createdAt, String lastUsedAt, String expiresAt, String revokedAt) {
        static KeyView of(ApiKey k) {
            return new KeyView(k.getId(), k.getName(), k.getKeyPrefix(), text(k.getCreatedAt()), text(k.getLastUsedAt()),
                    text(k.getExpiresAt()), text(k.getRevokedAt()));
        }

        private static String text(Instant instant) {
            return instant == null ? null : instant.toString();
        }
    }

    public record KeyList(List<KeyView> keys) {}

    /** A key just issued: the key itself is shown this once. */
    public record IssuedView(long id, String key) {}

    @Inject
    CurrentCaller caller;

    @Inject
    KeyAdministration keys;

    @GET
    @Operation(summary = "List a person's API keys")
    @APIResponse(responseCode = "200", description = "{\"keys\": [{\"id\", \"name\", \"prefix\", \"createdAt\", \"lastUsedAt\", \"expiresAt\", \"revokedAt\"}]}")
    @APIResponse(responseCode = "403", description = "A member asked for someone else's keys")
    @APIResponse(responseCode = "404", description = "The workspace has no user of this name")
    public Response list(@PathParam("username") String username) {
        return keys.list(caller.get(), username).map(list -> Response.ok(new KeyList(list.stream().map(KeyView::of).toList())).build())
                .orElseGet(() -> noUser(username));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Issue an API key", description = "Body: {\"name\", \"expiresAt\"? (ISO-8601 instant)}. The answer carries the key once.")
    @APIResponse(responseCode = "201", description = "{\"id\", \"key\"}")
    @APIResponse(responseCode = "400", description = "A field is missing or malformed")
    @APIResponse(responseCode = "403", description = "A member asked for someone else's keys")
    @APIResponse(responseCode = "404", description = "The workspace has no user of this name")
    public Response issue(@PathParam("username") String username, String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        String expires = JsonSupport.stringField(json, "expiresAt", null);
        Instant expiresAt;
        try {
            expiresAt = expires == null ? null : Instant.parse(expires);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expiresAt must be an ISO-8601 instant such as 2027-01-31T00:00:00Z");
        }
        return keys.issue(caller.get(), username, JsonSupport.stringField(json, "name", null), expiresAt)
                .map(issued -> Response.status(Response.Status.CREATED).entity(new IssuedView(issued.key().getId(), issued.plaintext())).build())
                .orElseGet(() -> noUser(username));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Revoke an API key; it stops working at once")
    @APIResponse(responseCode = "204", description = "Revoked")
    @APIResponse(responseCode = "403", description = "A member asked for someone else's keys")
    @APIResponse(responseCode = "404", description = "No such user or key")
    public Response revoke(@PathParam("username") String username, @PathParam("id") long id) {
        return keys.revoke(caller.get(), username, id) ? Response.noContent().build()
                : ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No key " + id + " of '" + username + "' in this workspace");
    }

    private static Response noUser(String username) {
        return ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No user '" + username + "' in this workspace");
    }
}
