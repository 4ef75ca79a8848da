package dev.amcp.gateway.upstreams.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;

/**
 * One person's account at one per-person upstream MCP server: the access and refresh tokens, sealed together under a
 * data key and bound to this server and person, so the table holds no token in clear and a ciphertext copied to
 * another row opens nowhere. {@code version} orders two nodes refreshing the same account.
 */
@Entity
@Table(name = "upstream_accounts")
@NamedQuery(name = UpstreamAccount.BY_SERVER_AND_USER,
        query = "select a from UpstreamAccount a where a.upstreamServerId = :serverId and a.userId = :userId")
@NamedQuery(name = UpstreamAccount.BY_SERVER, query = "select a from UpstreamAccount a where a.upstreamServerId = :serverId order by a.connectedAt")
@NamedQuery(name = UpstreamAccount.BY_USER, query = "select a from UpstreamAccount a where a.userId = :userId")
public class UpstreamAccount {

    public static final String BY_SERVER_AND_USER = "UpstreamAccount.byServerAndUser";
    public static final String BY_SERVER = "UpstreamAccount.byServer";
    public static final String BY_USER = "UpstreamAccount.byUser";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "upstream_server_id", nullable = false)
    private Long upstreamServerId;

    @Column(name = "user_id", nullable = false)
    private Long userId;

    @Column(nullable = false)
    private String ciphertext;

    @Column(name = "data_key_id", nullable = false)
    private Long dataKeyId;

    @Column(name = "expires_at")
    private Instant expiresAt;

    private String scope;

    @Column(name = "connected_at", nullable = false)
    private Instant connectedAt;

    @Column(name = "refreshed_at")
    private Instant refreshedAt;

    @Version
    private long version;

    protected UpstreamAccount() {}

    public UpstreamAccount(long upstreamServerId, long userId) {
        this.upstreamServerId = upstreamServerId;
        this.userId = userId;
        this.connectedAt = Instant.now();
    }

    /** The context the tokens are sealed for: this server and this person. */
    public static String sealContext(long upstreamServerId, long userId) {
        return "upstream account|upstream server " + upstreamServerId + "|user " + userId;
    }

    /** New tokens: sealed, with when the access token expires (null: the server did not say). */
    public void setTokens(long dataKeyId, String ciphertext, Instant expiresAt, String scope, boolean refreshed) {
        this.dataKeyId = dataKeyId;
        this.ciphertext = ciphertext;
        this.expiresAt = expiresAt;
        this.scope = scope;
        if (refreshed) {
            this.refreshedAt = Instant.now();
        } else {
            this.connectedAt = Instant.now();
            this.refreshedAt = null;
        }
    }

    public Long getId() { return id; }
    public Long getUpstreamServerId() { return upstreamServerId; }
    public Long getUserId() { return userId; }
    public String getCiphertext() { return ciphertext; }
    public Long getDataKeyId() { return dataKeyId; }
    public Instant getExpiresAt() { return expiresAt; }
    public String getScope() { return scope; }
    public Instant getConnectedAt() { return connectedAt; }
    public Instant getRefreshedAt() { return refreshedAt; }
    public long getVersion() { return version; }
}
