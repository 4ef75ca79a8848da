package dev.amcp.gateway.editor.entity;

import java.io.Serializable;
import java.time.Instant;

/**
 * A single sign-on the browser started and has not finished, kept in its session until the provider sends it back:
 * the {@code state} that ties the answer to this session (against login CSRF), the {@code nonce} the ID token must
 * carry (against replayed tokens), the PKCE code verifier (against stolen codes), the redirect URI the code is bound
 * to, and where the provider's sign-in page is.
 */
public record PendingSignIn(String state, String nonce, String codeVerifier, String redirectUri, String authorizationUrl,
                            Instant startedAt) implements Serializable {
}
