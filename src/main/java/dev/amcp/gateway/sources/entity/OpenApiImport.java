package dev.amcp.gateway.sources.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A preview of an OpenAPI import, kept until it is applied: {@code proposal} holds the operations as proposed
 * ({@link ImportedOperation#toJson()} plus their status against the server's tools) and the tools the document no
 * longer has.
 */
@Entity
@Table(name = "openapi_imports")
public class OpenApiImport {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "server_id", nullable = false)
    private Long serverId;

    @Column(nullable = false)
    private String title;

    private String source;

    @Convert(converter = JsonObjectConverter.class)
    @Column(nullable = false)
    private JsonObject proposal;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected OpenApiImport() {}

    public OpenApiImport(Long workspaceId, Long serverId, String title, String source, JsonObject proposal, String createdBy) {
        this.workspaceId = workspaceId;
        this.serverId = serverId;
        this.title = title;
        this.source = source;
        this.proposal = proposal;
        this.createdBy = createdBy;
        this.createdAt = Instant.now();
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getServerId() { return serverId; }
    public String getTitle() { return title; }
    public String getSource() { return source; }
    public JsonObject getProposal() { return proposal; }
    public String getCreatedBy() { return createdBy; }
    public Instant getCreatedAt() { return createdAt; }
}
