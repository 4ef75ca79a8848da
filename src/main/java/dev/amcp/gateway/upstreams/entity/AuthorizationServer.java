package dev.amcp.gateway.upstreams.entity;

/**
 * What discovery found for a protected upstream: the resource it names itself (RFC 9728), and its authorization
 * server's issuer and endpoints (RFC 8414 or OpenID discovery). {@code registrationEndpoint} and
 * {@code revocationEndpoint} are null where the server offers none; {@code scopes} is what the resource says it
 * supports, space-separated, or null.
 */
public record AuthorizationServer(String resource, String issuer, String authorizationEndpoint, String tokenEndpoint,
                                  String registrationEndpoint, String revocationEndpoint, String scopes) {}
