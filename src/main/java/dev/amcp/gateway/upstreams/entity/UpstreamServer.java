package dev.amcp.gateway.upstreams.entity;

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

/**
 * An upstream MCP server (Streamable HTTP) registered in a workspace: its tools are ordinary tool rows of
 * {@code serverId} (method {@code MCP}, mapping {@code {"upstreamId", "tool"}}). {@code credential} names an operator
 * credential, never a secret; {@code perPerson} says each caller's own account is used instead; {@code pending} is the last refresh's diff, kept until an admin applies it.
 */
@Entity
@Table(name = "upstream_servers")
@NamedQuery(name = UpstreamServer.BY_WORKSPACE, query = "select u from UpstreamServer u where u.workspaceId = :workspaceId order by u.name")
@NamedQuery(name = UpstreamServer.ALL, query = "select u from UpstreamServer u order by u.id")
public class UpstreamServer {

    public static final String BY_WORKSPACE = "UpstreamServer.byWorkspace";
    public static final String ALL = "UpstreamServer.all";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "server_id", nullable = false)
    private Long serverId;

    @Column(nullable = false)
    private String name;

    @Column(nullable = false)
    private String url;

    @Column(nullable = false)
    private String prefix;

    private String credential;

    /** The workspace upstream whose base {@code url} is under (and whose credential goes with every request), or null. */
    private String upstream;

    @Convert(converter = JsonObjectConverter.class)
    private JsonObject pending;

    @Column(name = "list_changed", nullable = false)
    private boolean listChanged;

    /** Calls go with each person's own account ({@link UpstreamAccount}), never with a shared credential. */
    @Column(name = "per_person", nullable = false)
    private boolean perPerson;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "refreshed_at")
    private Instant refreshedAt;

    protected UpstreamServer() {}

    public UpstreamServer(Long workspaceId, Long serverId, String name, String url, String prefix, String credential, String upstream,
                          String createdBy) {
        this.workspaceId = workspaceId;
        this.serverId = serverId;
        this.name = name;
        this.url = url;
        this.prefix = prefix;
        this.credential = credential;
        this.upstream = upstream;
        this.createdBy = createdBy;
        this.createdAt = Instant.now();
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getServerId() { return serverId; }
    public String getName() { return name; }
    public String getUrl() { return url; }
    public String getPrefix() { return prefix; }
    public String getCredential() { return credential; }
    public String getUpstream() { return upstream; }
    public JsonObject getPending() { return pending; }
    public void setPending(JsonObject pending) { this.pending = pending; }
    public boolean isListChanged() { return listChanged; }
    public void setListChanged(boolean listChanged) { this.listChanged = listChanged; }
    public String getCreatedBy() { return createdBy; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getRefreshedAt() { return refreshedAt; }
    public void setRefreshedAt(Instant refreshedAt) { this.refreshedAt = refreshedAt; }
    public boolean isPerPerson() { return perPerson; }
    public void setPerPerson(boolean perPerson) { this.perPerson = perPerson; }
}
