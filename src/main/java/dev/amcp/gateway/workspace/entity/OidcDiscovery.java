package dev.amcp.gateway.workspace.entity;

import jakarta.json.JsonObject;
import java.net.URI;

/**
 * The parts of an OpenID provider's discovery document ({@code /.well-known/openid-configuration}) the gateway uses.
 * Endpoints the provider does not publish are {@code null}; {@code document} is the whole document as fetched.
 */
public record OidcDiscovery(String issuer, URI jwksUri, URI authorizationEndpoint, URI tokenEndpoint,
                            URI userinfoEndpoint, URI endSessionEndpoint, JsonObject document) {}
