package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.BearerAuthenticator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * RFC 9728 Protected Resource Metadata of the MCP endpoints, at {@code /.well-known/oauth-protected-resource/mcp} and
 * {@code …/mcp/{server}}: where MCP clients learn which authorization server issues tokens for that endpoint. Public,
 * with CORS open (browser-based clients read it too); 404 while OAuth is off. It says nothing about whether a server
 * exists: server names are per workspace and only a token tells the workspace.
 */
@Path(BearerAuthenticator.METADATA_PATH)
@ApplicationScoped
@Tag(name = "OAuth", description = "Protected resource metadata (RFC 9728) of the MCP endpoints, for OAuth clients")
public class ProtectedResourceMetadataResource {

    @Inject
    BearerAuthenticator bearer;

    @GET
    @Path("mcp")
    @Operation(summary = "Metadata of the shared endpoint /mcp: resource URL, authorization server, scopes")
    @APIResponse(responseCode = "200", description = "{\"resource\", \"authorization_servers\", \"scopes_supported\", \"bearer_methods_supported\", \"resource_name\"}")
    @APIResponse(responseCode = "404", description = "OAuth for MCP clients is off")
    public Response shared() {
        return metadata("/mcp");
    }

    @GET
    @Path("mcp/{server}")
    @Operation(summary = "Metadata of the server endpoint /mcp/{server}")
    @APIResponse(responseCode = "200", description = "As for /mcp, with this endpoint's resource URL")
    @APIResponse(responseCode = "404", description = "OAuth for MCP clients is off, or no server can have this name")
    public Response server(@PathParam("server") String server) {
        return metadata("/mcp/" + server);
    }

    private Response metadata(String endpoint) {
        return bearer.metadata(endpoint)
                .map(m -> Response.ok(m.toJson().toString(), MediaType.APPLICATION_JSON_TYPE)
                        .header("Access-Control-Allow-Origin", "*").header("Cache-Control", "public, max-age=300"))
                .orElseGet(() -> Response.status(404).type(MediaType.APPLICATION_JSON_TYPE)
                        .entity(JsonSupport.JSON.createObjectBuilder().add("error", "not_found")
                                .add("message", "OAuth for MCP clients is off (AMCP_OIDC_ISSUER and AMCP_PUBLIC_URL)").build().toString()))
                .build();
    }
}
