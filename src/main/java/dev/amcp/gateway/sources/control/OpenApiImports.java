package dev.amcp.gateway.sources.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.sources.entity.ImportedOperation;
import dev.amcp.gateway.sources.entity.OpenApiImport;
import dev.amcp.gateway.sources.entity.OpenApiImportRequest;
import dev.amcp.gateway.sources.entity.OpenApiSelection;
import dev.amcp.gateway.tools.control.ToolDiff;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.upstreams.control.OutboundHttp;
import dev.amcp.gateway.upstreams.control.UpstreamDirectory;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * OpenAPI import: a preview proposes one HTTP tool per operation of a document (fetched through the upstream rules, or
 * pasted) and shows how each differs from the server's tools; applying it writes the accepted ones through
 * {@link ToolService}, the same checks, audit rows and transaction as the editor's, all or nothing.
 */
@ApplicationScoped
@Transactional
public class OpenApiImports {

    public static final String MAX_BYTES_SETTING = "AMCP_OPENAPI_MAX_BYTES";
    public static final long DEFAULT_MAX_BYTES = 5L * 1024 * 1024;
    private static final Duration KEPT = Duration.ofDays(1);

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ToolService tools;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamDirectory directory;

    @Inject
    OutboundHttp http;

    @Inject
    Settings settings;

    /** What applying a preview did, by tool name. */
    public record Applied(List<String> created, List<String> updated, List<String> skipped, List<String> removed) {}

    public long maxBytes() {
        return settings.getLong(MAX_BYTES_SETTING, DEFAULT_MAX_BYTES);
    }

    /** Reads the document, proposes the tools, compares them with the server's, and keeps the preview. */
    @RequiresCapability(Capability.ADMIN)
    public JsonObject preview(Caller caller, OpenApiImportRequest request) {
        McpServerConfig server = request.server() == null ? null : workspaces.findServer(caller.workspaceId(), request.server()).orElse(null);
        if (server == null) {
            throw problem("problem.tool.server", "Choose a server of this workspace");
        }
        boolean hasUrl = request.url() != null && !request.url().isBlank();
        boolean hasDocument = request.document() != null && !request.document().isBlank();
        if (hasUrl == hasDocument) {
            throw problem("problem.openapi.source", "Give either url or document");
        }
        UpstreamDirectory.UpstreamRef upstream = workspaceUpstream(caller, request);
        String text = !hasUrl ? request.document() : upstream != null ? fetchUnder(upstream, request.url().strip(), caller)
                : fetch(request.url().strip(), request.credential(), caller);
        if (text.getBytes(StandardCharsets.UTF_8).length > maxBytes()) {
            throw problem("problem.openapi.tooLarge", "The document is larger than the {0}-byte limit ({1})", maxBytes(), MAX_BYTES_SETTING);
        }
        OpenApiReader.Parsed parsed = OpenApiReader.parse(text);
        String base = upstream != null ? "" : base(request, parsed);
        String credential = upstream != null ? null : request.credential() != null && !request.credential().isBlank()
                ? request.credential().strip().toUpperCase(java.util.Locale.ROOT) : upstreams.boundCredential(base);
        if (upstream == null) {
            URI target = URI.create(upstreams.expandBases(base));
            upstreams.checkOperatorUpstream(target, credential, directory.grants(caller.workspaceId()));
        }

        Map<String, McpTool> onServer = em.createNamedQuery(McpTool.BY_SERVER, McpTool.class).setParameter("serverId", server.getId())
                .getResultList().stream().collect(Collectors.toMap(McpTool::getName, Function.identity()));
        Set<String> elsewhere = tools.tools(caller.workspaceId()).stream().filter(t -> !t.getServerId().equals(server.getId()))
                .map(McpTool::getName).collect(Collectors.toSet());
        List<ImportedOperation> operations = OpenApiReader.operations(parsed, base, credential,
                request.prefix() == null ? "" : request.prefix().strip(), elsewhere::contains);
        if (upstream != null) {
            operations = operations.stream().map(op -> op.withMapping(JsonSupport.JSON.createObjectBuilder(op.endpointMapping())
                    .add("upstream", upstream.name()).build())).toList();
        }

        JsonArrayBuilder ops = JsonSupport.JSON.createArrayBuilder();
        Set<String> proposed = operations.stream().map(ImportedOperation::name).collect(Collectors.toSet());
        for (ImportedOperation op : operations) {
            JsonObjectBuilder row = JsonSupport.JSON.createObjectBuilder(op.toJson());
            McpTool existing = onServer.get(op.name());
            if (existing == null) {
                row.add("status", "added").add("changes", JsonValue.EMPTY_JSON_ARRAY);
            } else {
                List<String> changes = ToolDiff.changes(existing.getTitle(), existing.getDescription(), existing.getInputSchema(),
                        existing.getOutputSchema(), existing.getEndpointMapping(), op.title(), op.description(), op.inputSchema(),
                        op.outputSchema(), op.endpointMapping());
                JsonArrayBuilder c = JsonSupport.JSON.createArrayBuilder();
                changes.forEach(c::add);
                row.add("status", changes.isEmpty() ? "unchanged" : "changed").add("changes", c).add("toolId", existing.getId());
            }
            ops.add(row);
        }
        JsonArrayBuilder removed = JsonSupport.JSON.createArrayBuilder();
        onServer.values().stream().filter(t -> !proposed.contains(t.getName()) && fromDocument(t, parsed.title()))
                .sorted(java.util.Comparator.comparing(McpTool::getName))
                .forEach(t -> removed.add(JsonSupport.JSON.createObjectBuilder().add("name", t.getName()).add("toolId", t.getId())
                        .add("operationId", t.getEndpointMapping().getJsonObject("openapi").getString("operationId", ""))));
        JsonObject proposal = JsonSupport.JSON.createObjectBuilder().add("operations", ops).add("removed", removed).build();

        em.createQuery("delete from OpenApiImport i where i.workspaceId = :w and i.createdAt < :old")
                .setParameter("w", caller.workspaceId()).setParameter("old", Instant.now().minus(KEPT)).executeUpdate();
        OpenApiImport kept = new OpenApiImport(caller.workspaceId(), server.getId(), cut(parsed.title(), 500),
                hasUrl ? cut(request.url().strip(), 2000) : null, proposal, cut(caller.username() == null ? "?" : caller.username(), 100));
        em.persist(kept);
        em.flush();
        return JsonSupport.JSON.createObjectBuilder().add("id", kept.getId()).add("server", server.getSlug())
                .add("title", parsed.title()).add("openapi", parsed.version() == null ? "" : parsed.version())
                .add("base", base).add("credential", credential == null ? JsonValue.NULL : JsonSupport.JSON.createValue(credential))
                .addAll(JsonSupport.JSON.createObjectBuilder(proposal)).build();
    }

