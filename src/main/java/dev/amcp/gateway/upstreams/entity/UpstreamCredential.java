package dev.amcp.gateway.upstreams.entity;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * The credential of one workspace upstream: its kind, what is not secret ({@code params}: header name, user name,
 * token URL, client id, scope), and the secret only as ciphertext under a data key. Nothing here leaves
 * {@code tools/control} but the kind, the params, the fingerprint and the dates.
 */
@Entity
@EntityListeners(AccessChanges.class)
@Table(name = "upstream_credentials")
public class UpstreamCredential {

    /** A header sent as is: {@code params.header} (default Authorization), the secret its value. */
    public static final String HEADER = "header";
    /** HTTP Basic: {@code params.username}, the secret the password. */
    public static final String BASIC = "basic";
    /** OAuth client credentials: {@code params.tokenUrl}, {@code clientId}, {@code scope}; the secret the client secret. */
    public static final String OAUTH_CLIENT = "oauth_client";
    public static final java.util.List<String> KINDS = java.util.List.of(HEADER, BASIC, OAUTH_CLIENT);

    /** What a kind keeps beside its secret, in {@code params}. */
    public static java.util.List<String> paramNames(String kind) {
        return switch (kind) {
            case HEADER -> java.util.List.of("header");
            case BASIC -> java.util.List.of("username");
            default -> java.util.List.of("tokenUrl", "clientId", "scope");
        };
    }

    @Id
    @Column(name = "upstream_id")
    private Long upstreamId;

    @Column(nullable = false)
    private String kind;

    @Convert(converter = JsonObjectConverter.class)
    private JsonObject params;

    @Column(nullable = false)
    private String ciphertext;

    @Column(name = "data_key_id", nullable = false)
    private Long dataKeyId;

    @Column(nullable = false)
    private String fingerprint;

    @Column(name = "set_by", nullable = false)
    private String setBy;

    @Column(name = "set_at", nullable = false)
    private Instant setAt;

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    protected UpstreamCredential() {}

    public UpstreamCredential(long upstreamId) {
        this.upstreamId = upstreamId;
    }

    /** The context a secret is sealed for: its workspace, upstream and kind, so a ciphertext opens nowhere else. */
    public static String sealContext(long workspaceId, long upstreamId, String kind) {
        return "upstream credential|workspace " + workspaceId + "|upstream " + upstreamId + "|" + kind;
    }

    public void set(String kind, JsonObject params, long dataKeyId, String ciphertext, String fingerprint, String setBy) {
        this.kind = kind;
        this.params = params;
        this.dataKeyId = dataKeyId;
        this.ciphertext = ciphertext;
        this.fingerprint = fingerprint;
        this.setBy = setBy;
        this.setAt = Instant.now();
    }

    public Long getUpstreamId() {
        return upstreamId;
    }

    public String getKind() {
        return kind;
    }

    public JsonObject getParams() {
        return params;
    }

    public String getCiphertext() {
        return ciphertext;
    }

    public Long getDataKeyId() {
        return dataKeyId;
    }

    public String getFingerprint() {
        return fingerprint;
    }

    public String getSetBy() {
        return setBy;
    }

    public Instant getSetAt() {
        return setAt;
    }

    public Instant getLastUsedAt() {
        return lastUsedAt;
    }
}
