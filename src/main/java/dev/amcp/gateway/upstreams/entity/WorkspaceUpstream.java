package dev.amcp.gateway.upstreams.entity;

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
 * A workspace's upstream: a base URL under a name unique in the workspace. HTTP tools name it ({@code "upstream"} in
 * their mapping, with a URL relative to the base), and its credential, if any, goes only to URLs under its base.
 */
@Entity
@EntityListeners(AccessChanges.class)
@Table(name = "workspace_upstreams")
@NamedQuery(name = WorkspaceUpstream.BY_WORKSPACE, query = "select u from WorkspaceUpstream u where u.workspaceId = :workspaceId order by u.name")
@NamedQuery(name = WorkspaceUpstream.BY_NAME, query = "select u from WorkspaceUpstream u where u.workspaceId = :workspaceId and u.name = :name")
public class WorkspaceUpstream {

    public static final String BY_WORKSPACE = "WorkspaceUpstream.byWorkspace";
    public static final String BY_NAME = "WorkspaceUpstream.byName";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(nullable = false)
    private String name;

    @Column(name = "base_url", nullable = false)
    private String baseUrl;

    private String description;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected WorkspaceUpstream() {}

    public WorkspaceUpstream(long workspaceId, String name, String baseUrl, String description, String createdBy) {
        this.workspaceId = workspaceId;
        this.name = name;
        this.baseUrl = baseUrl;
        this.description = description;
        this.createdBy = createdBy;
        this.createdAt = Instant.now();
        this.updatedAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public Long getWorkspaceId() {
        return workspaceId;
    }

    public String getName() {
        return name;
    }

    public String getBaseUrl() {
        return baseUrl;
    }

    public String getDescription() {
        return description;
    }

    public String getCreatedBy() {
        return createdBy;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public void change(String baseUrl, String description) {
        this.baseUrl = baseUrl;
        this.description = description;
        this.updatedAt = Instant.now();
    }
}
