package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.CodeToolDrift;
import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.boundary.ToolResource;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.boundary.Authenticated;
import dev.amcp.gateway.workspace.boundary.CurrentCaller;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Admin REST for code tools: {@code {"server", "name", "title", "description", "inputSchema", "code", "uses": [...],
 * "runAs": "invoker"|"definer", "allowWrites": false}}. Answers carry soft-limit warnings. A GET also says whether the
 * tool needs review ({@code needsReview}, {@code drift}: the tools in {@code uses} whose schemas changed since the save).
 */
@Path("/api/code-tools")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CodeToolResource {

    @Inject
    CurrentCaller caller;

    @Inject
    CodeToolService codeTools;

    @POST
    public Response create(String body) {
        Gated<McpTool> saved = codeTools.create(caller.get(), draftOf(body));
        return ToolResource.saved(saved.value(), saved.englishWarnings(), true);
    }

    @PUT
    @Path("{id}")
    public Response update(@PathParam("id") long id, String body) {
        Gated<McpTool> saved = codeTools.update(caller.get(), id, draftOf(body));
        return ToolResource.saved(saved.value(), saved.englishWarnings(), false);
    }

    /** The code tool as saved, with {@code needsReview} and, per used tool whose schemas changed since, the differences. */
    @GET
    @Path("{id}")
    public String get(@PathParam("id") long id) {
        CodeToolService.Reviewed reviewed = codeTools.review(caller.get(), id);
        McpTool tool = reviewed.tool();
        CodeToolSpec spec = CodeToolSpec.from(tool.getEndpointMapping());
        var uses = JsonSupport.JSON.createArrayBuilder();
        spec.uses().forEach(uses::add);
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", tool.getId()).add("name", tool.getName())
                .add("serverId", tool.getServerId()).add("code", spec.code()).add("uses", uses).add("runAs", spec.runAs())
                .add("allowWrites", spec.allowWrites()).add("readOnly", tool.isReadOnly())
                .add("inputSchema", tool.getInputSchema() == null ? JsonValue.NULL : tool.getInputSchema())
                .add("outputSchema", tool.getOutputSchema() == null ? JsonValue.NULL : tool.getOutputSchema());
        if (tool.getTitle() != null) {
            b.add("title", tool.getTitle());
        }
        if (tool.getDescription() != null) {
            b.add("description", tool.getDescription());
        }
        CodeToolDrift.json(reviewed.drift()).forEach(b::add);
        return b.build().toString();
    }

    static CodeToolDraft draftOf(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        var uses = json.containsKey("uses") ? json.get("uses") : JsonValue.EMPTY_JSON_ARRAY;
        if (uses.getValueType() != JsonValue.ValueType.ARRAY
                || uses.asJsonArray().stream().anyMatch(u -> u.getValueType() != JsonValue.ValueType.STRING)) {
            throw new IllegalArgumentException("uses must be an array of tool names");
        }
        JsonObject mapping = JsonSupport.JSON.createObjectBuilder().add("method", "code")
                .add("code", JsonSupport.stringField(json, "code", "")).add("uses", uses)
                .add("runAs", JsonSupport.stringField(json, "runAs", CodeToolSpec.INVOKER))
                .add("allowWrites", JsonSupport.booleanField(json, "allowWrites", false)).build();
        return new CodeToolDraft(ToolResource.draftOf(json), CodeToolSpec.from(mapping));
    }
}
