package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresSelfOrAdmin;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.UserAccount;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The API keys of a person of the caller's workspace: members manage their own, admins anyone's. A key carries its
 * user's role as it is at each call (keys issued here name no role of their own), so changing the user's role changes
 * what every one of their keys may do.
 */
@ApplicationScoped
@Transactional
public class KeyAdministration {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    WorkspaceService workspaces;

    /** The keys of a user, newest first; empty when the workspace has no user of this name. */
    @RequiresSelfOrAdmin
    public Optional<List<ApiKey>> list(Caller caller, @RequiresSelfOrAdmin.Person String username) {
        return owner(caller, username).map(user -> em.createNamedQuery(ApiKey.BY_USER, ApiKey.class)
                .setParameter("userId", user.getId()).getResultList());
    }

    /** Issues a key for a user; the plaintext is in the answer this once. Empty when there is no such user. */
    @RequiresSelfOrAdmin
    public Optional<ApiKeyService.IssuedKey> issue(Caller caller, @RequiresSelfOrAdmin.Person String username, String name, Instant expiresAt) {
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw new InvalidInputException(Message.of("problem.key.expiresPast", "expiresAt must be in the future"));
        }
        return owner(caller, username).map(user -> {
            ApiKeyService.IssuedKey issued = apiKeys.issue(user.getId(), name, null);
            issued.key().setExpiresAt(expiresAt);
            apiKeys.recordIssued(caller, issued, user.getUsername());
            return issued;
        });
    }

    /** Revokes a key of a user; false when there is no such user or key. */
    @RequiresSelfOrAdmin
    public boolean revoke(Caller caller, @RequiresSelfOrAdmin.Person String username, long keyId) {
        return owner(caller, username).map(user -> {
            ApiKey key = em.find(ApiKey.class, keyId);
            if (key == null || !key.getUserId().equals(user.getId())) {
                return false;
            }
            return apiKeys.revoke(caller, keyId, user.getUsername());
        }).orElse(false);
    }

    /**
     * The user whose keys the caller manages, of the caller's workspace. Whether the caller may ask (themself, or anyone
     * for an admin) is decided before, by {@link RequiresSelfOrAdmin}, so a refusal does not tell whether the person
     * exists.
     */
    private Optional<UserAccount> owner(Caller caller, String username) {
        return workspaces.findMember(caller.workspaceId(), username);
    }
}
