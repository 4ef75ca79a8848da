package dev.amcp.gateway.sources.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.sources.entity.UpstreamServerRequest;
import dev.amcp.gateway.tools.control.McpUpstreamInvoker;
import dev.amcp.gateway.tools.control.ToolDiff;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.upstreams.control.UpstreamAccounts;
import dev.amcp.gateway.upstreams.control.UpstreamCredentials;
import dev.amcp.gateway.upstreams.control.UpstreamDirectory;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Upstream MCP servers: registering one discovers its tools ({@code tools/list}, every page) and writes each as an
 * ordinary tool of the chosen server through {@link ToolService}, named prefix + upstream name, with its schemas.
 * {@code readOnlyHint}/{@code destructiveHint} decide read or write (no hint: write); an admin may mark a write tool
 * read-only, never the reverse. A refresh (on demand, on a schedule, or on {@code notifications/tools/list_changed})
 * stages the same diff an OpenAPI re-import shows ({@link ToolDiff}); an admin applies what they accept.
 */
@ApplicationScoped
@Transactional
public class McpUpstreams {

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    /** Mapping key of an admin's read-only marking, kept across refreshes. */
    static final String MARKED_READ_ONLY = "markedReadOnly";
    static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]{0,32}");

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ToolService tools;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamCredentials credentials;

    @Inject
    UpstreamDirectory directory;

    @Inject
    McpUpstreamInvoker invoker;

    @Inject
    UpstreamAccounts accounts;

    /** What applying a refresh did, by tool name. */
    public record Applied(List<String> created, List<String> updated, List<String> skipped, List<String> removed) {}

    /**
     * Registers an upstream and creates its tools; answers {@code {"id", "tools", "skipped"}}. All or nothing. A
     * per-person upstream ({@code accounts}) gets its sign-in set up instead, and its tools once an admin connects
     * their own account there ({@link #listFirstTime}); the answer then says where to connect ({@code "connect"}).
     *
     * @param gatewayBase where the request reached the gateway (scheme, host, port, context root), for the redirect URI
     */
    @RequiresCapability(Capability.ADMIN)
    public JsonObject register(Caller caller, UpstreamServerRequest request, String gatewayBase) {
        McpServerConfig server = request.server() == null ? null : workspaces.findServer(caller.workspaceId(), request.server()).orElse(null);
        if (server == null) {
            throw problem("problem.tool.server", "Choose a server of this workspace");
        }
        String name = request.name() == null ? "" : request.name().strip();
        if (!NAME.matcher(name).matches()) {
            throw problem("problem.upstreamServer.name", "name must be 1 to 64 lower-case letters, digits or ''-'', starting with a letter or digit");
        }
        if (!em.createNamedQuery(UpstreamServer.BY_WORKSPACE, UpstreamServer.class).setParameter("workspaceId", caller.workspaceId())
                .getResultStream().filter(u -> u.getName().equals(name)).toList().isEmpty()) {
            throw new ConflictException(Message.of("problem.upstreamServer.taken", "An upstream server named ''{0}'' already exists", name));
        }
        String prefix = request.prefix() == null ? "" : request.prefix().strip();
        if (!PREFIX.matcher(prefix).matches()) {
            throw problem("problem.upstreamServer.prefix", "prefix must be at most 32 letters, digits, ''_'', ''-'' or ''.''");
        }
        String credential = request.credential() == null || request.credential().isBlank() ? null
                : request.credential().strip().toUpperCase(Locale.ROOT);
        String workspaceUpstream = request.upstream() == null || request.upstream().isBlank() ? null : request.upstream().strip();
        String url;
        if (workspaceUpstream != null) {
            url = checkPathUnder(caller, workspaceUpstream, request.url(), credential);
        } else {
            url = checkUrl(request.url());
            URI target = uri(upstreams.expandBases(url));
            if (credential != null && (!credential.matches("[A-Z0-9_]{1,64}") || !credentials.configured(credential))) {
                throw problem("problem.upstreamServer.credential",
                        "credential {0} is not configured (set AMCP_CREDENTIAL_{0}_VALUE, or _TOKEN_URL, _CLIENT_ID and _CLIENT_SECRET)", credential);
            }
            upstreams.checkOperatorUpstream(target, credential, directory.grants(caller.workspaceId()));
        }
        if (request.accounts() != null && credential != null) {
            throw problem("problem.upstreamServer.personalCredential", "with personal accounts each person''s own token is sent: leave credential out");
        }
        UpstreamServer upstream = new UpstreamServer(caller.workspaceId(), server.getId(), name, url, prefix, credential,
                workspaceUpstream, caller.username() == null ? "?" : caller.username());
        em.persist(upstream);
        em.flush(); // the id the tools' mappings name
        if (request.accounts() != null) {
            accounts.setUp(caller, upstream, invoker.resource(upstream), request.accounts(), accounts.redirectUri(gatewayBase));
            return JsonSupport.JSON.createObjectBuilder().add("id", upstream.getId()).add("tools", JsonValue.EMPTY_JSON_ARRAY)
                    .add("skipped", JsonValue.EMPTY_JSON_ARRAY).add("connect", accounts.connectUrl(upstream)).build();
        }
        return createTools(caller, upstream, server, discover(upstream, null));
    }

    /**
     * The first listing of a per-person upstream, with the account the admin just connected there: its tools are
     * created as registration creates them. Answers nothing when it was listed before.
     */
    @RequiresCapability(Capability.ADMIN)
    public Optional<JsonObject> listFirstTime(Caller caller, long id) {
        UpstreamServer upstream = find(caller, id);
        if (upstream.getRefreshedAt() != null) {
            return Optional.empty();
        }
        return Optional.of(createTools(caller, upstream, workspaces.server(upstream.getServerId()), discover(upstream, caller)));
    }

    private JsonObject createTools(Caller caller, UpstreamServer upstream, McpServerConfig server, List<McpSchema.Tool> listed) {
        JsonArrayBuilder created = JsonSupport.JSON.createArrayBuilder();
        JsonArrayBuilder skipped = JsonSupport.JSON.createArrayBuilder();
        for (McpSchema.Tool tool : listed) {
            ToolDraft draft = draft(upstream, server, tool, null);
            Map<String, Message> problems = new LinkedHashMap<>();
            tools.checkCommon(caller, draft, null, problems);
            if (problems.isEmpty()) {
                tools.saveUpstreamTool(caller, null, draft);
                created.add(draft.name());
            } else {
                skipped.add(JsonSupport.JSON.createObjectBuilder().add("name", draft.name())
                        .add("reason", String.join("; ", Message.english(problems).values())));
            }
        }
        upstream.setRefreshedAt(Instant.now());
        return JsonSupport.JSON.createObjectBuilder().add("id", upstream.getId()).add("tools", created).add("skipped", skipped).build();
    }

    @RequiresCapability(Capability.ADMIN)
    public List<UpstreamServer> list(Caller caller) {
        return em.createNamedQuery(UpstreamServer.BY_WORKSPACE, UpstreamServer.class).setParameter("workspaceId", caller.workspaceId()).getResultList();
    }

    /** An upstream of the caller's workspace; one of another workspace reads as missing. */
    @RequiresCapability(Capability.ADMIN)
    public UpstreamServer find(Caller caller, long id) {
        UpstreamServer upstream = em.find(UpstreamServer.class, id);
        if (upstream == null || upstream.getWorkspaceId() != caller.workspaceId()) {
            throw new NoSuchItemException(Message.of("problem.upstreamServer.missing", "No upstream server {0} in this workspace", id));
        }
        return upstream;
    }

    /** The tools of an upstream, by name. */
    public List<McpTool> toolsOf(UpstreamServer upstream) {
        return em.createNamedQuery(McpTool.BY_SERVER, McpTool.class).setParameter("serverId", upstream.getServerId()).getResultStream()
                .filter(t -> belongsTo(t, upstream)).toList();
    }

    /** An upstream as the API shows it: the credential by name only, never a secret. */
    public JsonObject describe(UpstreamServer upstream) {
        JsonArrayBuilder list = JsonSupport.JSON.createArrayBuilder();
        for (McpTool tool : toolsOf(upstream)) {
            JsonObject mapping = tool.getEndpointMapping();
            list.add(JsonSupport.JSON.createObjectBuilder().add("name", tool.getName()).add("id", tool.getId())
                    .add("tool", mapping.getString("tool", "")).add("readOnly", tool.isReadOnly())
                    .add("hintReadOnly", mapping.getBoolean("hintReadOnly", false)));
        }
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", upstream.getId()).add("name", upstream.getName())
                .add("server", workspaces.server(upstream.getServerId()).getSlug()).add("url", upstream.getUrl())
                .add("prefix", upstream.getPrefix())
                .add("credential", upstream.getCredential() == null ? JsonValue.NULL : JsonSupport.JSON.createValue(upstream.getCredential()))
                .add("upstream", upstream.getUpstream() == null ? JsonValue.NULL : JsonSupport.JSON.createValue(upstream.getUpstream()))
                .add("perPerson", upstream.isPerPerson())
                .add("listChanged", upstream.isListChanged()).add("pending", upstream.getPending() != null)
                .add("refreshedAt", upstream.getRefreshedAt() == null ? JsonValue.NULL : JsonSupport.JSON.createValue(upstream.getRefreshedAt().toString()));
        if (upstream.isPerPerson()) {
            b.add("connect", accounts.connectUrl(upstream));
        }
        return b.add("tools", list).build();
    }

    /** Deletes an upstream and its tools (each with its audit row), and closes its client. */
    @RequiresCapability(Capability.ADMIN)
    public void delete(Caller caller, long id) {
        UpstreamServer upstream = find(caller, id);
        for (McpTool tool : toolsOf(upstream)) {
            tools.delete(caller, tool.getId());
        }
        em.remove(upstream);
        invoker.close(id);
    }

    /** Lists the upstream's tools now and stages the diff against the tools it has; answers the preview. */
    @RequiresCapability(Capability.ADMIN)
    public JsonObject refresh(Caller caller, long id) {
        return stage(find(caller, id), false, caller);
    }

    /**
     * Stages a refresh without a caller (schedule, {@code list_changed}); an upstream gone or unreachable is left as it
     * is. A per-person upstream lists its tools only to a person, so only an admin's refresh stages one.
     */
    public void stage(long id, boolean listChanged) {
        UpstreamServer upstream = em.find(UpstreamServer.class, id);
        if (upstream != null && !upstream.isPerPerson()) {
            stage(upstream, listChanged, null);
        }
    }

    private JsonObject stage(UpstreamServer upstream, boolean listChanged, Caller caller) {
        McpServerConfig server = workspaces.server(upstream.getServerId());
        Map<String, McpTool> current = toolsOf(upstream).stream().collect(Collectors.toMap(t -> t.getEndpointMapping().getString("tool"), t -> t));
        JsonArrayBuilder rows = JsonSupport.JSON.createArrayBuilder();
        Set<String> listedNames = new java.util.HashSet<>();
        for (McpSchema.Tool tool : discover(upstream, caller)) {
            listedNames.add(tool.name());
            McpTool existing = current.get(tool.name());
            ToolDraft draft = draft(upstream, server, tool, existing);
            JsonObjectBuilder row = JsonSupport.JSON.createObjectBuilder().add("name", draft.name()).add("tool", tool.name())
                    .add("draft", draftJson(draft));
            if (existing == null) {
                row.add("status", "added").add("changes", JsonValue.EMPTY_JSON_ARRAY);
            } else {
                List<String> changes = ToolDiff.changes(existing.getTitle(), existing.getDescription(), existing.getInputSchema(),
                        existing.getOutputSchema(), existing.getEndpointMapping(), draft.title(), draft.description(), draft.inputSchema(),
                        draft.outputSchema(), draft.endpointMapping());
                if (!existing.getEndpointMapping().equals(draft.endpointMapping()) && changes.isEmpty()) {
                    changes = List.of("read/write changed");
                }
                JsonArrayBuilder c = JsonSupport.JSON.createArrayBuilder();
                changes.forEach(c::add);
                row.add("status", changes.isEmpty() ? "unchanged" : "changed").add("changes", c).add("toolId", existing.getId());
            }
            rows.add(row);
        }
        JsonArrayBuilder removed = JsonSupport.JSON.createArrayBuilder();
        current.forEach((upstreamName, tool) -> {
            if (!listedNames.contains(upstreamName)) {
                removed.add(JsonSupport.JSON.createObjectBuilder().add("name", tool.getName()).add("toolId", tool.getId()));
            }
        });
        JsonObject pending = JsonSupport.JSON.createObjectBuilder().add("tools", rows).add("removed", removed)
                .add("stagedAt", Instant.now().toString()).build();
        upstream.setPending(pending);
        upstream.setListChanged(upstream.isListChanged() || listChanged);
        upstream.setRefreshedAt(Instant.now());
        return preview(upstream);
    }

    /** The staged refresh of an upstream as the API shows it (without the drafts), or 404 when none is staged. */
    public JsonObject preview(UpstreamServer upstream) {
        if (upstream.getPending() == null) {
            throw new NoSuchItemException(Message.of("problem.upstreamServer.noRefresh", "Upstream server {0} has no staged refresh: refresh it first", upstream.getId()));
        }
        JsonArrayBuilder rows = JsonSupport.JSON.createArrayBuilder();
        upstream.getPending().getJsonArray("tools").getValuesAs(JsonObject.class)
                .forEach(r -> rows.add(JsonSupport.JSON.createObjectBuilder(r).remove("draft").remove("toolId")));
        JsonArrayBuilder removed = JsonSupport.JSON.createArrayBuilder();
        upstream.getPending().getJsonArray("removed").getValuesAs(JsonObject.class).forEach(r -> removed.add(r.getString("name")));
        return JsonSupport.JSON.createObjectBuilder().add("id", upstream.getId()).add("listChanged", upstream.isListChanged())
                .add("tools", rows).add("removed", removed).build();
    }

    /**
     * Applies a staged refresh: the accepted tools (all added and changed ones when none are named) and the accepted
     * removals, in one transaction.
     */
    @RequiresCapability(Capability.ADMIN)
    public Applied apply(Caller caller, long id, List<String> accept, List<String> remove) {
        UpstreamServer upstream = find(caller, id);
        preview(upstream); // 404 without a staged refresh
        Map<String, JsonObject> rows = new LinkedHashMap<>();
        upstream.getPending().getJsonArray("tools").getValuesAs(JsonObject.class).forEach(r -> rows.put(r.getString("name"), r));
        List<String> chosen = accept.isEmpty()
                ? rows.values().stream().filter(r -> !"unchanged".equals(r.getString("status"))).map(r -> r.getString("name")).toList() : accept;
        for (String name : chosen) {
            if (!rows.containsKey(name)) {
                throw problem("problem.upstreamServer.noTool", "The staged refresh has no tool ''{0}''", name);
            }
        }
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JsonObject row : rows.values()) {
            String name = row.getString("name");
            if (!chosen.contains(name) || "unchanged".equals(row.getString("status"))) {
                skipped.add(name);
                continue;
            }
            ToolDraft draft = draftFrom(row.getJsonObject("draft"));
            Long toolId = row.containsKey("toolId") ? row.getJsonNumber("toolId").longValue() : null;
            try {
                tools.saveUpstreamTool(caller, toolId, draft);
            } catch (ToolService.InvalidToolException e) {
                Map<String, Message> named = new LinkedHashMap<>();
                e.problems().forEach((field, message) -> named.put(name + "." + field, message));
                throw new ToolService.InvalidToolException(named);
            }
            (toolId == null ? created : updated).add(name);
        }
        Map<String, Long> removable = new LinkedHashMap<>();
        upstream.getPending().getJsonArray("removed").getValuesAs(JsonObject.class)
                .forEach(r -> removable.put(r.getString("name"), r.getJsonNumber("toolId").longValue()));
        List<String> removed = new ArrayList<>();
        for (String name : remove) {
            Long toolId = removable.get(name);
            if (toolId == null) {
                throw problem("problem.upstreamServer.notRemovable", "''{0}'' is not a tool this refresh would remove", name);
            }
            tools.delete(caller, toolId);
            removed.add(name);
        }
        upstream.setPending(null);
        upstream.setListChanged(false);
        return new Applied(created, updated, skipped, removed);
    }

    /** Marks a tool of the upstream read-only or back to write; a tool the upstream declares read-only stays read-only. */
    @RequiresCapability(Capability.ADMIN)
    public McpTool markReadOnly(Caller caller, long id, String toolName, boolean readOnly) {
        UpstreamServer upstream = find(caller, id);
        McpTool tool = toolsOf(upstream).stream().filter(t -> t.getName().equals(toolName)).findFirst()
                .orElseThrow(() -> new NoSuchItemException(Message.of("problem.tool.missing", "No tool {0} in this workspace", toolName)));
        JsonObject mapping = tool.getEndpointMapping();
        if (!readOnly && mapping.getBoolean("hintReadOnly", false)) {
            throw problem("problem.upstreamServer.readOnlyHint", "{0} is read-only by its upstream''s hints; it cannot be made a write tool", toolName);
        }
        JsonObjectBuilder marked = JsonSupport.JSON.createObjectBuilder(mapping).add("readOnly", readOnly || mapping.getBoolean("hintReadOnly", false));
        if (readOnly) {
            marked.add(MARKED_READ_ONLY, true);
        } else {
            marked.remove(MARKED_READ_ONLY);
        }
        ToolDraft draft = new ToolDraft(workspaces.server(tool.getServerId()).getSlug(), tool.getName(), tool.getTitle(), tool.getDescription(),
                tool.getInputSchema(), tool.getOutputSchema(), marked.build());
        return tools.saveUpstreamTool(caller, tool.getId(), draft);
    }

    // ---- helpers ----

    /** The upstream's tools; a per-person upstream's as the caller's own account sees them. */
    private List<McpSchema.Tool> discover(UpstreamServer upstream, Caller caller) {
        try {
            return invoker.listTools(upstream, upstream.isPerPerson() ? accounts.bearer(caller, upstream) : null);
        } catch (UpstreamAccounts.AccountNeeded e) {
            throw problem("problem.upstreamServer.accountNeeded", "Listing the tools of {0} needs your own account there: connect it at {1}",
                    upstream.getName(), e.connectUrl());
        } catch (InvalidInputException e) {
            throw e;
        } catch (RuntimeException e) {
            throw problem("problem.upstreamServer.unreachable", "Listing the tools of {0} failed: {1}", upstream.getUrl(),
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /** The tool row an upstream tool becomes; an admin's earlier read-only marking is kept. */
    static ToolDraft draft(UpstreamServer upstream, McpServerConfig server, McpSchema.Tool tool, McpTool existing) {
        McpSchema.ToolAnnotations hints = tool.annotations();
        boolean hintReadOnly = hints != null && Boolean.TRUE.equals(hints.readOnlyHint()) && !Boolean.TRUE.equals(hints.destructiveHint());
        boolean markedReadOnly = existing != null && existing.getEndpointMapping().getBoolean(MARKED_READ_ONLY, false);
        JsonObjectBuilder mapping = JsonSupport.JSON.createObjectBuilder().add("method", McpUpstreamInvoker.METHOD)
                .add("upstreamId", upstream.getId()).add("tool", tool.name()).add("hintReadOnly", hintReadOnly)
                .add("readOnly", hintReadOnly || markedReadOnly);
        if (markedReadOnly) {
            mapping.add(MARKED_READ_ONLY, true);
        }
        String title = tool.title() != null ? tool.title() : hints == null ? null : hints.title();
        return new ToolDraft(server.getSlug(), upstream.getPrefix() + tool.name(), title, tool.description(),
                McpUpstreamInvoker.json(tool.inputSchema()), McpUpstreamInvoker.json(tool.outputSchema()), mapping.build());
    }

    private static JsonObject draftJson(ToolDraft d) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("server", d.serverSlug()).add("name", d.name())
                .add("endpointMapping", d.endpointMapping());
        if (d.title() != null) {
            b.add("title", d.title());
        }
        if (d.description() != null) {
            b.add("description", d.description());
        }
        if (d.inputSchema() != null) {
            b.add("inputSchema", d.inputSchema());
        }
        if (d.outputSchema() != null) {
            b.add("outputSchema", d.outputSchema());
        }
        return b.build();
    }

    private static ToolDraft draftFrom(JsonObject j) {
        return new ToolDraft(j.getString("server"), j.getString("name"), j.getString("title", null), j.getString("description", null),
                JsonSupport.objectField(j, "inputSchema"), JsonSupport.objectField(j, "outputSchema"), j.getJsonObject("endpointMapping"));
    }

    private static boolean belongsTo(McpTool tool, UpstreamServer upstream) {
        JsonObject mapping = tool.getEndpointMapping();
        return McpUpstreamInvoker.METHOD.equals(tool.getMethod()) && mapping.get("upstreamId") instanceof jakarta.json.JsonNumber n
                && n.longValue() == upstream.getId();
    }

    /**
     * A path under one of the caller's workspace upstreams (empty, or starting with / or ?), inside the operator's
     * ceiling as it is now; the upstream's own credential goes with it, so no operator credential may be named.
     */
    private String checkPathUnder(Caller caller, String workspaceUpstream, String raw, String credential) {
        UpstreamDirectory.UpstreamRef ref = directory.named(caller.workspaceId(), workspaceUpstream);
        String path = raw == null ? "" : raw.strip();
        if (path.length() > 2000 || !path.isEmpty() && !path.startsWith("/") && !path.startsWith("?")) {
            throw problem("problem.mapping.upstreamUrl", "with upstream, url is a path under its base: empty, or starting with / or ?");
        }
        if (credential != null) {
            throw problem("problem.mapping.upstreamCredential", "with upstream, the upstream''s own credential is sent: leave credential out");
        }
        upstreams.checkWorkspaceBase(uri(ref.base() + path), directory.egressRules());
        return path;
    }

    /** A Streamable HTTP URL, or one starting with an operator's base, that passes the upstream rules. */
    private String checkUrl(String raw) {
        String url = raw == null ? "" : raw.strip();
        if (url.isEmpty() || url.length() > 2000) {
            throw problem("problem.upstreamServer.url", "url is required (at most 2000 characters)");
        }
        if (!url.startsWith("${") && !url.startsWith("http://") && !url.startsWith("https://")) {
            throw problem("problem.mapping.urlScheme", "url must start with http:// or https:// (or a $'{'{0}...'}' setting)", UpstreamSyntax.SETTING_PREFIX);
        }
        if (url.startsWith("${") && !url.startsWith("${" + UpstreamSyntax.SETTING_PREFIX)) {
            throw problem("problem.upstreamServer.urlSetting", "url may only reference settings named {0}*", UpstreamSyntax.SETTING_PREFIX);
        }
        upstreams.checkAtSave(uri(upstreams.expandBases(url)));
        return url;
    }

    private static URI uri(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw problem("problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason());
        }
    }

    private static InvalidInputException problem(String key, String english, Object... args) {
        return new InvalidInputException(Message.of(key, english, args));
    }
}
