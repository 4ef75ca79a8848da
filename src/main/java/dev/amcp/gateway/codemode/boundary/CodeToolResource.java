package dev.amcp.gateway.codemode.boundary;

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
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Admin REST for code tools: {@code {"server", "name", "title", "description", "inputSchema", "code", "uses": [...],
 * "runAs": "invoker"|"definer", "allowWrites": false}}. Answers carry soft-limit warnings.
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
