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

/** An API key. Only the SHA-256 of the key is stored; the key itself is shown once, when it is created. */
@Entity
@Table(name = "api_keys")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = ApiKey.BY_HASH, query = "select k from ApiKey k where k.keyHash = :hash")
@NamedQuery(name = ApiKey.TOUCH, query = "update ApiKey k set k.lastUsedAt = :now where k.id = :id")
@NamedQuery(name = ApiKey.REVOKE_ALL_OF_USER, query = "update ApiKey k set k.revokedAt = :now where k.userId = :userId and k.revokedAt is null")
@NamedQuery(name = ApiKey.BY_USER, query = "select k from ApiKey k where k.userId = :userId order by k.createdAt desc")
@NamedQuery(name = ApiKey.BY_WORKSPACE, query = "select k from ApiKey k where k.workspaceId = :workspaceId order by k.createdAt desc")
public class ApiKey {

    public static final String BY_HASH = "ApiKey.byHash";
    public static final String BY_WORKSPACE = "ApiKey.byWorkspace";
    public static final String TOUCH = "ApiKey.touch";
    public static final String REVOKE_ALL_OF_USER = "ApiKey.revokeAllOfUser";
    public static final String BY_USER = "ApiKey.byUser";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    /** {@code null} for an operator's key. */
    @Column(name = "workspace_id")
    private Long workspaceId;

    @Column(name = "user_id", nullable = false)
    private Long userId;

    /** A narrower role for this key; {@code null} means the user's own role. */
    @Column(name = "role_id")
    private Long roleId;

    @Column(nullable = false)
    private String name;

    @Column(name = "key_prefix", nullable = false)
    private String keyPrefix;

    @Column(name = "key_hash", nullable = false, unique = true)
    private String keyHash;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt = Instant.now();

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    @Column(name = "expires_at")
    private Instant expiresAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    protected ApiKey() {}

    public ApiKey(Long workspaceId, Long userId, Long roleId, String name, String keyPrefix, String keyHash) {
        this.workspaceId = workspaceId;
        this.userId = userId;
        this.roleId = roleId;
        this.name = name;
        this.keyPrefix = keyPrefix;
        this.keyHash = keyHash;
    }

    public boolean isUsableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getUserId() { return userId; }
    public Long getRoleId() { return roleId; }
    public String getName() { return name; }
    public String getKeyPrefix() { return keyPrefix; }
    public String getKeyHash() { return keyHash; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getLastUsedAt() { return lastUsedAt; }
    public Instant getExpiresAt() { return expiresAt; }
    public void setExpiresAt(Instant expiresAt) { this.expiresAt = expiresAt; }
    public Instant getRevokedAt() { return revokedAt; }
    public void revoke(Instant at) { this.revokedAt = at; }
}
