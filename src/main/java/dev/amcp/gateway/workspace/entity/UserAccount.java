package dev.amcp.gateway.workspace.entity;

import dev.amcp.gateway.governance.entity.AccessChanges;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/** A person in one workspace, holding one role. The password hash is PBKDF2 (Jakarta Security's format). */
@Entity
@Table(name = "users")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = UserAccount.BY_USERNAME, query = "select u from UserAccount u where u.username = :username")
public class UserAccount {

    public static final String BY_USERNAME = "UserAccount.byUsername";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(nullable = false, unique = true)
    private String username;

    @Column(name = "display_name")
    private String displayName;

    @Column(name = "password_hash")
    private String passwordHash;

    @Column(name = "role_id", nullable = false)
    private Long roleId;

    private boolean enabled = true;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected UserAccount() {}

    public UserAccount(Long workspaceId, String username, String displayName, Long roleId) {
        this.workspaceId = workspaceId;
        this.username = username;
        this.displayName = displayName;
        this.roleId = roleId;
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getUsername() { return username; }
    public String getDisplayName() { return displayName; }
    public String getPasswordHash() { return passwordHash; }
    public void setPasswordHash(String passwordHash) { this.passwordHash = passwordHash; }
    public Long getRoleId() { return roleId; }
    public void setRoleId(Long roleId) { this.roleId = roleId; }
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public Instant getCreatedAt() { return createdAt; }
}
