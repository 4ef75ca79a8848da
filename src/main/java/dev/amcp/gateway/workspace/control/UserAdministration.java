package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.UserChange;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A workspace admin's side of people: list the workspace's users, add one with a role, change a user's role, password
 * or whether they are enabled. Disabling ends their editor sessions (every page looks the user up) and revokes their
 * API keys. No change may leave the workspace without an enabled admin.
 */
@ApplicationScoped
@Transactional
@RequiresCapability(Capability.ADMIN)
public class UserAdministration {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Event<AdminChange> changes;

    /** A user with the name of their role. */
    public record Member(UserAccount user, String role) {}

    public List<Member> list(Caller caller) {
        Map<Long, Role> roles = roles(caller);
        return em.createNamedQuery(UserAccount.BY_WORKSPACE, UserAccount.class).setParameter("workspaceId", caller.workspaceId())
                .getResultList().stream().map(u -> new Member(u, roles.get(u.getRoleId()).getName())).toList();
    }

    public Member create(Caller caller, WorkspaceDraft.AccountDraft account, String roleName) {
        Role role = roleNamed(caller, roleName);
        UserAccount user = workspaces.createUser(caller.workspaceId(), role.getName(), account);
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.USER, user.getUsername(), AdminChange.CREATE, null,
                AdminSnapshots.of(user, role.getName())));
        return new Member(user, role.getName());
    }

    /** Changes a user of the caller's workspace; empty when the workspace has no user of this name. */
    public Optional<Member> update(Caller caller, String username, UserChange change) {
        Optional<UserAccount> found = workspaces.findMember(caller.workspaceId(), username);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        UserAccount user = found.get();
        var before = AdminSnapshots.of(user, em.find(Role.class, user.getRoleId()).getName());
        Role role = change.role() == null ? em.find(Role.class, user.getRoleId()) : roleNamed(caller, change.role());
        WorkspaceService.checkPassword(change.password());
        user.setRoleId(role.getId());
        if (change.password() != null) {
            workspaces.setPassword(user, change.password());
        }
        if (Boolean.FALSE.equals(change.enabled()) && user.isEnabled()) {
            user.setEnabled(false);
            em.createNamedQuery(ApiKey.REVOKE_ALL_OF_USER).setParameter("userId", user.getId()).setParameter("now", Instant.now())
                    .executeUpdate(); // a bulk update; the user's own change above drops the cached key answers
        } else if (Boolean.TRUE.equals(change.enabled())) {
            user.setEnabled(true);
        }
        var after = AdminSnapshots.of(user, role.getName());
        if (change.password() != null) {
            after = JsonSupport.JSON.createObjectBuilder(after).add("passwordChanged", true).build(); // that it changed, never what to
        }
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.USER, user.getUsername(),
                AdminChange.enabledAction(before.getBoolean("enabled"), user.isEnabled()), before, after));
        em.flush();
        workspaces.requireAnEnabledAdmin(caller.workspaceId()); // a refusal rolls the audit row back with the change
        return Optional.of(new Member(user, role.getName()));
    }

    private Map<Long, Role> roles(Caller caller) {
        return workspaces.roles(caller.workspaceId()).stream().collect(Collectors.toMap(Role::getId, Function.identity()));
    }

    private Role roleNamed(Caller caller, String name) {
        if (name == null) {
            throw new InvalidInputException(Message.of("problem.user.roleRequired", "A role is required: one of {0}", roleNames(caller)));
        }
        return workspaces.roles(caller.workspaceId()).stream().filter(r -> r.getName().equals(name)).findFirst()
                .orElseThrow(() -> new InvalidInputException(Message.of("problem.user.noRole", "No role ''{0}'' in this workspace; roles: {1}", name,
                        roleNames(caller))));
    }

    private List<String> roleNames(Caller caller) {
        return workspaces.roles(caller.workspaceId()).stream().map(Role::getName).toList();
    }
}
