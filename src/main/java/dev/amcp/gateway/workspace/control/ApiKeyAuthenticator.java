package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/**
 * Authenticates the {@code Authorization} header of every MCP and REST request. The database answer for a key is
 * kept briefly ({@link ShortCache}, {@code AMCP_ACCESS_CACHE_SECONDS}, default 5, 0 turns it off), because looking the
 * key, its user and its role up was the largest single cost of an MCP request. A change to any key, user or role on this
 * node drops every kept answer at once ({@link AccessChanges}); on other nodes of a cluster a revoked key or a narrowed
 * role takes effect within that time. A key's own expiry is always honoured.
 */
@ApplicationScoped
public class ApiKeyAuthenticator {

    @Inject
    ApiKeyService keys;

    @Inject
    Settings settings;

    private ShortCache<String, ApiKeyService.VerifiedKey> verified;

    @PostConstruct
    void configure() {
        verified = new ShortCache<>(settings, AccessChanges::generation);
    }

    /** The caller for an {@code Authorization: Bearer} header; empty for a missing, unknown, revoked or expired key. */
    public Optional<Caller> authenticate(String authorizationHeader) {
        Instant now = Instant.now();
        return ApiKeyService.bearerToken(authorizationHeader)
                .flatMap(plaintext -> verified.get(ApiKeyService.sha256(plaintext), hash -> keys.verify(plaintext)))
                .filter(key -> key.keyExpiresAt() == null || key.keyExpiresAt().isAfter(now))
                .map(ApiKeyService.VerifiedKey::caller);
    }
}
