package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.RoleDraft;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A workspace admin's roles: the built-in admin, member and viewer, which can be given other capabilities (such as
 * {@code inlineCode}) and re-scoped to servers but never deleted, and custom roles. A role is deleted only while
 * nobody holds it and no live key is narrowed to it; no change may leave the workspace without an enabled admin.
 */
@ApplicationScoped
@Transactional
@RequiresCapability(Capability.ADMIN)
public class RoleAdministration {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Event<AdminChange> changes;

    /** A role with the slugs of its servers ({@code null}: all) and how many people hold it. */
    public record RoleRow(Role role, List<String> servers, long holders) {}

    public List<RoleRow> list(Caller caller) {
        Map<Long, String> slugs = slugs(caller);
        return workspaces.roles(caller.workspaceId()).stream().map(r -> row(r, slugs)).toList();
    }

    public RoleRow create(Caller caller, RoleDraft draft) {
        if (draft.name() == null || !Role.NAME.matcher(draft.name()).matches()) {
            throw new InvalidInputException(Message.of("problem.role.name",
                    "A role name is 1 to 64 lower-case letters, digits, ''.'', ''_'' or ''-'', starting with a letter or digit"));
        }
        if (find(caller, draft.name()).isPresent()) {
            throw new ConflictException(Message.of("problem.role.taken", "Role ''{0}'' already exists in this workspace", draft.name()));
        }
        Set<String> capabilities = WorkspaceService.checkCapabilities(draft.capabilities() == null ? Set.of() : draft.capabilities());
        Set<Long> servers = serverIds(caller, draft);
        Role role = new Role(caller.workspaceId(), draft.name(), false, capabilities);
        role.setAllServers(draft.allServers());
        role.setServerIds(servers);
        role.setApproveWrites(Boolean.TRUE.equals(draft.approveWrites()));
        em.persist(role);
        em.flush();
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.ROLE, role.getName(), AdminChange.CREATE, null, AdminSnapshots.of(role)));
        return row(role, slugs(caller));
    }

    /** Changes a role's capabilities and server scope; empty when the workspace has no role of this name. */
    public Optional<RoleRow> update(Caller caller, String name, RoleDraft draft) {
        Optional<Role> found = find(caller, name);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Role role = found.get();
        var before = AdminSnapshots.of(role);
        if (draft.capabilities() != null) {
            role.setCapabilities(WorkspaceService.checkCapabilities(draft.capabilities()));
        }
        if (draft.allServers() || draft.serverSlugs() != null) {
            Set<Long> servers = serverIds(caller, draft);
            role.setAllServers(draft.allServers());
            role.setServerIds(servers);
        }
        if (draft.approveWrites() != null) {
            role.setApproveWrites(draft.approveWrites());
        }
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.ROLE, role.getName(), AdminChange.UPDATE, before, AdminSnapshots.of(role)));
        em.flush();
        workspaces.requireAnEnabledAdmin(caller.workspaceId()); // a refusal rolls the audit row back with the change
        return Optional.of(row(role, slugs(caller)));
    }

    /** Deletes a custom role nobody holds; false when the workspace has no role of this name. */
    public boolean delete(Caller caller, String name) {
        Optional<Role> found = find(caller, name);
        if (found.isEmpty()) {
            return false;
        }
        Role role = found.get();
        if (role.isBuiltin()) {
            throw new ConflictException(Message.of("problem.role.builtin",
                    "Built-in role ''{0}'' cannot be deleted; change its capabilities or servers instead", name));
        }
        long holders = holders(role);
        if (holders > 0) {
            throw new ConflictException(Message.of("problem.role.held", "Role ''{0}'' is held by {1} user(s); give them another role first", name, holders));
        }
        long keys = em.createQuery("select count(k) from ApiKey k where k.roleId = :roleId and k.revokedAt is null", Long.class)
                .setParameter("roleId", role.getId()).getSingleResult();
        if (keys > 0) {
            throw new ConflictException(Message.of("problem.role.keys", "Role ''{0}'' is the role of {1} live API key(s); revoke them first", name, keys));
        }
        long mappings = em.createNamedQuery(dev.amcp.gateway.workspace.entity.SsoRoleMapping.COUNT_BY_ROLE, Long.class)
                .setParameter("roleId", role.getId()).getSingleResult();
        if (mappings > 0) {
            throw new ConflictException("Role '" + name + "' is the role of " + mappings + " single sign-on mapping(s); delete or change them first");
        }
        // revoked keys that named the role keep their row for the record, without it
        em.createQuery("update ApiKey k set k.roleId = null where k.roleId = :roleId").setParameter("roleId", role.getId()).executeUpdate();
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.ROLE, role.getName(), AdminChange.DELETE, AdminSnapshots.of(role), null));
        em.remove(role);
        return true;
    }

    private Optional<Role> find(Caller caller, String name) {
        return em.createNamedQuery(Role.BY_NAME, Role.class).setParameter("workspaceId", caller.workspaceId())
                .setParameter("name", name).getResultStream().findFirst();
    }

    private long holders(Role role) {
        return em.createQuery("select count(u) from UserAccount u where u.roleId = :roleId", Long.class)
                .setParameter("roleId", role.getId()).getSingleResult();
    }

    private Set<Long> serverIds(Caller caller, RoleDraft draft) {
        if (draft.allServers() || draft.serverSlugs() == null) {
            return Set.of();
        }
        Set<Long> ids = new HashSet<>();
        for (String slug : draft.serverSlugs()) {
            ids.add(workspaces.findServer(caller.workspaceId(), slug).map(McpServerConfig::getId)
                    .orElseThrow(() -> new InvalidInputException(Message.of("problem.role.noServer", "No server ''{0}'' in this workspace", slug))));
        }
        return ids;
    }

    private Map<Long, String> slugs(Caller caller) {
        return workspaces.servers(caller.workspaceId()).stream().collect(Collectors.toMap(McpServerConfig::getId, McpServerConfig::getSlug));
    }

    private RoleRow row(Role role, Map<Long, String> slugs) {
        List<String> servers = role.isAllServers() ? null : role.getServerIds().stream().map(slugs::get).sorted().toList();
        return new RoleRow(role, servers, holders(role));
    }
}
