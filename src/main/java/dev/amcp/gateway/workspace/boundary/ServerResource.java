package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.ServerDraft;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The MCP servers of the caller's workspace: list them, and (admins, gated on {@link WorkspaceService}) create one,
 * as the editor's server form does.
 */
@Path("/api/servers")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Servers", description = "The MCP servers of the caller's workspace")
public class ServerResource {

    /** A server as the API shows it, with the roles that may use it. */
    public record ServerView(String slug, String name, String description, String codeMode, List<String> roles) {}

    public record ServerList(List<ServerView> servers) {}

    @Inject
    CurrentCaller caller;

    @Inject
    WorkspaceService workspaces;

    @GET
    @Operation(summary = "List the workspace's MCP servers")
    public ServerList list() {
        Map<Long, String> roles = roleNames();
        return new ServerList(workspaces.servers(caller.get().workspaceId()).stream().map(s -> view(s, roles)).toList());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an MCP server, served at /mcp/{slug} (admins)",
            description = "Body: {\"slug\", \"name\", \"description\"?, \"codeMode\"?: \"off\" (default) | \"inline\", \"roles\"?: [role names]}. "
                    + "Without roles, every role of the workspace may use the server.")
    @APIResponse(responseCode = "201", description = "{\"slug\", \"name\", \"description\", \"codeMode\", \"roles\"}")
    @APIResponse(responseCode = "400", description = "A field is missing or malformed; nothing was written")
    @APIResponse(responseCode = "409", description = "The slug is taken in this workspace")
    @APIResponse(responseCode = "403", description = "The caller's role lacks the admin capability")
    public Response create(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        Map<Long, String> roles = roleNames();
        Set<Long> roleIds = json.get("roles") == null || json.get("roles") == JsonValue.NULL ? roles.keySet() : roleIds(json.get("roles"), roles);
        ServerDraft draft = new ServerDraft(JsonSupport.stringField(json, "slug", null), JsonSupport.stringField(json, "name", null),
                JsonSupport.stringField(json, "description", null),
                json.containsKey("codeMode") ? JsonSupport.stringField(json, "codeMode", null) : McpServerConfig.CodeMode.OFF.wire(), roleIds);
        McpServerConfig server;
        try {
            server = workspaces.createServer(caller.get(), draft);
        } catch (WorkspaceService.InvalidServerException e) {
            var slug = e.problems().get("slug");
            if (slug != null && slug.key().equals("problem.server.slugTaken")) {
                throw new ConflictException(slug.english()); // taken, not malformed: 409 like the other REST resources
            }
            throw e;
        }
        return Response.status(Response.Status.CREATED).entity(view(server, roleNames())).build();
    }

    private Map<Long, String> roleNames() {
        return workspaces.roles(caller.get().workspaceId()).stream().collect(Collectors.toMap(Role::getId, Role::getName));
    }

    private static Set<Long> roleIds(JsonValue value, Map<Long, String> roles) {
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException("roles must be an array of role names");
        }
        Set<Long> ids = new HashSet<>();
        for (JsonValue name : value.asJsonArray()) {
            String wanted = name instanceof JsonString s ? s.getString() : null;
            ids.add(roles.entrySet().stream().filter(e -> e.getValue().equals(wanted)).map(Map.Entry::getKey).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("No role " + name + " in this workspace")));
        }
        return ids;
    }

    private ServerView view(McpServerConfig server, Map<Long, String> roles) {
        List<String> using = workspaces.rolesUsing(server.getWorkspaceId(), server.getId()).stream().map(roles::get).sorted().toList();
        return new ServerView(server.getSlug(), server.getName(), server.getDescription(), server.getCodeMode().wire(), using);
    }
}
