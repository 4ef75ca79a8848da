package dev.amcp.gateway.upstreams.entity;

/**
 * Each person connects their own account (OAuth authorization code with PKCE). {@code clientId} and
 * {@code clientSecret} are a client the admin registered at the server's authorization server (both null: the
 * gateway registers itself dynamically); {@code scope} is what to ask for (null: what the server says it supports).
 */
public record PersonalAccounts(String clientId, String clientSecret, String scope) {
    @Override
    public String toString() {
        return "PersonalAccounts[" + clientId + ", " + scope + "]"; // never the secret
    }
}
