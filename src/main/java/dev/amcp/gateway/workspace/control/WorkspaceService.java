package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.control.WorkspaceIds;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.ServerDraft;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;
import jakarta.transaction.Transactional;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Creates and finds workspaces, their built-in roles, users and MCP servers. */
@ApplicationScoped
@Transactional
public class WorkspaceService implements WorkspaceIds {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");
    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._@-]{2,100}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final int MIN_PASSWORD = 8;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Pbkdf2PasswordHash passwordHash;

    @Inject
    Event<AdminChange> changes;

    /** A hash no password matches, checked against for unknown user names. */
    private volatile String unknownUserHash;

    /** Creates a workspace with its three built-in roles: admin (everything but inlineCode), member, viewer. */
    public Workspace createWorkspace(String slug, String name) {
        requireSlug(slug, "Workspace slug");
        if (findWorkspace(slug).isPresent()) {
            throw new ConflictException("Workspace slug '" + slug + "' is already taken");
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

    @Override
    public Optional<Long> idOf(String slug) {
        return findWorkspace(slug).map(Workspace::getId);
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
        checkCapabilities(capabilities);
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

    /** Refuses capability strings the gateway does not know; answers the set as given. */
    public static Set<String> checkCapabilities(Set<String> capabilities) {
        Set<String> unknown = new java.util.TreeSet<>(capabilities);
        unknown.removeAll(Capability.ALL);
        if (!unknown.isEmpty()) {
            throw new InvalidInputException(Message.of("problem.role.capabilities", "Unknown capabilities {0}; known: {1}", unknown,
                    new java.util.TreeSet<>(Capability.ALL)));
        }
        return capabilities;
    }

    public UserAccount createUser(long workspaceId, String username, String displayName, String roleName, String password) {
        checkNewAccount(username, password, null);
        UserAccount user = new UserAccount(workspaceId, username, displayName, role(workspaceId, roleName).getId());
        return persistAccount(user, password, null);
    }

    /** Creates a member of a workspace from an account draft, with the given role. */
    public UserAccount createUser(long workspaceId, String roleName, WorkspaceDraft.AccountDraft account) {
        checkNewAccount(account.username(), account.password(), account.email());
        String displayName = account.displayName() == null || account.displayName().isBlank() ? account.username() : account.displayName().strip();
        if (displayName.length() > 200) {
            throw new InvalidInputException(Message.of("problem.user.displayName", "A display name has at most 200 characters"));
        }
        UserAccount user = new UserAccount(workspaceId, account.username(), displayName, role(workspaceId, roleName).getId());
        return persistAccount(user, account.password(), account.email());
    }

    /**
     * Refuses (409) a change that left the workspace without an enabled user whose role holds {@code admin}; the
     * caller's transaction then rolls the change back. Call it after the change is flushed.
     */
    public void requireAnEnabledAdmin(long workspaceId) {
        Map<Long, Role> roles = new java.util.HashMap<>();
        roles(workspaceId).forEach(r -> roles.put(r.getId(), r));
        boolean anAdminLeft = em.createNamedQuery(UserAccount.BY_WORKSPACE, UserAccount.class).setParameter("workspaceId", workspaceId)
                .getResultStream().anyMatch(u -> u.isEnabled() && roles.get(u.getRoleId()).getCapabilities().contains(Capability.ADMIN));
        if (!anAdminLeft) {
            throw new ConflictException(Message.of("problem.lastAdmin",
                    "That would leave the workspace without an enabled admin; make someone else admin first"));
        }
    }

    /** A person of the workspace by username; a user of another workspace, or an operator, reads as missing. */
    public Optional<UserAccount> findMember(long workspaceId, String username) {
        return em.createNamedQuery(UserAccount.BY_USERNAME, UserAccount.class).setParameter("username", username).getResultStream()
                .filter(u -> !u.isOperator() && u.getWorkspaceId() == workspaceId).findFirst();
    }

    /** Creates an operator of the instance: an account outside every workspace, with no workspace role. */
    public UserAccount createOperator(String username, String password) {
        checkNewAccount(username, password, null);
        return persistAccount(UserAccount.operator(username, username), password, null);
    }

    /**
     * Checks a new account before anything is written: the username's form and that it is free (usernames are unique
     * across the instance), the password's length when one is given, the email's form when one is given.
     */
    public void checkNewAccount(String username, String password, String email) {
        if (!isUsername(username)) {
            throw new InvalidInputException(Message.of("problem.user.username", "Username must be 2 to 100 letters, digits or . _ @ -"));
        }
        if (usernameTaken(username)) {
            throw new ConflictException(Message.of("problem.user.taken", "Username ''{0}'' is already taken", username));
        }
        checkPassword(password);
        if (email != null && (email.length() > 320 || !EMAIL.matcher(email).matches())) {
            throw new InvalidInputException(Message.of("problem.user.email", "Email must look like name@domain and have at most 320 characters"));
        }
    }

    /** Whether a user name has the form {@link #checkNewAccount} accepts (2 to 100 letters, digits or {@code . _ @ -}). */
    public static boolean isUsername(String username) {
        return username != null && USERNAME.matcher(username).matches();
    }

    /** Whether an account (of any workspace, or an operator) has this user name. */
    public boolean usernameTaken(String username) {
        return em.createNamedQuery(UserAccount.BY_USERNAME, UserAccount.class).setParameter("username", username)
                .getResultStream().findAny().isPresent();
    }

    /** Refuses a password shorter than 8 characters; {@code null} (no password) passes. */
    public static void checkPassword(String password) {
        if (password != null && password.length() < MIN_PASSWORD) {
            throw new InvalidInputException(Message.of("problem.user.password", "Password must have at least {0} characters", MIN_PASSWORD));
        }
    }

    /** Sets a checked password, stored as a PBKDF2 hash. */
    public void setPassword(UserAccount user, String password) {
        checkPassword(password);
        user.setPasswordHash(passwordHash.generate(password.toCharArray()));
    }

    private UserAccount persistAccount(UserAccount user, String password, String email) {
        if (password != null) {
            setPassword(user, password);
        }
        user.setEmail(email);
        em.persist(user);
        em.flush(); // the id, for the keys that callers issue next
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

    /** Field problems of a server draft, keyed by field name ({@code slug}, {@code name}, {@code codeMode}, {@code roles}). */
    public static class InvalidServerException extends IllegalArgumentException {
        private final transient Map<String, Message> problems;

        public InvalidServerException(Map<String, Message> problems) {
            super("The server is not valid: " + problems);
            this.problems = Map.copyOf(problems);
        }

        public Map<String, Message> problems() {
            return problems;
        }
    }

    /**
     * The caller a signed-in person acts as in the web editor: their workspace, their user and their role, with no
     * narrowing scope, or an operator. Empty for an unknown or disabled user or a user of a disabled workspace.
     */
    public Optional<Caller> callerForUser(String username) {
        if (username == null) {
            return Optional.empty();
        }
        return em.createNamedQuery(UserAccount.BY_USERNAME, UserAccount.class).setParameter("username", username)
                .getResultStream().findFirst().flatMap(user -> AccountCallers.of(em, user, null));
    }

    /**
     * The account a password signs in to: an enabled user with that name and password, or empty. Unknown names cost
     * the same hash as known ones, so the answer's time does not tell which names exist.
     */
    public Optional<String> passwordSignIn(String username, String password) {
        if (username == null || password == null || username.isBlank()) {
            return Optional.empty();
        }
        UserAccount user = em.createNamedQuery(UserAccount.BY_USERNAME, UserAccount.class).setParameter("username", username.strip())
                .getResultStream().findFirst().filter(u -> u.isEnabled() && u.getPasswordHash() != null).orElse(null);
        boolean matches = passwordHash.verify(password.toCharArray(), user == null ? unknownUserHash() : user.getPasswordHash());
        return user != null && matches ? Optional.of(user.getUsername()) : Optional.empty();
    }

    private String unknownUserHash() {
        String hash = unknownUserHash;
        if (hash == null) {
            unknownUserHash = hash = passwordHash.generate(java.util.UUID.randomUUID().toString().toCharArray());
        }
        return hash;
    }

    /** User names of a workspace by id, for showing who owns what. */
    public Map<Long, String> usernames(long workspaceId) {
        Map<Long, String> names = new TreeMap<>();
        em.createQuery("select u from UserAccount u where u.workspaceId = :workspaceId", UserAccount.class)
                .setParameter("workspaceId", workspaceId).getResultList()
                .forEach(u -> names.put(u.getId(), u.getUsername()));
        return names;
    }

    /** The roles of the workspace that may use a server (every role with all servers, plus those listing it). */
    public Set<Long> rolesUsing(long workspaceId, long serverId) {
        Set<Long> ids = new HashSet<>();
        for (Role role : roles(workspaceId)) {
            if (role.isAllServers() || role.getServerIds().contains(serverId)) {
                ids.add(role.getId());
            }
        }
        return ids;
    }

    /** Creates a server and says which roles may use it; every field is checked first, nothing is half-written. */
    @RequiresCapability(Capability.ADMIN)
    public McpServerConfig createServer(Caller caller, ServerDraft draft) {
        McpServerConfig.CodeMode mode = checkServerDraft(caller, draft, null);
        McpServerConfig server = new McpServerConfig(caller.workspaceId(), draft.slug(), draft.name().strip(), blankToNull(draft.description()));
        server.setCodeMode(mode);
        em.persist(server);
        em.flush();
        applyRoles(caller.workspaceId(), server.getId(), draft.roleIds());
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.SERVER, server.getSlug(), AdminChange.CREATE, null, serverSnapshot(server)));
        return server;
    }

    /** Changes a server of the caller's workspace, with the same checks as {@link #createServer(Caller, ServerDraft)}. */
    @RequiresCapability(Capability.ADMIN)
    public McpServerConfig updateServer(Caller caller, long serverId, ServerDraft draft) {
        McpServerConfig server = serverInWorkspace(caller, serverId);
        McpServerConfig.CodeMode mode = checkServerDraft(caller, draft, server);
        var before = serverSnapshot(server);
        server.setSlug(draft.slug());
        server.setName(draft.name().strip());
        server.setDescription(blankToNull(draft.description()));
        server.setCodeMode(mode);
        applyRoles(caller.workspaceId(), server.getId(), draft.roleIds());
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.SERVER, server.getSlug(), AdminChange.UPDATE, before, serverSnapshot(server)));
        return server;
    }

    /** A server with the ids of the roles that may use it, as the audit log keeps it. */
    private JsonObject serverSnapshot(McpServerConfig server) {
        var roleIds = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(rolesUsing(server.getWorkspaceId(), server.getId())).forEach(roleIds::add);
        return JsonSupport.JSON.createObjectBuilder(AdminSnapshots.of(server)).add("roleIds", roleIds).build();
    }

    /** A server of the caller's workspace; a server of another workspace reads as missing. */
    public McpServerConfig serverInWorkspace(Caller caller, long serverId) {
        McpServerConfig server = em.find(McpServerConfig.class, serverId);
        if (server == null || server.getWorkspaceId() != caller.workspaceId()) {
            throw new IllegalArgumentException("No server " + serverId + " in this workspace");
        }
        return server;
    }

    private McpServerConfig.CodeMode checkServerDraft(Caller caller, ServerDraft draft, McpServerConfig existing) {
        Map<String, Message> problems = new LinkedHashMap<>();
        if (draft.slug() == null || !SLUG.matcher(draft.slug()).matches()) {
            problems.put("slug", Message.of("problem.server.slug",
                    "Use 1 to 63 lower-case letters, digits, ''-'' or ''_'', starting with a letter or digit"));
        } else {
            findServer(caller.workspaceId(), draft.slug()).filter(s -> existing == null || !s.getId().equals(existing.getId()))
                    .ifPresent(s -> problems.put("slug", Message.of("problem.server.slugTaken",
                            "Server slug ''{0}'' is already used in this workspace", draft.slug())));
        }
        if (draft.name() == null || draft.name().isBlank() || draft.name().strip().length() > 200) {
            problems.put("name", Message.of("problem.server.name", "A name of 1 to 200 characters is required"));
        }
        if (draft.description() != null && draft.description().length() > 2000) {
            problems.put("description", Message.of("problem.server.description", "At most 2000 characters"));
        }
        McpServerConfig.CodeMode mode = null;
        try {
            mode = McpServerConfig.CodeMode.valueOf(String.valueOf(draft.codeMode()).toUpperCase());
        } catch (IllegalArgumentException e) {
            problems.put("codeMode", Message.of("problem.server.codeMode", "Code mode is ''off'' or ''inline''"));
        }
        Set<Long> known = new HashSet<>();
        roles(caller.workspaceId()).forEach(r -> known.add(r.getId()));
        if (!known.containsAll(draft.roleIds())) {
            problems.put("roles", Message.of("problem.server.roles", "Choose roles of this workspace"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidServerException(problems);
        }
        return mode;
    }

    /**
     * Makes exactly the chosen roles able to use the server. A role that may use all servers and is not chosen
     * keeps every other server of the workspace, listed one by one.
     */
    private void applyRoles(long workspaceId, long serverId, Set<Long> chosen) {
        List<Long> allServerIds = servers(workspaceId).stream().map(McpServerConfig::getId).toList();
        for (Role role : roles(workspaceId)) {
            boolean uses = role.isAllServers() || role.getServerIds().contains(serverId);
            boolean wanted = chosen.contains(role.getId());
            if (uses == wanted) {
                continue;
            }
            Set<Long> ids = new HashSet<>(role.isAllServers() ? allServerIds : role.getServerIds());
            if (wanted) {
                ids.add(serverId);
            } else {
                ids.remove(serverId);
            }
            role.setAllServers(false);
            role.setServerIds(ids);
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    static void requireSlug(String slug, String what) {
        if (slug == null || !SLUG.matcher(slug).matches()) {
            throw new IllegalArgumentException(what + " must be 1 to 63 lower-case letters, digits, '-' or '_', starting with a letter or digit");
        }
    }
}