    /**
     * Writes the accepted operations (all added or changed ones when none are named) and removes the accepted
     * removals, in one transaction: one invalid tool and nothing is written.
     */
    @RequiresCapability(Capability.ADMIN)
    public Applied apply(Caller caller, long importId, List<OpenApiSelection> selections, List<String> remove) {
        OpenApiImport preview = em.find(OpenApiImport.class, importId);
        if (preview == null || preview.getWorkspaceId() != caller.workspaceId()) {
            throw new NoSuchItemException(Message.of("problem.openapi.missing", "No OpenAPI import {0} in this workspace (previews are kept for a day and until applied)", importId));
        }
        McpServerConfig server = workspaces.server(preview.getServerId());
        Map<String, JsonObject> rows = new LinkedHashMap<>();
        preview.getProposal().getJsonArray("operations").getValuesAs(JsonObject.class).forEach(r -> rows.put(r.getString("operationId"), r));
        List<OpenApiSelection> chosen = selections;
        if (chosen.isEmpty()) {
            chosen = rows.values().stream().filter(r -> !"unchanged".equals(r.getString("status")) && !r.containsKey("unsupported"))
                    .map(r -> new OpenApiSelection(r.getString("operationId"), null)).toList();
        }
        for (OpenApiSelection s : chosen) {
            if (!rows.containsKey(s.operationId())) {
                throw problem("problem.openapi.noOperation", "The import has no operation ''{0}''", s.operationId());
            }
        }
        Map<String, OpenApiSelection> byId = chosen.stream().collect(Collectors.toMap(OpenApiSelection::operationId, Function.identity(), (a, b) -> b));
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JsonObject row : rows.values()) {
            ImportedOperation op = ImportedOperation.fromJson(row);
            OpenApiSelection selection = byId.get(op.operationId());
            McpTool existing = row.containsKey("toolId") ? em.find(McpTool.class, row.getJsonNumber("toolId").longValue()) : null;
            JsonObject mapping = withReadOnly(op, selection, existing);
            boolean same = existing != null && "unchanged".equals(row.getString("status")) && mapping.equals(existing.getEndpointMapping());
            if (selection == null || op.unsupported() != null || same) {
                skipped.add(op.name());
                continue;
            }
            ToolDraft draft = new ToolDraft(server.getSlug(), op.name(), op.title(), op.description(), op.inputSchema(), op.outputSchema(), mapping);
            try {
                if (existing != null) {
                    tools.updateHttpTool(caller, existing.getId(), draft);
                    updated.add(op.name());
                } else {
                    tools.createHttpTool(caller, draft);
                    created.add(op.name());
                }
            } catch (ToolService.InvalidToolException e) {
                Map<String, Message> named = new LinkedHashMap<>();
                e.problems().forEach((field, message) -> named.put(op.operationId() + "." + field, message));
                throw new ToolService.InvalidToolException(named);
            }
        }
        Map<String, Long> removable = new LinkedHashMap<>();
        preview.getProposal().getJsonArray("removed").getValuesAs(JsonObject.class)
                .forEach(r -> removable.put(r.getString("name"), r.getJsonNumber("toolId").longValue()));
        List<String> removed = new ArrayList<>();
        for (String name : remove) {
            Long id = removable.get(name);
            if (id == null) {
                throw problem("problem.openapi.notRemovable", "''{0}'' is not a tool this import would remove", name);
            }
            tools.delete(caller, id);
            removed.add(name);
        }
        em.remove(preview);
        return new Applied(created, updated, skipped, removed);
    }

    /** The mapping to save: the admin's read/write choice where it differs from the method's, else the tool's earlier one. */
    private static JsonObject withReadOnly(ImportedOperation op, OpenApiSelection selection, McpTool existing) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder(op.endpointMapping());
        JsonValue earlier = existing == null ? null : existing.getEndpointMapping().get("readOnly");
        if (selection != null && selection.readOnly() != null) {
            if (selection.readOnly() != op.readOnly()) {
                b.add("readOnly", selection.readOnly());
            }
        } else if (earlier != null && earlier.getValueType() != JsonValue.ValueType.NULL) {
            b.add("readOnly", earlier);
        }
        return b.build();
    }

    private static boolean fromDocument(McpTool tool, String title) {
        JsonObject mapping = tool.getEndpointMapping();
        return mapping != null && mapping.get("openapi") instanceof JsonObject o && o.get("document") instanceof JsonString d
                && d.getString().equals(title);
    }

    /** The document at a URL, through the upstream rules, at most the size cap. */
    /** The workspace upstream a request names, of the caller's own workspace; it comes without base and credential. */
    private UpstreamDirectory.UpstreamRef workspaceUpstream(Caller caller, OpenApiImportRequest request) {
        if (request.upstream() == null || request.upstream().isBlank()) {
            return null;
        }
        String name = request.upstream().strip();
        UpstreamDirectory.UpstreamRef upstream = directory.named(caller.workspaceId(), name);
        if (request.base() != null && !request.base().isBlank() || request.credential() != null && !request.credential().isBlank()) {
            throw problem("problem.openapi.upstreamAlone", "with upstream, leave base and credential out: the upstream''s base and credential serve");
        }
        return upstream;
    }

    /** The document at a path under a workspace upstream, fetched with its credential. */
    private String fetchUnder(UpstreamDirectory.UpstreamRef upstream, String path, Caller caller) {
        if (!path.startsWith("/")) {
            throw problem("problem.openapi.upstreamUrl", "with upstream, url is a path under its base, starting with /");
        }
        return fetched(http.fetch(upstream, path, caller, maxBytes()), upstream.base() + path);
    }

    private String fetch(String url, String credential, Caller caller) {
        if (!url.startsWith("${") && !url.startsWith("http://") && !url.startsWith("https://")) {
            throw problem("problem.mapping.urlScheme", "url must start with http:// or https:// (or a $'{'{0}...'}' setting)", UpstreamSyntax.SETTING_PREFIX);
        }
        return fetched(http.fetch(url, credential == null || credential.isBlank() ? null : credential.strip(),
                directory.grants(caller.workspaceId()), maxBytes()), url);
    }

    private String fetched(OutboundHttp.Fetched fetched, String url) {
        if (fetched.tooLarge()) {
            throw problem("problem.openapi.tooLarge", "The document is larger than the {0}-byte limit ({1})", maxBytes(), MAX_BYTES_SETTING);
        }
        if (fetched.status() < 200 || fetched.status() >= 300) {
            throw problem("problem.openapi.fetchStatus", "{0} answered HTTP {1}", url, fetched.status());
        }
        return new String(fetched.body(), StandardCharsets.UTF_8);
    }

    /**
     * The tools' base: the request's, else the document's first server URL (a relative one read against the document's
     * URL), written against the operator's base that covers it; it must pass the upstream rules.
     */
    private String base(OpenApiImportRequest request, OpenApiReader.Parsed parsed) {
        String raw = request.base() != null && !request.base().isBlank() ? request.base().strip() : parsed.serverUrl();
        if (raw == null || raw.isBlank()) {
            throw problem("problem.openapi.noBase", "The document names no server URL: give base (a URL, or one starting with $'{'{0}NAME'}')",
                    UpstreamSyntax.SETTING_PREFIX);
        }
        String template;
        if (raw.startsWith("${")) {
            template = raw;
        } else {
            try {
                URI uri = new URI(raw);
                if (!uri.isAbsolute()) {
                    if (request.url() == null || request.url().isBlank()) {
                        throw problem("problem.openapi.relativeBase", "The document''s server URL {0} is relative: give base", raw);
                    }
                    uri = new URI(upstreams.expandBases(request.url().strip())).resolve(uri);
                }
                template = upstreams.asTemplate(uri);
            } catch (URISyntaxException e) {
                throw problem("problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason());
            }
        }
        if (template.endsWith("/")) {
            template = template.substring(0, template.length() - 1);
        }
        try {
            upstreams.checkAtSave(new URI(upstreams.expandBases(template)));
        } catch (URISyntaxException e) {
            throw problem("problem.mapping.urlInvalid", "url is not a valid URL: {0}", e.getReason());
        }
        return template;
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    private static InvalidInputException problem(String key, String english, Object... args) {
        return new InvalidInputException(Message.of(key, english, args));
    }
}
