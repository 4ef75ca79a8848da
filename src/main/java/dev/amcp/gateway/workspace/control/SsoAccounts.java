package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.SsoIdentity;
import dev.amcp.gateway.workspace.entity.SsoRoleMapping;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who a person signed in by single sign-on is, from the values of their role claim and the workspaces' mappings
 * ({@link SsoRoleMapping}); how they signed in stays with the editor's sign-in mechanism.
 * <ul>
 *   <li>A person is found by the provider's issuer and subject, never by user name: a provider that lets people pick
 *       their name cannot take over a local account or the operator.</li>
 *   <li>At the first sign-in the person is provisioned into the one workspace whose mappings hold one of their claim
 *       values, with the mapped role, and without a password. Values mapped in several workspaces are refused (a
 *       person belongs to one workspace); so is a user name already taken.</li>
 *   <li>At every later sign-in their role follows the mapping again (the provider's groups are the source of truth),
 *       within their workspace; a person none of whose values is mapped there any more is refused. A disabled
 *       person, or a person of a disabled workspace, is refused.</li>
 *   <li>When several mapped values of one workspace apply, the role granting the most capabilities wins, then the
 *       first by name.</li>
 * </ul>
 */
@ApplicationScoped
@Transactional
public class SsoAccounts {

    /** What a sign-in comes to: the user name to sign in as, or why not (a message for the refusal page). */
    public record Outcome(String username, Message refusal) {
        static Outcome signedIn(String username) {
            return new Outcome(username, null);
        }

        static Outcome refused(String key, String english, Object... args) {
            return new Outcome(null, Message.of(key, english, args));
        }

        public boolean signedIn() {
            return refusal == null;
        }
    }

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Event<AdminChange> changes;

    public Outcome signIn(SsoIdentity identity) {
        List<SsoRoleMapping> mappings = identity.roleClaimValues().isEmpty() ? List.of()
                : em.createNamedQuery(SsoRoleMapping.BY_CLAIM_VALUES, SsoRoleMapping.class)
                        .setParameter("values", identity.roleClaimValues()).getResultList();
        Optional<UserAccount> known = em.createNamedQuery(UserAccount.BY_SSO, UserAccount.class)
                .setParameter("issuer", identity.issuer()).setParameter("subject", identity.subject()).getResultStream().findFirst();
        return known.map(user -> signInAgain(user, mappings)).orElseGet(() -> provision(identity, mappings));
    }

    private Outcome signInAgain(UserAccount user, List<SsoRoleMapping> mappings) {
        Workspace workspace = em.find(Workspace.class, user.getWorkspaceId());
        if (!user.isEnabled() || workspace == null || !workspace.isEnabled()) {
            return Outcome.refused("sso.refused.disabled", "Your account ''{0}'' is disabled. Ask an admin of your workspace.", user.getUsername());
        }
        Optional<Role> role = strongest(mappings.stream().filter(m -> m.getWorkspaceId().equals(user.getWorkspaceId())).toList());
        if (role.isEmpty()) {
            return noMappedValue();
        }
        if (!role.get().getId().equals(user.getRoleId())) {
            Role before = em.find(Role.class, user.getRoleId());
            var snapshotBefore = AdminSnapshots.of(user, before == null ? null : before.getName());
            user.setRoleId(role.get().getId());
            changes.fire(new AdminChange(user.getId(), user.getUsername(), false, user.getWorkspaceId(), AdminChange.USER,
                    user.getUsername(), AdminChange.UPDATE, snapshotBefore, AdminSnapshots.of(user, role.get().getName())));
        }
        return Outcome.signedIn(user.getUsername());
    }

    private Outcome provision(SsoIdentity identity, List<SsoRoleMapping> mappings) {
        Set<Long> workspaceIds = new TreeSet<>(mappings.stream().map(SsoRoleMapping::getWorkspaceId).toList());
        if (workspaceIds.isEmpty()) {
            return noMappedValue();
        }
        if (workspaceIds.size() > 1) {
            return Outcome.refused("sso.refused.severalWorkspaces",
                    "Your groups are mapped to roles in {0} workspaces, and a person belongs to one. Ask the operator to map them to one workspace.",
                    workspaceIds.size());
        }
        Workspace workspace = em.find(Workspace.class, workspaceIds.iterator().next());
        if (!workspace.isEnabled()) {
            return Outcome.refused("sso.refused.workspaceDisabled", "Workspace ''{0}'' is disabled.", workspace.getSlug());
        }
        Role role = strongest(mappings).orElseThrow();
        String username = identity.username();
        String email = identity.email() != null && identity.email().length() <= 320 && identity.email().matches("[^@\\s]+@[^@\\s]+")
                ? identity.email() : null;
        String displayName = identity.displayName() == null || identity.displayName().isBlank() ? null
                : identity.displayName().strip().substring(0, Math.min(200, identity.displayName().strip().length()));
        // Checked here, not caught from createUser: an exception through its transaction would roll this one back.
        if (!WorkspaceService.isUsername(username)) {
            return Outcome.refused("sso.refused.username",
                    "Your identity provider gave no usable user name (''{0}''): 2 to 100 letters, digits or . _ @ -.", String.valueOf(username));
        }
        if (workspaces.usernameTaken(username)) {
            return Outcome.refused("sso.refused.usernameTaken",
                    "An account named ''{0}'' already exists here. Ask an admin to rename it or to give your sign-in another name.", username);
        }
        UserAccount user = workspaces.createUser(workspace.getId(), role.getName(), new WorkspaceDraft.AccountDraft(username, displayName, null, email));
        user.linkSso(identity.issuer(), identity.subject());
        changes.fire(new AdminChange(user.getId(), user.getUsername(), false, workspace.getId(), AdminChange.USER, user.getUsername(),
                AdminChange.CREATE, null, AdminSnapshots.of(user, role.getName())));
        return Outcome.signedIn(user.getUsername());
    }

    private static Outcome noMappedValue() {
        return Outcome.refused("sso.refused.noGroup",
                "You signed in with your identity provider, but none of your groups is mapped to a role of a workspace. Ask an admin to map one of your groups.");
    }

    /** The role of the mappings (all of one workspace) that grants the most capabilities, then the first by name. */
    private Optional<Role> strongest(List<SsoRoleMapping> mappings) {
        return mappings.stream().map(m -> em.find(Role.class, m.getRoleId()))
                .min(Comparator.comparingInt((Role r) -> -r.getCapabilities().size()).thenComparing(Role::getName));
    }
}
