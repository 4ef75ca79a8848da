package dev.amcp.gateway.governance.entity;

import dev.amcp.gateway.platform.control.StringSetConverter;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/** A workspace role: a set of capabilities and the MCP servers it may use. */
@Entity
@Table(name = "roles")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = Role.BY_NAME, query = "select r from Role r where r.workspaceId = :workspaceId and r.name = :name")
@NamedQuery(name = Role.BY_WORKSPACE, query = "select r from Role r where r.workspaceId = :workspaceId order by r.name")
public class Role {

    public static final String BY_NAME = "Role.byName";
    public static final String BY_WORKSPACE = "Role.byWorkspace";
    /** A role's name: what {@code /api/roles/{name}} accepts. */
    public static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");

    /** Built-in role names, created with every workspace. */
    public static final String ADMIN = "admin";
    public static final String MEMBER = "member";
    public static final String VIEWER = "viewer";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(nullable = false)
    private String name;

    private boolean builtin;

    @Convert(converter = StringSetConverter.class)
    @Column(nullable = false)
    private Set<String> capabilities = new TreeSet<>();

    @Column(name = "all_servers")
    private boolean allServers = true;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "role_servers", joinColumns = @JoinColumn(name = "role_id"))
    @Column(name = "server_id")
    private Set<Long> serverIds = new HashSet<>();

    /** Code tools that follow their caller's role ({@code approval: "role"}) pause at a write for a human's approval. */
    @Column(name = "approve_writes")
    private boolean approveWrites;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected Role() {}

    public Role(Long workspaceId, String name, boolean builtin, Set<String> capabilities) {
        this.workspaceId = workspaceId;
        this.name = name;
        this.builtin = builtin;
        this.capabilities = new TreeSet<>(capabilities);
    }

    public RoleGrant toGrant() {
        return new RoleGrant(id, name, Set.copyOf(capabilities), allServers, Set.copyOf(serverIds));
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getName() { return name; }
    public boolean isBuiltin() { return builtin; }
    public Set<String> getCapabilities() { return capabilities; }
    public void setCapabilities(Set<String> capabilities) { this.capabilities = new TreeSet<>(capabilities); }
    public boolean isAllServers() { return allServers; }
    public void setAllServers(boolean allServers) { this.allServers = allServers; }
    public Set<Long> getServerIds() { return serverIds; }
    public void setServerIds(Set<Long> serverIds) { this.serverIds = new HashSet<>(serverIds); }
    public Instant getCreatedAt() { return createdAt; }
    public boolean isApproveWrites() { return approveWrites; }
    public void setApproveWrites(boolean approveWrites) { this.approveWrites = approveWrites; }
}
