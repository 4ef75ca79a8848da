package dev.amcp.gateway.upstreams.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.CredentialDraft;
import dev.amcp.gateway.upstreams.entity.UpstreamCredential;
import dev.amcp.gateway.upstreams.entity.UpstreamDraft;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
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
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A workspace's upstreams over REST (admins): {@code POST} {@code {"name", "baseUrl", "description"?}}, list, read,
 * change ({@code PUT}: base URL and description), delete; and each one's credential ({@code PUT {id}/credential},
 * {@code DELETE {id}/credential}). A credential's secret is write-only: answers carry its kind, what is not secret,
 * a fingerprint and when and by whom it was set. The operator's upstreams ({@code AMCP_UPSTREAM_<NAME>}) granted to the
 * workspace are listed beside, read-only.
 */
@Path("/api/upstreams")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Upstreams", description = "Workspace admins: the company APIs tools call, and their credentials")
public class UpstreamResource {

    /** The request field that carries each kind's secret. */
    static final Map<String, String> SECRET_FIELD = Map.of(UpstreamCredential.HEADER, "value", UpstreamCredential.BASIC, "password",
            UpstreamCredential.OAUTH_CLIENT, "clientSecret");

    @Inject
    CurrentCaller caller;

    @Inject
    WorkspaceUpstreams upstreams;

    @GET
    @Operation(summary = "The workspace's upstreams, and the operator's granted to it (read-only)")
    @APIResponse(responseCode = "200", description = "{\"upstreams\": [{\"id\", \"name\", \"baseUrl\", \"description\"?, \"credential\"?}], "
            + "\"operatorUpstreams\": [{\"name\", \"baseUrl\", \"readOnly\": true}]}")
    public String list() {
        var list = JsonSupport.JSON.createArrayBuilder();
        Map<Long, UpstreamCredential> credentials = upstreams.credentials(caller.get());
        upstreams.list(caller.get()).forEach(u -> list.add(view(u, credentials.get(u.getId()))));
        var operator = JsonSupport.JSON.createArrayBuilder();
        upstreams.grantedOperatorBases(caller.get()).forEach((name, base) -> operator.add(JsonSupport.JSON.createObjectBuilder().add("name", name)
                .add("baseUrl", base).add("readOnly", true)));
        return JsonSupport.JSON.createObjectBuilder().add("upstreams", list).add("operatorUpstreams", operator).build().toString();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add an upstream: a name unique in the workspace and a base URL inside the operator's egress ceiling")
    @APIResponse(responseCode = "201", description = "The upstream")
    @APIResponse(responseCode = "400", description = "A field is malformed, or the base URL is outside the ceiling (the message names the rule)")
    @APIResponse(responseCode = "409", description = "The name is taken")
    public Response create(String body) {
        WorkspaceUpstream created = upstreams.create(caller.get(), draft(body));
        return Response.status(Response.Status.CREATED).entity(view(created, null).toString()).build();
    }

    @GET
    @Path("{id}")
    public String get(@PathParam("id") long id) {
        return view(upstreams.find(caller.get(), id), upstreams.credential(caller.get(), id)).toString();
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change an upstream's base URL and description (its name stays)")
    public String update(@PathParam("id") long id, String body) {
        return view(upstreams.update(caller.get(), id, draft(body)), upstreams.credential(caller.get(), id)).toString();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete an upstream no tool names, with its credential")
    @APIResponse(responseCode = "409", description = "Tools name it (the message lists them)")
    public Response delete(@PathParam("id") long id) {
        upstreams.delete(caller.get(), id);
        return Response.noContent().build();
    }

    @PUT
    @Path("{id}/credential")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set the upstream's credential; the secret is stored encrypted and never shown again",
            description = "{\"kind\": \"header\", \"header\"?: \"Authorization\", \"value\"} | {\"kind\": \"basic\", \"username\", \"password\"} | "
                    + "{\"kind\": \"oauth_client\", \"tokenUrl\", \"clientId\", \"clientSecret\", \"scope\"?}")
    @APIResponse(responseCode = "200", description = "{\"kind\", \"params\", \"fingerprint\", \"setBy\", \"setAt\"}")
    @APIResponse(responseCode = "409", description = "The gateway has no master key (the message names AMCP_MASTER_KEY)")
    public String setCredential(@PathParam("id") long id, String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        String kind = JsonSupport.stringField(json, "kind", null);
        String secretField = SECRET_FIELD.getOrDefault(kind, "value");
        JsonObjectBuilder params = JsonSupport.JSON.createObjectBuilder();
        json.forEach((key, value) -> {
            if (!key.equals("kind") && !SECRET_FIELD.containsValue(key)) {
                params.add(key, value);
            }
        });
        CredentialDraft draft = new CredentialDraft(kind, params.build(), JsonSupport.stringField(json, secretField, null));
        return WorkspaceUpstreams.describe(upstreams.setCredential(caller.get(), id, draft)).toString();
    }

    @DELETE
    @Path("{id}/credential")
    public Response clearCredential(@PathParam("id") long id) {
        upstreams.clearCredential(caller.get(), id);
        return Response.noContent().build();
    }

    private static UpstreamDraft draft(String body) {
        JsonObject json = JsonSupport.parseObject(body == null || body.isBlank() ? "{}" : body);
        return new UpstreamDraft(JsonSupport.stringField(json, "name", null), JsonSupport.stringField(json, "baseUrl", null),
                JsonSupport.stringField(json, "description", null));
    }

    static JsonObject view(WorkspaceUpstream u, UpstreamCredential credential) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder(WorkspaceUpstreams.snapshot(u)).add("id", u.getId())
                .add("createdBy", u.getCreatedBy()).add("createdAt", u.getCreatedAt().toString());
        if (credential != null) {
            b.add("credential", WorkspaceUpstreams.describe(credential));
        }
        return b.build();
    }
}
