package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Creates and finds workspaces, their built-in roles, users and MCP servers. */
@ApplicationScoped
@Transactional
public class WorkspaceService {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Pbkdf2PasswordHash passwordHash;

    /** Creates a workspace with its three built-in roles: admin (everything but inlineCode), member, viewer. */
    public Workspace createWorkspace(String slug, String name) {
        requireSlug(slug, "Workspace slug");
        if (findWorkspace(slug).isPresent()) {
            throw new IllegalArgumentException("Workspace slug '" + slug + "' is already taken");
        }
        Workspace workspace = new Workspace(slug, name);
        em.persist(workspace);
        em.flush();
        em.persist(new Role(workspace.getId(), Role.ADMIN, true, Set.of(Capability.ADMIN, Capability.TOOLS_WRITE)));
        em.persist(new Role(workspace.getId(), Role.MEMBER, true, Set.of(Capability.TOOLS_WRITE)));
        em.persist(new Role(workspace.getId(), Role.VIEWER, true, Set.of()));
        return workspace;
    }

    public Optional<Workspace> findWorkspace(String slug) {
        return em.createNamedQuery(Workspace.BY_SLUG, Workspace.class).setParameter("slug", slug)
                .getResultStream().findFirst();
    }

    public long workspaceCount() {
        return em.createNamedQuery(Workspace.COUNT, Long.class).getSingleResult();
    }

    public Role role(long workspaceId, String name) {
        return em.createNamedQuery(Role.BY_NAME, Role.class).setParameter("workspaceId", workspaceId)
                .setParameter("name", name).getResultStream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No role '" + name + "' in this workspace"));
    }

    public List<Role> roles(long workspaceId) {
        return em.createNamedQuery(Role.BY_WORKSPACE, Role.class).setParameter("workspaceId", workspaceId).getResultList();
    }

    public Role findRole(long roleId) {
        return em.find(Role.class, roleId);
    }

    public Role updateRole(long roleId, Set<String> capabilities, boolean allServers, Set<Long> serverIds) {
        Role role = em.find(Role.class, roleId);
        Set<String> unknown = new java.util.TreeSet<>(capabilities);
        unknown.removeAll(Capability.ALL);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown capabilities " + unknown + "; known: " + new java.util.TreeSet<>(Capability.ALL));
        }
        for (Long serverId : serverIds) {
            McpServerConfig server = em.find(McpServerConfig.class, serverId);
            if (server == null || !server.getWorkspaceId().equals(role.getWorkspaceId())) {
                throw new IllegalArgumentException("Server " + serverId + " is not a server of this workspace");
            }
        }
        role.setCapabilities(capabilities);
        role.setAllServers(allServers);
        role.setServerIds(serverIds);
        return role;
    }

    public UserAccount createUser(long workspaceId, String username, String displayName, String roleName, String password) {
        if (username == null || !username.matches("[A-Za-z0-9._@-]{2,100}")) {
            throw new IllegalArgumentException("Username must be 2 to 100 letters, digits or . _ @ -");
        }
        if (em.createNamedQuery(UserAccount.BY_USERNAME, UserAccount.class).setParameter("username", username)
                .getResultStream().findAny().isPresent()) {
            throw new IllegalArgumentException("Username '" + username + "' is already taken");
        }
        UserAccount user = new UserAccount(workspaceId, username, displayName, role(workspaceId, roleName).getId());
        if (password != null) {
            if (password.length() < 8) {
                throw new IllegalArgumentException("Password must have at least 8 characters");
            }
            user.setPasswordHash(passwordHash.generate(password.toCharArray()));
        }
        em.persist(user);
        return user;
    }

    public McpServerConfig createServer(long workspaceId, String slug, String name, String description) {
        requireSlug(slug, "Server slug");
        if (findServer(workspaceId, slug).isPresent()) {
            throw new IllegalArgumentException("Server slug '" + slug + "' is already used in this workspace");
        }
        McpServerConfig server = new McpServerConfig(workspaceId, slug, name, description);
        em.persist(server);
        return server;
    }

    public McpServerConfig setCodeMode(long serverId, McpServerConfig.CodeMode mode) {
        McpServerConfig server = em.find(McpServerConfig.class, serverId);
        server.setCodeMode(mode);
        return server;
    }

    public Optional<McpServerConfig> findServer(long workspaceId, String slug) {
        return em.createNamedQuery(McpServerConfig.BY_SLUG, McpServerConfig.class)
                .setParameter("workspaceId", workspaceId).setParameter("slug", slug).getResultStream().findFirst();
    }

    public McpServerConfig server(long serverId) {
        return em.find(McpServerConfig.class, serverId);
    }

    public List<McpServerConfig> servers(long workspaceId) {
        return em.createNamedQuery(McpServerConfig.BY_WORKSPACE, McpServerConfig.class)
                .setParameter("workspaceId", workspaceId).getResultList();
    }

    static void requireSlug(String slug, String what) {
        if (slug == null || !SLUG.matcher(slug).matches()) {
            throw new IllegalArgumentException(what + " must be 1 to 63 lower-case letters, digits, '-' or '_', starting with a letter or digit");
        }
    }
}
