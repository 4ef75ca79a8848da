package dev.amcp.gateway.governance.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/** An installed, signed license document. The signature is checked before a row is written. */
@Entity
@Table(name = "license")
@NamedQuery(name = License.ACTIVE, query = "select l from License l where l.active = true order by l.installedAt desc")
public class License {

    public static final String ACTIVE = "License.active";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private String edition;

    @Column(nullable = false)
    private String licensee;

    @Column(nullable = false)
    private String document;

    @Column(nullable = false)
    private String signature;

    @Convert(converter = JsonObjectConverter.class)
    @Column(nullable = false)
    private JsonObject features;

    @Column(name = "issued_at", nullable = false)
    private Instant issuedAt;

    @Column(name = "expires_at")
    private Instant expiresAt;

    @Column(name = "installed_at", nullable = false)
    private Instant installedAt = Instant.now();

    private boolean active = true;

    protected License() {}

    public License(String edition, String licensee, String document, String signature, JsonObject features,
                   Instant issuedAt, Instant expiresAt) {
        this.edition = edition;
        this.licensee = licensee;
        this.document = document;
        this.signature = signature;
        this.features = features;
        this.issuedAt = issuedAt;
        this.expiresAt = expiresAt;
    }

    public Long getId() { return id; }
    public String getEdition() { return edition; }
    public String getLicensee() { return licensee; }
    public String getDocument() { return document; }
    public String getSignature() { return signature; }
    public JsonObject getFeatures() { return features; }
    public Instant getIssuedAt() { return issuedAt; }
    public Instant getExpiresAt() { return expiresAt; }
    public Instant getInstalledAt() { return installedAt; }
    public boolean isActive() { return active; }
    public void deactivate() { this.active = false; }
}
