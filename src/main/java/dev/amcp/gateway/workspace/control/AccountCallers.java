package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.persistence.EntityManager;
import java.util.Optional;

/**
 * The caller an account acts as, the one rule for API keys and editor sign-ins: nobody for a disabled user or a user
 * of a disabled workspace; an operator outside every workspace; otherwise the user's workspace and role, or the
 * role the key is narrowed to, within the user's role as it is now.
 */
final class AccountCallers {

    private AccountCallers() {}

    static Optional<Caller> of(EntityManager em, UserAccount user, ApiKey key) {
        if (user == null || !user.isEnabled()) {
            return Optional.empty();
        }
        Long keyId = key == null ? null : key.getId();
        if (user.isOperator()) {
            return Optional.of(Caller.operator(user.getId(), keyId, user.getUsername()));
        }
        Workspace workspace = em.find(Workspace.class, user.getWorkspaceId());
        if (workspace == null || !workspace.isEnabled()) {
            return Optional.empty();
        }
        RoleGrant role = em.find(Role.class, user.getRoleId()).toGrant();
        if (key != null && key.getRoleId() != null) {
            role = em.find(Role.class, key.getRoleId()).toGrant().within(role);
        }
        return Optional.of(new Caller(user.getWorkspaceId(), user.getId(), keyId, user.getUsername(), role, CallScope.UNRESTRICTED));
    }
}
