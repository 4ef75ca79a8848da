package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.UserAccount;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Issues, authenticates and revokes API keys. A key is 32 random bytes; the database keeps only its SHA-256, which
 * is also the lookup key, so a stolen database gives no usable keys.
 */
@ApplicationScoped
@Transactional
public class ApiKeyService {

    /** Issued keys look like {@code amcp_<43 base64url chars>}. */
    public static final String KEY_PREFIX = "amcp_";
    private static final int MIN_KEY_LENGTH = 24;
    private static final Duration LAST_USED_GRANULARITY = Duration.ofMinutes(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Event<AdminChange> changes;

    /** A newly created key: the plaintext is returned here once and never stored. */
    public record IssuedKey(ApiKey key, String plaintext) {}

    public IssuedKey issue(long userId, String name, String roleName) {
        return issue(userId, name, roleName, newKey());
    }

    /** Issues a key with a given plaintext, for scripted set-ups such as {@code AMCP_DEMO_API_KEY}. */
    public IssuedKey issue(long userId, String name, String roleName, String plaintext) {
        if (plaintext == null || plaintext.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("An API key must have at least " + MIN_KEY_LENGTH + " characters");
        }
        if (name == null || name.isBlank()) {
            throw new InvalidInputException(Message.of("problem.key.name", "An API key needs a name"));
        }
        UserAccount user = em.find(UserAccount.class, userId);
        if (user == null) {
            throw new IllegalArgumentException("No such user: " + userId);
        }
        Long roleId = null;
        if (roleName != null) {
            roleId = em.createNamedQuery(Role.BY_NAME, Role.class).setParameter("workspaceId", user.getWorkspaceId())
                    .setParameter("name", roleName).getResultStream().findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("No role '" + roleName + "' in this workspace")).getId();
        }
        String hash = sha256(plaintext);
        if (!em.createNamedQuery(ApiKey.BY_HASH, ApiKey.class).setParameter("hash", hash).getResultList().isEmpty()) {
            throw new IllegalArgumentException("That API key is already in use");
        }
        ApiKey key = new ApiKey(user.getWorkspaceId(), userId, roleId, name.strip(), displayPrefix(plaintext), hash);
        em.persist(key);
        return new IssuedKey(key, plaintext);
    }

    /** An admin issues a key for themself, optionally narrowed to another role of the workspace. */
    @RequiresCapability(Capability.ADMIN)
    public IssuedKey issue(Caller caller, String name, String roleName) {
        IssuedKey issued = issue(caller.userId(), name, roleName);
        recordIssued(caller, issued, caller.username());
        return issued;
    }

    /** Writes the audit row of a key an admin or member just issued; the plaintext stays out of it. */
    void recordIssued(Caller caller, IssuedKey issued, String username) {
        em.flush(); // the key's id, which names it in the audit log
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.KEY, username + "/" + issued.key().getId(), AdminChange.CREATE,
                null, AdminSnapshots.of(issued.key(), username)));
    }

    /** An admin revokes a key of their workspace; a key of another workspace is treated as absent. */
    @RequiresCapability(Capability.ADMIN)
    public boolean revoke(Caller caller, long keyId) {
        ApiKey key = em.find(ApiKey.class, keyId);
        UserAccount owner = key == null ? null : em.find(UserAccount.class, key.getUserId());
        return revoke(caller, keyId, owner == null ? "?" : owner.getUsername());
    }

    /** Revokes a key of the caller's workspace and writes the audit row, unless it was revoked already. */
    boolean revoke(Caller caller, long keyId, String username) {
        ApiKey key = em.find(ApiKey.class, keyId);
        if (key == null || !key.getWorkspaceId().equals(caller.workspaceId())) {
            return false;
        }
        if (key.getRevokedAt() == null) {
            var before = AdminSnapshots.of(key, username);
            key.revoke(Instant.now());
            changes.fire(AdminChange.inWorkspace(caller, AdminChange.KEY, username + "/" + keyId, AdminChange.REVOKE, before,
                    AdminSnapshots.of(key, username)));
        }
        return true;
    }

    /** A caller found for a key, and until when the key itself is valid (null: no expiry). */
    public record VerifiedKey(Caller caller, Instant keyExpiresAt) {}

    /**
     * Resolves a key to its caller, or empty for an unknown, revoked or expired key, a disabled user or a user of a
     * disabled workspace.
     */
    public Optional<Caller> authenticateKey(String plaintext) {
        return verify(plaintext).map(VerifiedKey::caller);
    }

    /** Looks a key up in the database; {@link ApiKeyAuthenticator} keeps the answers for a few seconds. */
    public Optional<VerifiedKey> verify(String plaintext) {
        String hash = sha256(plaintext);
        Instant now = Instant.now();
        Optional<ApiKey> found = em.createNamedQuery(ApiKey.BY_HASH, ApiKey.class).setParameter("hash", hash)
                .getResultStream().findFirst()
                .filter(k -> MessageDigest.isEqual(k.getKeyHash().getBytes(StandardCharsets.US_ASCII), hash.getBytes(StandardCharsets.US_ASCII)))
                .filter(k -> k.isUsableAt(now));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ApiKey key = found.get();
        Optional<Caller> caller = AccountCallers.of(em, em.find(UserAccount.class, key.getUserId()), key);
        if (caller.isEmpty()) {
            return Optional.empty();
        }
        if (key.getLastUsedAt() == null || key.getLastUsedAt().plus(LAST_USED_GRANULARITY).isBefore(now)) {
            // a bulk update, so this bookkeeping does not count as an access change (see AccessChanges)
            em.createNamedQuery(ApiKey.TOUCH).setParameter("id", key.getId()).setParameter("now", now).executeUpdate();
        }
        return Optional.of(new VerifiedKey(caller.get(), key.getExpiresAt()));
    }

    /**
     * The caller a principal of workspace {@code workspaceId} is now: through key {@code keyId} when given (still usable),
     * else as user {@code userId} (an OAuth caller); empty when it no longer may call anything there. For work done later
     * on a caller's behalf (a paused write resumed after its approval), so that it runs under the role as it is now.
     */
    public Optional<Caller> callerNow(long workspaceId, Long userId, Long keyId) {
        ApiKey key = keyId == null ? null : em.find(ApiKey.class, keyId);
        if (keyId != null && (key == null || !key.isUsableAt(Instant.now()))) {
            return Optional.empty();
        }
        Long user = key != null ? key.getUserId() : userId;
        return user == null ? Optional.empty()
                : AccountCallers.of(em, em.find(UserAccount.class, user), key).filter(c -> c.workspaceId() == workspaceId);
    }

    public List<ApiKey> keys(long workspaceId) {
        return em.createNamedQuery(ApiKey.BY_WORKSPACE, ApiKey.class).setParameter("workspaceId", workspaceId).getResultList();
    }

    /** Revokes a key of the given workspace; a key of another workspace is treated as absent. */
    public boolean revoke(long workspaceId, long keyId) {
        ApiKey key = em.find(ApiKey.class, keyId);
        if (key == null || !key.getWorkspaceId().equals(workspaceId)) {
            return false;
        }
        if (key.getRevokedAt() == null) {
            key.revoke(Instant.now());
        }
        return true;
    }

    public static Optional<String> bearerToken(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = authorizationHeader.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String displayPrefix(String plaintext) {
        return plaintext.substring(0, Math.min(12, plaintext.length())) + "…";
    }

    public static String sha256(String text) {
        return Hashes.sha256(text);
    }
}
