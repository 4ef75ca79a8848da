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
 * The operator's grant of one base {@code AMCP_UPSTREAM_<NAME>} (and the credentials bound to it) to one workspace:
 * without it, the workspace's tools, imports and upstream MCP servers cannot use that base.
 */
@Entity
@EntityListeners(AccessChanges.class)
@Table(name = "upstream_grants")
@NamedQuery(name = UpstreamGrant.ALL, query = "select g from UpstreamGrant g order by g.upstream, g.workspaceId")
@NamedQuery(name = UpstreamGrant.OF_WORKSPACE, query = "select g.upstream from UpstreamGrant g where g.workspaceId = :workspaceId")
public class UpstreamGrant {

    public static final String ALL = "UpstreamGrant.all";
    public static final String OF_WORKSPACE = "UpstreamGrant.ofWorkspace";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    /** {@code <NAME>} of {@code AMCP_UPSTREAM_<NAME>}. */
    @Column(nullable = false)
    private String upstream;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "granted_by", nullable = false)
    private String grantedBy;

    @Column(name = "granted_at", nullable = false)
    private Instant grantedAt;

    protected UpstreamGrant() {}

    public UpstreamGrant(String upstream, long workspaceId, String grantedBy) {
        this.upstream = upstream;
        this.workspaceId = workspaceId;
        this.grantedBy = grantedBy;
        this.grantedAt = Instant.now();
    }

    public Long getId() {
        return id;
    }

    public String getUpstream() {
        return upstream;
    }

    public Long getWorkspaceId() {
        return workspaceId;
    }

    public String getGrantedBy() {
        return grantedBy;
    }

    public Instant getGrantedAt() {
        return grantedAt;
    }
}
