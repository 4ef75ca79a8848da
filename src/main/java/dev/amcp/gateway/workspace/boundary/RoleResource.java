package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.RoleAdministration;
import dev.amcp.gateway.workspace.entity.RoleDraft;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The roles of the caller's workspace, for its admins (the gate is on {@link RoleAdministration}). */
@Path("/api/roles")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Roles", description = "Admins: the roles of the caller's workspace")
public class RoleResource {

    /** A role as the API shows it; {@code servers} is {@code null} when the role may use every server. */
    public record RoleView(String name, boolean builtin, List<String> capabilities, @JsonbNillable List<String> servers, long users,
                           boolean approveWrites) {
        static RoleView of(RoleAdministration.RoleRow row) {
            return new RoleView(row.role().getName(), row.role().isBuiltin(), List.copyOf(row.role().getCapabilities()), row.servers(),
                    row.holders(), row.role().isApproveWrites());
        }
    }

    public record RoleList(List<RoleView> roles) {}

    @Inject
    CurrentCaller caller;

    @Inject
    RoleAdministration roles;

    @GET
    @Operation(summary = "List the workspace's roles (admins)")
    @APIResponse(responseCode = "200", description = "{\"roles\": [{\"name\", \"builtin\", \"capabilities\", \"servers\" (null: all), \"users\"}]}")
    public RoleList list() {
        return new RoleList(roles.list(caller.get()).stream().map(RoleView::of).toList());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a role (admins)",
            description = "Body: {\"name\", \"capabilities\": [...], \"servers\": [server slugs] | null, \"approveWrites\"?: false}; null or absent servers: every server. "
                    + "approveWrites: code tools that follow the role (approval \"role\") pause at their first write for an admin's approval.")
    @APIResponse(responseCode = "201", description = "The role")
    @APIResponse(responseCode = "400", description = "A bad name, an unknown capability or server")
    @APIResponse(responseCode = "409", description = "The name is taken")
    public Response create(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        JsonValue servers = json.get("servers");
        RoleDraft draft = new RoleDraft(JsonSupport.stringField(json, "name", null), strings(json.get("capabilities"), "capabilities"),
                servers == null || servers == JsonValue.NULL, strings(servers, "servers"), approveWrites(json));
        return Response.status(Response.Status.CREATED).entity(RoleView.of(roles.create(caller.get(), draft))).build();
    }

    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a role's capabilities or servers (admins); built-in roles too",
            description = "Body: {\"capabilities\"?: [...], \"servers\"?: [server slugs] | null, \"approveWrites\"?: boolean}; absent fields stay, null servers: every server.")
    @APIResponse(responseCode = "200", description = "The role")
    @APIResponse(responseCode = "400", description = "An unknown capability or server")
    @APIResponse(responseCode = "404", description = "No role of this name in the workspace")
    @APIResponse(responseCode = "409", description = "The change would leave the workspace without an enabled admin")
    public Response update(@PathParam("name") String name, String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        JsonValue servers = json.get("servers");
        RoleDraft draft = new RoleDraft(name, strings(json.get("capabilities"), "capabilities"),
                json.containsKey("servers") && servers == JsonValue.NULL, strings(servers, "servers"), approveWrites(json));
        return roles.update(caller.get(), name, draft).map(row -> Response.ok(RoleView.of(row)).build())
                .orElseGet(() -> noRole(name));
    }

    @DELETE
    @Path("{name}")
    @Operation(summary = "Delete a custom role nobody holds (admins)")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No role of this name in the workspace")
    @APIResponse(responseCode = "409", description = "A built-in role, or a role someone holds or a live key names")
    public Response delete(@PathParam("name") String name) {
        return roles.delete(caller.get(), name) ? Response.noContent().build() : noRole(name);
    }

    /** {@code approveWrites}, or {@code null} when absent. */
    private static Boolean approveWrites(JsonObject json) {
        return JsonSupport.booleanFieldOrNull(json, "approveWrites");
    }

    /** An array of strings, or {@code null} when absent or null. */
    private static Set<String> strings(JsonValue value, String field) {
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException(field + " must be an array of strings");
        }
        Set<String> strings = new LinkedHashSet<>();
        for (JsonValue item : value.asJsonArray()) {
            if (!(item instanceof JsonString s)) {
                throw new IllegalArgumentException(field + " must be an array of strings");
            }
            strings.add(s.getString());
        }
        return strings;
    }

    private static Response noRole(String name) {
        return ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No role '" + name + "' in this workspace");
    }
}
