package dev.amcp.gateway.upstreams.entity;

import java.io.Serializable;
import java.time.Instant;

/**
 * A person's connection to a per-person upstream that the browser started and has not finished, kept in the editor
 * session until the authorization server sends it back: the {@code state} that ties the answer to this session and
 * person, the PKCE code verifier, the redirect URI the code is bound to, and where the server's sign-in page is.
 */
public record PendingConnection(String state, String codeVerifier, long upstreamServerId, String redirectUri, String authorizationUrl,
                                Instant startedAt) implements Serializable {
    @Override
    public String toString() {
        return "PendingConnection[" + upstreamServerId + "]"; // never the verifier
    }
}
