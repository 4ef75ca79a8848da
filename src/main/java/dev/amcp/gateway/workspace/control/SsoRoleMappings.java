package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.workspace.entity.SsoRoleMapping;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A workspace admin's single sign-on mapping: which values of the role claim (groups, by default) give which role of
 * the workspace to people signing in with the identity provider ({@link SsoAccounts} applies it). A value is mapped at
 * most once per workspace.
 */
@ApplicationScoped
@Transactional
@RequiresCapability(Capability.ADMIN)
public class SsoRoleMappings {

    /** The longest claim value a mapping holds. */
    public static final int MAX_VALUE = 200;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Event<AdminChange> changes;

    /** A mapping row with the name of its role. */
    public record MappingRow(long id, String claimValue, String role) {}

    public List<MappingRow> list(Caller caller) {
        Map<Long, Role> roles = workspaces.roles(caller.workspaceId()).stream().collect(Collectors.toMap(Role::getId, Function.identity()));
        return em.createNamedQuery(SsoRoleMapping.BY_WORKSPACE, SsoRoleMapping.class).setParameter("workspaceId", caller.workspaceId())
                .getResultStream().map(m -> new MappingRow(m.getId(), m.getClaimValue(), roles.get(m.getRoleId()).getName())).toList();
    }

    /** Maps a claim value to a role of the caller's workspace; 400 for a bad value or role, 409 when the value is mapped. */
    public MappingRow create(Caller caller, String claimValue, String roleName) {
        if (claimValue == null || claimValue.isBlank() || claimValue.strip().length() > MAX_VALUE) {
            throw new IllegalArgumentException("A claim value of 1 to " + MAX_VALUE + " characters is required");
        }
        String value = claimValue.strip();
        Role role = roleNamed(caller, roleName);
        boolean mapped = list(caller).stream().anyMatch(m -> m.claimValue().equals(value));
        if (mapped) {
            throw new ConflictException("'" + value + "' is already mapped in this workspace; delete that mapping first");
        }
        SsoRoleMapping mapping = new SsoRoleMapping(caller.workspaceId(), value, role.getId());
        em.persist(mapping);
        em.flush();
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.SSO_MAPPING, value, AdminChange.CREATE, null, snapshot(value, role)));
        return new MappingRow(mapping.getId(), value, role.getName());
    }

    /** Deletes a mapping of the caller's workspace; false when it has none with this id. People keep their accounts. */
    public boolean delete(Caller caller, long id) {
        SsoRoleMapping mapping = em.find(SsoRoleMapping.class, id);
        if (mapping == null || mapping.getWorkspaceId() != caller.workspaceId()) {
            return false;
        }
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.SSO_MAPPING, mapping.getClaimValue(), AdminChange.DELETE,
                snapshot(mapping.getClaimValue(), em.find(Role.class, mapping.getRoleId())), null));
        em.remove(mapping);
        return true;
    }

    private Role roleNamed(Caller caller, String name) {
        List<Role> roles = workspaces.roles(caller.workspaceId());
        return roles.stream().filter(r -> r.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException((name == null ? "A role is required" : "No role '" + name + "' in this workspace")
                        + "; roles: " + roles.stream().map(Role::getName).toList()));
    }

    private static JsonObject snapshot(String value, Role role) {
        return JsonSupport.JSON.createObjectBuilder().add("claimValue", value).add("role", role.getName()).build();
    }
}
