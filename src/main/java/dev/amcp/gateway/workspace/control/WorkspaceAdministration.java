package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresOperator;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import dev.amcp.gateway.workspace.entity.WorkspaceChange;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/**
 * The operator's side of workspaces: list them, create one with its built-in roles and first admin, rename, disable
 * or enable one. Each change is one transaction, so a refused creation leaves nothing behind.
 */
@ApplicationScoped
@Transactional
@RequiresOperator
public class WorkspaceAdministration {

    static final int MAX_NAME = 200;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    Event<AdminChange> changes;

    /** A workspace just created, with its first admin and that admin's API key, shown this once. */
    public record Created(Workspace workspace, List<Role> roles, UserAccount admin, String adminApiKey) {}

    public List<Workspace> list(Caller caller) {
        return em.createNamedQuery(Workspace.ALL, Workspace.class).getResultList();
    }

    public Created create(Caller caller, WorkspaceDraft draft) {
        WorkspaceService.requireSlug(draft.slug(), "Workspace slug");
        String name = requireName(draft.name());
        if (draft.admin() == null) {
            throw new IllegalArgumentException("A workspace needs its first admin: \"admin\": {\"username\": …}");
        }
        var admin = draft.admin();
        workspaces.checkNewAccount(admin.username(), admin.password(), admin.email());
        try {
            Workspace workspace = workspaces.createWorkspace(draft.slug(), name);
            UserAccount user = workspaces.createUser(workspace.getId(), Role.ADMIN, admin);
            var key = apiKeys.issue(user.getId(), "first admin key", null);
            em.flush(); // a slug or username taken by a concurrent request fails here, as a conflict
            changes.fire(AdminChange.by(caller, workspace.getId(), AdminChange.WORKSPACE, workspace.getSlug(), AdminChange.CREATE, null,
                    JsonSupport.JSON.createObjectBuilder(AdminSnapshots.of(workspace)).add("admin", user.getUsername()).build()));
            return new Created(workspace, workspaces.roles(workspace.getId()), user, key.plaintext());
        } catch (PersistenceException e) {
            throw new ConflictException("Workspace slug '" + draft.slug() + "' or username '" + admin.username()
                    + "' was just taken by another request");
        }
    }

    /** Changes a workspace; empty when no workspace has this slug. */
    public Optional<Workspace> update(Caller caller, String slug, WorkspaceChange change) {
        String name = change.name() == null ? null : requireName(change.name());
        return workspaces.findWorkspace(slug).map(workspace -> {
            var before = AdminSnapshots.of(workspace);
            if (name != null) {
                workspace.setName(name);
            }
            if (change.enabled() != null) {
                workspace.setEnabled(change.enabled()); // AccessChanges drops this node's cached keys at once
            }
            changes.fire(AdminChange.by(caller, workspace.getId(), AdminChange.WORKSPACE, workspace.getSlug(),
                    AdminChange.enabledAction(before.getBoolean("enabled"), workspace.isEnabled()), before, AdminSnapshots.of(workspace)));
            return workspace;
        });
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank() || name.strip().length() > MAX_NAME) {
            throw new IllegalArgumentException("A workspace name of 1 to " + MAX_NAME + " characters is required");
        }
        return name.strip();
    }
}
