package dev.amcp.gateway.platform.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A data key as stored: AES-256, wrapped (AES-GCM) by the master key whose id {@code masterKeyId} names. Secrets are
 * encrypted under data keys, so rotating the master key re-wraps these rows and no secret.
 */
@Entity
@Table(name = "data_keys")
public class DataKey {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private String wrapped;

    @Column(name = "master_key_id", nullable = false)
    private String masterKeyId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "rewrapped_at")
    private Instant rewrappedAt;

    protected DataKey() {}

    public DataKey(String wrapped, String masterKeyId, Instant createdAt) {
        this.wrapped = wrapped;
        this.masterKeyId = masterKeyId;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public String getWrapped() {
        return wrapped;
    }

    public String getMasterKeyId() {
        return masterKeyId;
    }

    public Instant getRewrappedAt() {
        return rewrappedAt;
    }
}
