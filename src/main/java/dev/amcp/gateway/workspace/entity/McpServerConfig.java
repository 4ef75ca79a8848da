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

/** An MCP server of a workspace: a named group of tools served at {@code /mcp/{slug}}. */
@Entity
@Table(name = "mcp_server_configs")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = McpServerConfig.BY_SLUG, query = "select s from McpServerConfig s where s.workspaceId = :workspaceId and s.slug = :slug")
@NamedQuery(name = McpServerConfig.BY_WORKSPACE, query = "select s from McpServerConfig s where s.workspaceId = :workspaceId order by s.slug")
public class McpServerConfig {

    public static final String BY_SLUG = "McpServerConfig.bySlug";
    public static final String BY_WORKSPACE = "McpServerConfig.byWorkspace";

    /** Code mode of a server: {@code off} (the default) or {@code inline}. */
    public enum CodeMode {
        OFF, INLINE;

        public String wire() {
            return name().toLowerCase();
        }
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(nullable = false)
    private String slug;

    @Column(nullable = false)
    private String name;

    private String description;

    @Column(name = "code_mode", nullable = false)
    private String codeMode = CodeMode.OFF.wire();

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected McpServerConfig() {}

    public McpServerConfig(Long workspaceId, String slug, String name, String description) {
        this.workspaceId = workspaceId;
        this.slug = slug;
        this.name = name;
        this.description = description;
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getSlug() { return slug; }
    public void setSlug(String slug) { this.slug = slug; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public CodeMode getCodeMode() { return CodeMode.valueOf(codeMode.toUpperCase()); }
    public void setCodeMode(CodeMode mode) { this.codeMode = mode.wire(); }
    public Instant getCreatedAt() { return createdAt; }
}
