package dev.amcp.gateway.tools.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Admin REST surface for tools: list what the caller may use, call one through {@link ToolExecutor} (the test
 * button's path), and create, change or delete HTTP tools.
 */
@Path("/api/tools")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class ToolResource {

    @Inject
    CurrentCaller caller;

    @Inject
    ToolCatalog catalog;

    @Inject
    ToolExecutor executor;

    @Inject
    ToolService tools;

    /** The tools the caller may call; a stored tool carries the {@code id} that {@code PUT} and {@code DELETE} take. */
    @GET
    public String list() {
        List<McpTool> stored = catalog.permittedStoredTools(caller.get());
        Map<String, Long> ids = new HashMap<>();
        stored.forEach(t -> ids.put(t.getName(), t.getId()));
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        for (ToolDescriptor d : catalog.withVirtualTools(caller.get(), stored.stream().map(ToolDescriptor::of).toList())) {
            Long id = ids.get(d.name());
            array.add(id == null ? describe(d) : JsonSupport.JSON.createObjectBuilder(describe(d)).add("id", id).build());
        }
        return JsonSupport.JSON.createObjectBuilder().add("tools", array).build().toString();
    }

    /** Calls a tool with the posted JSON object as its arguments and answers the MCP-shaped result. */
    @POST
    @Path("{name}/call")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response call(@PathParam("name") String name, String body) {
        JsonObject args;
        try {
            args = body == null || body.isBlank() ? JsonValue.EMPTY_JSON_OBJECT : JsonSupport.parseObject(body);
        } catch (IllegalArgumentException e) {
            return ErrorResponses.of(Response.Status.BAD_REQUEST, "bad_request", e.getMessage());
        }
        try {
            return Response.ok(resultJson(executor.call(caller.get(), name, args)).toString()).build();
        } catch (ToolNotAvailableException e) {
            return ErrorResponses.of(Response.Status.NOT_FOUND, "not_available", e.getMessage());
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        return save(body, null);
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response update(@PathParam("id") long id, String body) {
        return save(body, id);
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        tools.delete(caller.get(), id);
        return Response.noContent().build();
    }

    private Response save(String body, Long id) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        McpTool tool = id == null ? tools.createHttpTool(caller.get(), draftOf(json)) : tools.updateHttpTool(caller.get(), id, draftOf(json));
        return saved(tool, java.util.List.of(), id == null);
    }

    /** The common fields of a tool in a REST body; {@code endpointMapping} is the HTTP mapping. */
    public static ToolDraft draftOf(JsonObject json) {
        return new ToolDraft(JsonSupport.stringField(json, "server", null), JsonSupport.stringField(json, "name", null),
                JsonSupport.stringField(json, "title", null), JsonSupport.stringField(json, "description", null),
                objectOrNull(json, "inputSchema"), objectOrNull(json, "outputSchema"), objectOrNull(json, "endpointMapping"));
    }

    /** 201 (or 200) with the saved tool and any soft-limit warnings. */
    public static Response saved(McpTool tool, java.util.List<String> warnings, boolean created) {
        return Response.status(created ? Response.Status.CREATED : Response.Status.OK).entity(savedJson(tool, warnings).toString()).build();
    }

    /** A saved tool's answer: {@code {id, name, method, readOnly, warnings}}. */
    public static JsonObject savedJson(McpTool tool, java.util.List<String> warnings) {
        var w = JsonSupport.JSON.createArrayBuilder();
        warnings.forEach(w::add);
        return JsonSupport.JSON.createObjectBuilder().add("id", tool.getId()).add("name", tool.getName())
                .add("method", tool.getMethod()).add("readOnly", tool.isReadOnly()).add("warnings", w).build();
    }

    public static JsonObject objectOrNull(JsonObject json, String key) {
        JsonValue value = json.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new IllegalArgumentException(key + " must be a JSON object, not " + JsonSupport.typeName(value));
        }
        return value.asJsonObject();
    }

    static JsonObject describe(ToolDescriptor d) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", d.name()).add("readOnly", d.readOnly())
                .add("inputSchema", d.inputSchema());
        if (d.outputSchema() != null) {
            b.add("outputSchema", d.outputSchema());
        }
        if (d.title() != null) {
            b.add("title", d.title());
        }
        if (d.description() != null) {
            b.add("description", d.description());
        }
        return b.build();
    }

    /** {@code {"content":[{"type":"text","text":...}], "structuredContent": {...}, "isError": bool}} */
    public static JsonObject resultJson(ToolResult result) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("content", JsonSupport.JSON.createArrayBuilder().add(JsonSupport.JSON.createObjectBuilder().add("type", "text").add("text", result.text())))
                .add("isError", result.isError());
        if (result.structuredContent() != null) {
            b.add("structuredContent", result.structuredContent());
        }
        return b.build();
    }
}
