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

/**
 * A person: either in one workspace, holding one role, or an operator of the instance, in no workspace and with no
 * role (the database's {@code ck_users_level} keeps the two apart). The password hash is PBKDF2 (Jakarta Security's
 * format).
 */
@Entity
@Table(name = "users")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = UserAccount.BY_USERNAME, query = "select u from UserAccount u where u.username = :username")
@NamedQuery(name = UserAccount.BY_WORKSPACE, query = "select u from UserAccount u where u.workspaceId = :workspaceId order by u.username")
@NamedQuery(name = UserAccount.OPERATOR_COUNT, query = "select count(u) from UserAccount u where u.operator = true")
@NamedQuery(name = UserAccount.BY_SSO, query = "select u from UserAccount u where u.ssoIssuer = :issuer and u.ssoSubject = :subject")
public class UserAccount {

    public static final String BY_USERNAME = "UserAccount.byUsername";
    public static final String OPERATOR_COUNT = "UserAccount.operatorCount";
    public static final String BY_WORKSPACE = "UserAccount.byWorkspace";
    public static final String BY_SSO = "UserAccount.bySso";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    /** {@code null} for an operator. */
    @Column(name = "workspace_id")
    private Long workspaceId;

    @Column(nullable = false, unique = true)
    private String username;

    @Column(name = "display_name")
    private String displayName;

    private String email;

    @Column(name = "password_hash")
    private String passwordHash;

    /** {@code null} for an operator. */
    @Column(name = "role_id")
    private Long roleId;

    @Column(name = "is_operator", nullable = false)
    private boolean operator;

    private boolean enabled = true;

    /** The OpenID provider and its subject for a person provisioned by single sign-on; {@code null} otherwise. */
    @Column(name = "sso_issuer")
    private String ssoIssuer;

    @Column(name = "sso_subject")
    private String ssoSubject;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected UserAccount() {}

    public UserAccount(Long workspaceId, String username, String displayName, Long roleId) {
        this.workspaceId = workspaceId;
        this.username = username;
        this.displayName = displayName;
        this.roleId = roleId;
    }

    /** An operator of the instance, outside every workspace. */
    public static UserAccount operator(String username, String displayName) {
        UserAccount user = new UserAccount(null, username, displayName, null);
        user.operator = true;
        return user;
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getUsername() { return username; }
    public String getDisplayName() { return displayName; }
    public String getEmail() { return email; }
    public void setEmail(String email) { this.email = email; }
    public String getPasswordHash() { return passwordHash; }
    public void setPasswordHash(String passwordHash) { this.passwordHash = passwordHash; }
    public Long getRoleId() { return roleId; }
    public void setRoleId(Long roleId) { this.roleId = roleId; }
    public boolean isOperator() { return operator; }
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public Instant getCreatedAt() { return createdAt; }
    public String getSsoIssuer() { return ssoIssuer; }
    public String getSsoSubject() { return ssoSubject; }

    /** Links the account to an OpenID provider's account, for good. */
    public void linkSso(String issuer, String subject) {
        this.ssoIssuer = issuer;
        this.ssoSubject = subject;
    }
}
