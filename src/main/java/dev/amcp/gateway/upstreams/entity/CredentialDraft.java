package dev.amcp.gateway.upstreams.entity;

import jakarta.json.JsonObject;

/**
 * A credential as an admin sets it: its kind ({@link UpstreamCredential#KINDS}), what is not secret ({@code params}),
 * and the secret, which is sealed at once and never returned.
 */
public record CredentialDraft(String kind, JsonObject params, String secret) {
    @Override
    public String toString() {
        return "CredentialDraft[" + kind + "]"; // never the secret
    }
}
