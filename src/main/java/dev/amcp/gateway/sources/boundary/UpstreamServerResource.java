package dev.amcp.gateway.sources.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.sources.control.McpUpstreams;
import dev.amcp.gateway.sources.entity.UpstreamServerRequest;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.upstreams.control.UpstreamAccounts;
import dev.amcp.gateway.upstreams.entity.PersonalAccounts;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream MCP servers over REST: register ({@code POST}, its tools are discovered and created), list, read, delete,
 * refresh ({@code POST {id}/refresh} stages the diff, {@code GET {id}/refresh} shows it, {@code POST
 * {id}/refresh/apply} applies what is accepted), and mark a tool read-only ({@code PUT {id}/tools/{name}}).
 */
@Path("/api/upstream-servers")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class UpstreamServerResource {

    @Inject
    CurrentCaller caller;

    @Inject
    McpUpstreams upstreams;

    @Inject
    UpstreamAccounts accounts;

    @Context
    UriInfo uri;

    /**
     * {@code {"server", "name", "url", "prefix"?, "credential"?, "upstream"?, "accounts"?}}; {@code accounts} is
     * {@code true} or {@code {"clientId"?, "clientSecret"?, "scope"?}} for a server where each person uses their own account.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response register(String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        UpstreamServerRequest request = new UpstreamServerRequest(JsonSupport.stringField(json, "server", null),
                JsonSupport.stringField(json, "name", null), JsonSupport.stringField(json, "url", null),
                JsonSupport.stringField(json, "prefix", null), JsonSupport.stringField(json, "credential", null),
                JsonSupport.stringField(json, "upstream", null), personalAccounts(json));
        String base = uri.getBaseUri().toString();
        return Response.status(Response.Status.CREATED).entity(upstreams.register(caller.get(), request, base).toString()).build();
    }

    /** {@code accounts}: absent or false for a shared server, true or an object for personal accounts. */
    private static PersonalAccounts personalAccounts(JsonObject json) {
        JsonValue value = json.get("accounts");
        if (value == null || value == JsonValue.NULL || value == JsonValue.FALSE) {
            return null;
        }
        if (value == JsonValue.TRUE) {
            return new PersonalAccounts(null, null, null);
        }
        if (!(value instanceof JsonObject accounts)) {
            throw new InvalidInputException(Message.of("problem.upstreamServer.accounts",
                    "accounts must be true or an object with clientId, clientSecret and scope"));
        }
        return new PersonalAccounts(JsonSupport.stringField(accounts, "clientId", null),
                JsonSupport.stringField(accounts, "clientSecret", null), JsonSupport.stringField(accounts, "scope", null));
    }

    /** Who connected an account at a per-person server: no token, only who and when (admins). */
    @GET
    @Path("{id}/accounts")
    public String accounts(@PathParam("id") long id) {
        JsonArrayBuilder list = JsonSupport.JSON.createArrayBuilder();
        accounts.accounts(caller.get(), id).forEach(a -> list.add(a.toJson()));
        return JsonSupport.JSON.createObjectBuilder().add("accounts", list).build().toString();
    }

    /** The caller disconnects their own account at a per-person server. */
    @DELETE
    @Path("{id}/accounts/me")
    public Response disconnect(@PathParam("id") long id) {
        accounts.disconnect(caller.get(), id);
        return Response.noContent().build();
    }

    /** An admin revokes a person's account at a per-person server. */
    @DELETE
    @Path("{id}/accounts/{userId: [0-9]+}")
    public Response revoke(@PathParam("id") long id, @PathParam("userId") long userId) {
        accounts.revoke(caller.get(), id, userId);
        return Response.noContent().build();
    }

    @GET
    public String list() {
        JsonArrayBuilder list = JsonSupport.JSON.createArrayBuilder();
        upstreams.list(caller.get()).forEach(u -> list.add(upstreams.describe(u)));
        return JsonSupport.JSON.createObjectBuilder().add("upstreamServers", list).build().toString();
    }

    @GET
    @Path("{id}")
    public String get(@PathParam("id") long id) {
        return upstreams.describe(upstreams.find(caller.get(), id)).toString();
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        upstreams.delete(caller.get(), id);
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/refresh")
    public String refresh(@PathParam("id") long id) {
        return upstreams.refresh(caller.get(), id).toString();
    }

    @GET
    @Path("{id}/refresh")
    public String staged(@PathParam("id") long id) {
        return upstreams.preview(upstreams.find(caller.get(), id)).toString();
    }

    /** {@code {"tools": [name...], "remove": [name...]}}; no tools means every added or changed one. */
    @POST
    @Path("{id}/refresh/apply")
    @Consumes(MediaType.APPLICATION_JSON)
    public String apply(@PathParam("id") long id, String body) {
        JsonObject json = body == null || body.isBlank() ? JsonValue.EMPTY_JSON_OBJECT : JsonSupport.parseObject(body);
        McpUpstreams.Applied applied = upstreams.apply(caller.get(), id, names(json, "tools"), names(json, "remove"));
        return JsonSupport.JSON.createObjectBuilder().add("created", strings(applied.created())).add("updated", strings(applied.updated()))
                .add("skipped", strings(applied.skipped())).add("removed", strings(applied.removed())).build().toString();
    }

    /** {@code {"readOnly": true|false}}: an admin may mark a write tool read-only, never a read-only one write. */
    @PUT
    @Path("{id}/tools/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public String mark(@PathParam("id") long id, @PathParam("name") String name, String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        Boolean readOnly = JsonSupport.booleanFieldOrNull(json, "readOnly");
        if (readOnly == null) {
            throw new IllegalArgumentException("readOnly (true or false) is required");
        }
        McpTool tool = upstreams.markReadOnly(caller.get(), id, name, readOnly);
        return JsonSupport.JSON.createObjectBuilder().add("name", tool.getName()).add("readOnly", tool.isReadOnly()).build().toString();
    }

    private static List<String> names(JsonObject json, String key) {
        JsonValue value = json.get(key);
        List<String> names = new ArrayList<>();
        if (value == null || value == JsonValue.NULL) {
            return names;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException(key + " must be an array of tool names");
        }
        for (JsonValue v : value.asJsonArray()) {
            if (!(v instanceof JsonString s)) {
                throw new IllegalArgumentException(key + " must be an array of tool names (strings)");
            }
            names.add(s.getString());
        }
        return names;
    }

    private static JsonArrayBuilder strings(List<String> values) {
        JsonArrayBuilder b = JsonSupport.JSON.createArrayBuilder();
        values.forEach(b::add);
        return b;
    }
}
