package dev.amcp.gateway.workspace.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of one MCP endpoint: its canonical URL, the authorization servers
 * whose tokens it takes, the scopes it knows and how tokens are sent.
 */
public record ProtectedResourceMetadata(String resource, List<String> authorizationServers, List<String> scopesSupported,
                                        List<String> bearerMethodsSupported, String resourceName) {

    /** The document as RFC 9728 names its members. */
    public JsonObject toJson() {
        return JsonSupport.JSON.createObjectBuilder()
                .add("resource", resource)
                .add("authorization_servers", JsonSupport.JSON.createArrayBuilder(authorizationServers))
                .add("scopes_supported", JsonSupport.JSON.createArrayBuilder(scopesSupported))
                .add("bearer_methods_supported", JsonSupport.JSON.createArrayBuilder(bearerMethodsSupported))
                .add("resource_name", resourceName)
                .build();
    }
}
