package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolSchemaChanged;
import dev.amcp.gateway.upstreams.control.UpstreamDirectory;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Creates, changes and deletes HTTP tools for admins. Every field is checked first and all problems are reported
 * together ({@link InvalidToolException}), so nothing is half-written. An HTTP tool's URL and credential must pass
 * the {@link UpstreamRules} here; every path that writes an HTTP tool (REST, editor, demo seeding) comes through. Code tools are saved by code mode, which
 * adds its own gates.
 */
@ApplicationScoped
@Transactional
public class ToolService {

    /** MCP tool names: letters, digits, '_', '-' and '.', 1 to 64 characters. */
    public static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    SchemaValidator schemaValidator;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamDirectory directory;

    @Inject
    Event<AdminChange> changes;

    @Inject
    Event<ToolSchemaChanged> schemaChanges;

    /** Header values in a mapping's audit snapshot: the names show what changed, the values may be secrets. */
    public static final String HIDDEN = "***";

    /** Field problems of a draft, keyed by field name. */
    public static class InvalidToolException extends IllegalArgumentException {
        private final transient Map<String, Message> problems;

        public InvalidToolException(Map<String, Message> problems) {
            super("The tool is not valid: " + problems);
            this.problems = Map.copyOf(problems);
        }

        public Map<String, Message> problems() {
            return problems;
        }

        /** The problems as REST and MCP clients get them. */
        public Map<String, String> englishProblems() {
            return Message.english(problems);
        }
    }

    @RequiresCapability(Capability.ADMIN)
    public McpTool createHttpTool(Caller caller, ToolDraft draft) {
        McpServerConfig server = checkHttpDraft(caller, draft, null);
        McpTool tool = new McpTool(caller.workspaceId(), server.getId(), draft.name());
        apply(tool, draft);
        em.persist(tool);
        em.flush(); // the tool's id, which the audit row names
        recordChange(caller, AdminChange.CREATE, null, tool);
        return tool;
    }

    @RequiresCapability(Capability.ADMIN)
    public McpTool updateHttpTool(Caller caller, long toolId, ToolDraft draft) {
        McpTool tool = findInWorkspace(caller, toolId);
        McpServerConfig server = checkHttpDraft(caller, draft, tool);
        JsonObject before = snapshot(tool);
        tool.setServerId(server.getId());
        tool.setName(draft.name());
        apply(tool, draft);
        recordChange(caller, AdminChange.UPDATE, before, tool);
        return tool;
    }

