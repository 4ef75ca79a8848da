package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.platform.control.JsonObjectConverter;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.Set;

/**
 * A tool of an MCP server. {@code endpointMapping} says how it runs: an upstream HTTP call (method GET, POST, PUT,
 * PATCH or DELETE) or a code tool (method {@code code}). {@code method} and {@code readOnly} are derived from it.
 */
@Entity
@Table(name = "mcp_tools")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = McpTool.BY_WORKSPACE, query = "select t from McpTool t where t.workspaceId = :workspaceId order by t.name")
@NamedQuery(name = McpTool.BY_NAME, query = "select t from McpTool t where t.workspaceId = :workspaceId and t.name = :name")
@NamedQuery(name = McpTool.BY_SERVER, query = "select t from McpTool t where t.serverId = :serverId order by t.name")
public class McpTool {

    public static final String BY_WORKSPACE = "McpTool.byWorkspace";
    public static final String BY_NAME = "McpTool.byName";
    public static final String BY_SERVER = "McpTool.byServer";

    public static final String CODE = "code";
    public static final Set<String> HTTP_METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "server_id", nullable = false)
    private Long serverId;

    @Column(nullable = false)
    private String name;

    private String title;

    private String description;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "input_schema")
    private JsonObject inputSchema;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "output_schema")
    private JsonObject outputSchema;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "endpoint_mapping", nullable = false)
    private JsonObject endpointMapping;

    @Column(nullable = false)
    private String method;

    @Column(name = "read_only", nullable = false)
    private boolean readOnly;

    private boolean enabled = true;

    @Column(name = "definer_user_id")
    private Long definerUserId;

    @Column(name = "definer_role_id")
    private Long definerRoleId;

    @Column(name = "pinned_code_sha256")
    private String pinnedCodeSha256;

    /** Code tools: the schemas of the tools in {@code uses} as the admin saved it against (schema drift). */
    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "uses_schema_pins")
    private JsonObject usesSchemaPins;

    @Version
    private int version;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected McpTool() {}

    public McpTool(Long workspaceId, Long serverId, String name) {
        this.workspaceId = workspaceId;
        this.serverId = serverId;
        this.name = name;
    }

    @PrePersist
    @PreUpdate
    void deriveColumns() {
        Instant now = Instant.now();
        if (createdAt == null) {
            createdAt = now;
        }
        updatedAt = now;
        method = methodOf(endpointMapping);
        readOnly = isReadOnly();
    }

    /** The method of a mapping, upper case for HTTP, {@code code} for code tools. */
    public static String methodOf(JsonObject mapping) {
        String raw = JsonSupport.string(mapping, "method", "");
        return CODE.equalsIgnoreCase(raw) ? CODE : raw.toUpperCase();
    }

    public boolean isCodeTool() {
        return CODE.equals(methodOf(endpointMapping));
    }

    /**
     * Read-only is derived: a GET is a read, unless the mapping's {@code readOnly} says otherwise (an admin's override,
     * such as a POST search); a code tool reads unless it may write.
     */
    public boolean isReadOnly() {
        if (isCodeTool()) {
            return !endpointMapping.getBoolean("allowWrites", false);
        }
        JsonValue override = endpointMapping.get("readOnly");
        if (override != null && (override.getValueType() == JsonValue.ValueType.TRUE || override.getValueType() == JsonValue.ValueType.FALSE)) {
            return override.getValueType() == JsonValue.ValueType.TRUE;
        }
        return "GET".equals(methodOf(endpointMapping));
    }

    public String getMethod() { return methodOf(endpointMapping); }
    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getServerId() { return serverId; }
    public void setServerId(Long serverId) { this.serverId = serverId; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public JsonObject getInputSchema() { return inputSchema; }
    public void setInputSchema(JsonObject inputSchema) { this.inputSchema = inputSchema; }
    public JsonObject getOutputSchema() { return outputSchema; }
    public void setOutputSchema(JsonObject outputSchema) { this.outputSchema = outputSchema; }
    public JsonObject getEndpointMapping() { return endpointMapping; }
    public void setEndpointMapping(JsonObject endpointMapping) { this.endpointMapping = endpointMapping; }
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public Long getDefinerUserId() { return definerUserId; }
    public Long getDefinerRoleId() { return definerRoleId; }
    public String getPinnedCodeSha256() { return pinnedCodeSha256; }
    public void pinDefiner(Long userId, Long roleId, String codeSha256) {
        this.definerUserId = userId;
        this.definerRoleId = roleId;
        this.pinnedCodeSha256 = codeSha256;
    }
    public JsonObject getUsesSchemaPins() { return usesSchemaPins; }
    public void setUsesSchemaPins(JsonObject usesSchemaPins) { this.usesSchemaPins = usesSchemaPins; }
    public int getVersion() { return version; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getUpdatedAt() { return updatedAt; }
}
