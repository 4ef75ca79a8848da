package dev.amcp.gateway.codemode.boundary;

import dev.amcp.gateway.codemode.control.CodeToolDrift;
import dev.amcp.gateway.codemode.control.CodeToolReplay;
import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.boundary.ToolResource;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Admin REST for code tools: {@code {"server", "name", "title", "description", "inputSchema", "code", "uses": [...],
 * "runAs": "invoker"|"definer", "allowWrites": false, "requireReplay": false, "approval": "role"|"always"|"never"}}.
 * Without {@code uses} the save takes the tool names the runner reads from the code. Answers carry the saved
 * {@code uses} and soft-limit warnings. A GET
 * also says whether the tool needs review ({@code needsReview}, {@code drift}: the tools in {@code uses} whose schemas
 * changed since the save). Replays ({@code POST /api/code-tools/{id}/replay}) and recordings need {@code tools.write}
 * ({@link CodeToolReplay}).
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

    @Inject
    CodeToolReplay replays;

    @POST
    public Response create(String body) {
        return saved(codeTools.create(caller.get(), draftOf(body)), Response.Status.CREATED);
    }

    @PUT
    @Path("{id}")
    public Response update(@PathParam("id") long id, String body) {
        return saved(codeTools.update(caller.get(), id, draftOf(body)), Response.Status.OK);
    }

    /** The save's answer: the tool's id, name and class, the {@code uses} it was saved with, and the warnings. */
    private static Response saved(Gated<McpTool> saved, Response.Status status) {
        var uses = JsonSupport.JSON.createArrayBuilder();
        CodeToolSpec.from(saved.value().getEndpointMapping()).uses().forEach(uses::add);
        JsonObject answer = JsonSupport.JSON.createObjectBuilder(ToolResource.savedJson(saved.value(), saved.englishWarnings()))
                .add("uses", uses).build();
        return Response.status(status).entity(answer.toString()).build();
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

    /** {@code {"runId", "code"?}}: replays a recorded run, with the tool's code or the given one; no tool is called. */
    @POST
    @Path("{id}/replay")
    public String replay(@PathParam("id") long id, String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        String code = json.containsKey("code") && json.get("code") != JsonValue.NULL ? JsonSupport.stringField(json, "code", null) : null;
        return replays.replay(caller.get(), id, JsonSupport.stringField(json, "runId", null), code).json().toString();
    }

    /** The recorded runs of this code tool, newest first: {@code {"runs": [{runId, status, startedAt}]}}. */
    @GET
    @Path("{id}/recordings")
    public String recordings(@PathParam("id") long id, @QueryParam("limit") @DefaultValue("20") int limit) {
        JsonArrayBuilder list = JsonSupport.JSON.createArrayBuilder();
        replays.replayable(caller.get(), id, Math.max(1, Math.min(100, limit))).forEach(r -> list.add(JsonSupport.JSON.createObjectBuilder()
                .add("runId", r.getRunId()).add("status", r.getStatus()).add("startedAt", r.getStartedAt().toString())));
        return JsonSupport.JSON.createObjectBuilder().add("runs", list).build().toString();
    }

    /** One recording, with the results of tools the caller may not read withheld. */
    @GET
    @Path("{id}/recordings/{runId}")
    public String recording(@PathParam("id") long id, @PathParam("runId") String runId) {
        return replays.shown(caller.get(), id, runId).toString();
    }

    static CodeToolDraft draftOf(String body) {
        JsonObject json = JsonSupport.parseObject(body == null ? "" : body);
        boolean usesFromCode = !json.containsKey("uses") || json.get("uses") == JsonValue.NULL;
        var uses = usesFromCode ? JsonValue.EMPTY_JSON_ARRAY : json.get("uses");
        if (uses.getValueType() != JsonValue.ValueType.ARRAY
                || uses.asJsonArray().stream().anyMatch(u -> u.getValueType() != JsonValue.ValueType.STRING)) {
            throw new IllegalArgumentException("uses must be an array of tool names");
        }
        JsonObject mapping = JsonSupport.JSON.createObjectBuilder().add("method", "code")
                .add("code", JsonSupport.stringField(json, "code", "")).add("uses", uses)
                .add("runAs", JsonSupport.stringField(json, "runAs", CodeToolSpec.INVOKER))
                .add("allowWrites", JsonSupport.booleanField(json, "allowWrites", false))
                .add("requireReplay", JsonSupport.booleanField(json, "requireReplay", false))
                .add("approval", JsonSupport.stringField(json, "approval", CodeToolSpec.APPROVAL_ROLE)).build();
        return new CodeToolDraft(ToolResource.draftOf(json), CodeToolSpec.from(mapping), usesFromCode);
    }
}