    /**
     * Creates ({@code toolId} null) or updates a tool of an upstream MCP server (method {@code MCP}): the shared checks
     * and audit rows; the upstream's URL and credential were checked when it was registered.
     */
    @RequiresCapability(Capability.ADMIN)
    public McpTool saveUpstreamTool(Caller caller, Long toolId, ToolDraft draft) {
        McpTool existing = toolId == null ? null : findInWorkspace(caller, toolId);
        Map<String, Message> problems = new LinkedHashMap<>();
        McpServerConfig server = checkCommon(caller, draft, existing, problems);
        if (draft.endpointMapping() == null || !McpUpstreamInvoker.METHOD.equals(McpTool.methodOf(draft.endpointMapping()))
                || !(draft.endpointMapping().get("upstreamId") instanceof jakarta.json.JsonNumber)) {
            problems.put("endpointMapping", Message.of("problem.tool.mappingNotUpstream", "Not a tool of an upstream MCP server"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidToolException(problems);
        }
        JsonObject before = existing == null ? null : snapshot(existing);
        McpTool tool = existing != null ? existing : new McpTool(caller.workspaceId(), server.getId(), draft.name());
        tool.setServerId(server.getId());
        tool.setName(draft.name());
        apply(tool, draft);
        if (existing == null) {
            em.persist(tool);
            em.flush(); // the tool's id, which the audit row names
        }
        recordChange(caller, existing == null ? AdminChange.CREATE : AdminChange.UPDATE, before, tool);
        return tool;
    }

    @RequiresCapability(Capability.ADMIN)
    public void delete(Caller caller, long toolId) {
        McpTool tool = findInWorkspace(caller, toolId);
        JsonObject before = snapshot(tool);
        em.remove(tool); // first, so whoever hears of the change finds the tool gone
        recordChange(caller, AdminChange.DELETE, before, tool);
    }

    /**
     * Writes the audit row of a change to an HTTP or code tool ({@code before} null: created; deleted: no after).
     * Code mode saves code tools through here too, so both kinds are recorded alike.
     */
    public void recordChange(Caller caller, String action, JsonObject before, McpTool tool) {
        changes.fire(AdminChange.inWorkspace(caller, tool.isCodeTool() ? AdminChange.CODE_TOOL : AdminChange.TOOL,
                tool.getName() + " (" + tool.getId() + ")", action, before, AdminChange.DELETE.equals(action) ? null : snapshot(tool)));
        if (!tool.isCodeTool()) {
            announceSchemas(caller, action, before, tool);
        }
    }

    /**
     * Fires {@link ToolSchemaChanged} when a save changed a tool's schemas or name, or created or deleted it: code tools
     * that use it are then flagged for review. Every writer of tools records its change here, so none is missed.
     */
    private void announceSchemas(Caller caller, String action, JsonObject before, McpTool tool) {
        String oldName = before == null ? null : before.getString("name", null);
        String oldHash = before == null ? null : SchemaHash.of(before.get("inputSchema") instanceof JsonObject i ? i : null,
                before.get("outputSchema") instanceof JsonObject o ? o : null);
        String newHash = AdminChange.DELETE.equals(action) ? null : SchemaHash.of(tool);
        if (java.util.Objects.equals(oldHash, newHash) && tool.getName().equals(oldName)) {
            return;
        }
        if (oldName != null && !oldName.equals(tool.getName())) {
            schemaChanges.fire(new ToolSchemaChanged(caller, tool.getWorkspaceId(), oldName));
        }
        schemaChanges.fire(new ToolSchemaChanged(caller, tool.getWorkspaceId(), tool.getName()));
    }

    /** A tool as the audit log keeps it: header values of its mapping hidden, the credential by name only. */
    public static JsonObject snapshot(McpTool tool) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", tool.getName()).add("serverId", tool.getServerId())
                .add("enabled", tool.isEnabled());
        if (tool.getTitle() != null) {
            b.add("title", tool.getTitle());
        }
        if (tool.getDescription() != null) {
            b.add("description", tool.getDescription());
        }
        b.add("inputSchema", tool.getInputSchema() == null ? JsonValue.NULL : tool.getInputSchema());
        b.add("outputSchema", tool.getOutputSchema() == null ? JsonValue.NULL : tool.getOutputSchema());
        JsonObject mapping = tool.getEndpointMapping();
        if (mapping != null && mapping.get("headers") instanceof JsonObject headers) {
            JsonObjectBuilder hidden = JsonSupport.JSON.createObjectBuilder();
            headers.keySet().forEach(name -> hidden.add(name, HIDDEN));
            mapping = JsonSupport.JSON.createObjectBuilder(mapping).add("headers", hidden).build();
        }
        return b.add("endpointMapping", mapping == null ? JsonValue.NULL : mapping).build();
    }

    public List<McpTool> tools(long workspaceId) {
        return em.createNamedQuery(McpTool.BY_WORKSPACE, McpTool.class).setParameter("workspaceId", workspaceId).getResultList();
    }

    /** A tool of the caller's workspace; a tool of another workspace reads as missing. */
    public McpTool findInWorkspace(Caller caller, long toolId) {
        McpTool tool = em.find(McpTool.class, toolId);
        if (tool == null || tool.getWorkspaceId() != caller.workspaceId()) {
            throw new NoSuchItemException(Message.of("problem.tool.missing", "No tool {0} in this workspace", toolId));
        }
        return tool;
    }

    public boolean nameTaken(long workspaceId, String name, Long exceptToolId) {
        return em.createNamedQuery(McpTool.BY_NAME, McpTool.class).setParameter("workspaceId", workspaceId)
                .setParameter("name", name).getResultStream().anyMatch(t -> !t.getId().equals(exceptToolId));
    }

    /** Checks what every tool shares: server, name, schemas. Adds problems to the map and returns the server. */
    public McpServerConfig checkCommon(Caller caller, ToolDraft draft, McpTool existing, Map<String, Message> problems) {
        McpServerConfig server = draft.serverSlug() == null ? null
                : workspaces.findServer(caller.workspaceId(), draft.serverSlug()).orElse(null);
        if (server == null) {
            problems.put("server", Message.of("problem.tool.server", "Choose a server of this workspace"));
        }
        if (draft.name() == null || !TOOL_NAME.matcher(draft.name()).matches()) {
            problems.put("name", Message.of("problem.tool.name", "Use 1 to 64 letters, digits, ''_'', ''-'' or ''.''"));
        } else if (nameTaken(caller.workspaceId(), draft.name(), existing == null ? null : existing.getId())) {
            problems.put("name", Message.of("problem.tool.nameTaken", "A tool named ''{0}'' already exists in this workspace", draft.name()));
        }
        Message inputSchemaProblem = schemaValidator.checkSchema(draft.inputSchema());
        if (inputSchemaProblem != null) {
            problems.put("inputSchema", inputSchemaProblem);
        }
        Message outputSchemaProblem = schemaValidator.checkSchema(draft.outputSchema());
        if (outputSchemaProblem != null) {
            problems.put("outputSchema", outputSchemaProblem);
        }
        return server;
    }

    private McpServerConfig checkHttpDraft(Caller caller, ToolDraft draft, McpTool existing) {
        Map<String, Message> problems = new LinkedHashMap<>();
        McpServerConfig server = checkCommon(caller, draft, existing, problems);
        if (draft.endpointMapping() == null) {
            problems.put("endpointMapping", Message.of("problem.tool.mappingRequired", "An endpoint mapping is required"));
        } else if (McpTool.CODE.equals(McpTool.methodOf(draft.endpointMapping()))) {
            problems.put("endpointMapping", Message.of("problem.tool.mappingIsCode", "Code tools are saved through code mode, not as HTTP tools"));
        } else {
            try {
                HttpEndpointMapping mapping = HttpEndpointMapping.from(draft.endpointMapping());
                if (mapping.upstream() != null) {
                    checkWorkspaceUpstream(caller, mapping);
                } else {
                    URI target = upstreamOf(mapping, "");
                    upstreams.checkAtSave(target);
                    upstreams.checkOperatorUpstream(target, mapping.credential(), directory.grants(caller.workspaceId()));
                }
                if (draft.inputSchema() != null && draft.inputSchema().containsKey("properties")) {
                    var declared = draft.inputSchema().getJsonObject("properties").keySet();
                    mapping.pathParameters().stream().filter(p -> !declared.contains(p)).findFirst().ifPresent(p ->
                            problems.put("endpointMapping", Message.of("problem.tool.urlParameter",
                                    "URL parameter '{'{0}'}' is not a property of the input schema", p)));
                }
            } catch (InvalidInputException e) {
                problems.put("endpointMapping", e.problem());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidToolException(problems);
        }
        return server;
    }

    /**
     * A mapping under a workspace upstream: the upstream is one of the caller's own workspace (a name is never looked up
     * in another), and the URL under its base is inside the operator's ceiling as it is now.
     */
    private void checkWorkspaceUpstream(Caller caller, HttpEndpointMapping mapping) {
        UpstreamDirectory.UpstreamRef upstream = directory.named(caller.workspaceId(), mapping.upstream());
        upstreams.checkWorkspaceBase(upstreamOf(mapping, upstream.base().toString()), directory.egressRules());
    }

    /** The URL a mapping calls, with the base put in and each {argument} standing as a plain segment. */
    private URI upstreamOf(HttpEndpointMapping mapping, String workspaceBase) {
        String url = HttpEndpointMapping.PATH_PARAM.matcher(workspaceBase + upstreams.expandBases(mapping.url())).replaceAll("arg");
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new InvalidInputException(Message.of("problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason()));
        }
    }

    private static void apply(McpTool tool, ToolDraft draft) {
        tool.setTitle(draft.title());
        tool.setDescription(draft.description());
        tool.setInputSchema(draft.inputSchema());
        tool.setOutputSchema(draft.outputSchema());
        tool.setEndpointMapping(draft.endpointMapping());
    }
}
