package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.codemode.control.CodeToolDrift;
import dev.amcp.gateway.editor.control.EditorToolAccess;
import dev.amcp.gateway.editor.control.HttpToolForms;
import dev.amcp.gateway.editor.entity.HttpToolForm;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.tools.control.McpUpstreamInvoker;
import dev.amcp.gateway.tools.control.SchemaInference;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.control.ToolService.InvalidToolException;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Tools: the list (filtered per server), the HTTP tool form (create, edit), delete (of any tool, code tools too), and
 * the test button, which calls the saved tool through {@link ToolExecutor} under the signed-in person's role and
 * proposes an output schema inferred from an object result ({@link SchemaInference}), saved only when accepted. Code
 * tools are edited by {@link CodeToolsServlet}.
 */
@WebServlet({"/admin/tools", "/admin/tools/*"})
public class ToolsServlet extends EditorServlet {

    @Inject
    ToolService tools;

    @Inject
    WorkspaceUpstreams upstreams;

    @Inject
    ToolExecutor executor;

    @Inject
    CodeToolDrift drift;

    private final EditorRoutes<McpTool> routes = EditorRoutes.<McpTool>numbered((caller, id) -> toolOf(tools, caller, id))
            .get("", this::list)
            .get("new", this::blank)
            .post("new", (request, response, caller) -> save(request, response, caller, null))
            .getItem("", this::show)
            .postItem("", this::save)
            .postItem("delete", this::delete)
            .postItem("test", this::test)
            .postItem("output-schema", this::acceptOutputSchema);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void blank(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        HttpToolForm form = new HttpToolForm();
        String server = request.getParameter("server");
        form.setServer(server == null ? "" : server);
        showForm(request, response, caller, form, null, Map.of(), null);
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        if (tool.isCodeTool()) {
            EditorRequests.redirect(request, response, "/admin/code-tools/" + tool.getId());
            return;
        }
        if (McpUpstreamInvoker.METHOD.equals(tool.getMethod())) {
            EditorRequests.redirect(request, response, "/admin/upstream-servers"); // its upstream's page manages it
            return;
        }
        showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null);
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        List<McpServerConfig> servers = workspaces.servers(caller.workspaceId());
        String filter = request.getParameter("server");
        McpServerConfig selected = filter == null || filter.isBlank() ? null
                : servers.stream().filter(s -> s.getSlug().equals(filter)).findFirst().orElse(null);
        List<McpTool> shown = visibleTools(tools, caller).stream()
                .filter(t -> selected == null || t.getServerId().equals(selected.getId())).toList();
        request.setAttribute("servers", servers);
        request.setAttribute("serverSlugs", serverSlugs(caller));
        request.setAttribute("selectedServer", selected == null ? "" : selected.getSlug());
        request.setAttribute("tools", shown);
        request.setAttribute("needsReview", shown.stream().filter(t -> t.isCodeTool() && !drift.of(t).isEmpty())
                .map(McpTool::getId).collect(Collectors.toSet()));
        request.setAttribute("active", "tools");
        render(request, response, "tools");
    }

    private void save(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool existing)
            throws ServletException, IOException {
        if (existing != null && (existing.isCodeTool() || McpUpstreamInvoker.METHOD.equals(existing.getMethod()))) {
            notFound(request, response); // code tools are saved by code mode's form, upstream tools by their refresh
            return;
        }
        HttpToolForm form = HttpToolForms.read(request::getParameter);
        form.setId(existing == null ? null : existing.getId());
        Map<String, String> errors = new LinkedHashMap<>();
        ToolDraft draft = HttpToolForms.toDraft(form, locale(request), errors);
        try {
            if (!errors.isEmpty()) {
                // Show the service's checks of the fields that did parse too, then save nothing.
                Map<String, Message> more = new LinkedHashMap<>();
                tools.checkCommon(caller, draft, existing, more);
                throw new InvalidToolException(more);
            }
            McpTool saved = existing == null ? tools.createHttpTool(caller, draft) : tools.updateHttpTool(caller, existing.getId(), draft);
            EditorRequests.flash(request, msg(request, "tools.saved", saved.getName()));
            EditorRequests.redirect(request, response, "/admin/tools/" + saved.getId());
        } catch (InvalidToolException e) {
            Map<String, String> all = new LinkedHashMap<>(errors);
            HttpToolForms.fieldsOf(msg(request, e.problems())).forEach(all::putIfAbsent);
            response.setStatus(422);
            showForm(request, response, caller, form, existing, all, msg(request, "error.fixFields"));
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            showForm(request, response, caller, form, existing, errors, msg(request, "error.forbidden"));
        }
    }

    private void delete(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        try {
            tools.delete(caller, tool.getId());
            EditorRequests.flash(request, msg(request, "tools.deleted", tool.getName()));
            EditorRequests.redirect(request, response, "/admin/tools");
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
        }
    }

    private void test(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        String argsText = request.getParameter("args") == null ? "" : request.getParameter("args");
        Map<String, String> errors = new LinkedHashMap<>();
        JsonObject args = HttpToolForms.arguments(argsText, locale(request), errors);
        if (errors.isEmpty()) {
            long started = System.nanoTime();
            try {
                ToolResult result = executor.execute(caller, tool, args);
                request.setAttribute("testResult", result.value() != null ? HttpToolForms.pretty(result.value()) : result.text());
                request.setAttribute("testFailed", result.isError());
                if (!result.isError() && result.structuredContent() != null) {
                    // "Infer from this result": a proposal to review; saved only by acceptOutputSchema.
                    request.setAttribute("inferredSchema", HttpToolForms.pretty(SchemaInference.infer(result.structuredContent())));
                }
            } catch (ToolNotAvailableException e) {
                request.setAttribute("testResult", msg(request, "tools.test.notAvailable"));
                request.setAttribute("testFailed", true);
            }
            request.setAttribute("testMillis", (System.nanoTime() - started) / 1_000_000);
        }
        request.setAttribute("testArgs", argsText);
        request.setAttribute("testErrors", errors);
        showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null);
    }

    /** Saves the output schema an admin reviewed (proposed from a test result), through the same checks as the form. */
    private void acceptOutputSchema(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        if (tool.isCodeTool()) {
            notFound(request, response);
            return;
        }
        String text = request.getParameter("outputSchema") == null ? "" : request.getParameter("outputSchema");
        Map<String, String> errors = new LinkedHashMap<>();
        JsonObject schema = HttpToolForms.object(text, "inferredSchema", locale(request), errors);
        try {
            if (errors.isEmpty()) {
                tools.updateHttpTool(caller, tool.getId(), new ToolDraft(serverSlug(caller, tool), tool.getName(), tool.getTitle(),
                        tool.getDescription(), tool.getInputSchema(), schema, tool.getEndpointMapping()));
                EditorRequests.flash(request, msg(request, "tools.infer.saved", tool.getName()));
                EditorRequests.redirect(request, response, "/admin/tools/" + tool.getId());
                return;
            }
        } catch (InvalidToolException e) {
            msg(request, e.problems()).forEach((field, message) -> errors.put("inferredSchema", message));
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
            return;
        }
        response.setStatus(422);
        request.setAttribute("inferredSchema", text);
        request.setAttribute("inferErrors", errors);
        showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null);
    }

    private HttpToolForm formOf(Caller caller, McpTool tool) {
        return HttpToolForms.of(tool, serverSlug(caller, tool), EditorToolAccess.showsMapping(caller));
    }

    private void showForm(HttpServletRequest request, HttpServletResponse response, Caller caller, HttpToolForm form,
                          McpTool existing, Map<String, String> errors, String formError) throws ServletException, IOException {
        request.setAttribute("form", form);
        request.setAttribute("tool", existing);
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("servers", workspaces.servers(caller.workspaceId()));
        request.setAttribute("showMapping", EditorToolAccess.showsMapping(caller));
        request.setAttribute("apis", caller.has(Capability.ADMIN) ? upstreams.list(caller).stream().map(WorkspaceUpstream::getName).toList() : List.of());
        request.setAttribute("methods", List.of("GET", "POST", "PUT", "PATCH", "DELETE"));
        if (request.getAttribute("testArgs") == null) {
            request.setAttribute("testArgs", existing == null ? "{}" : exampleArgs(existing));
        }
        request.setAttribute("active", "tools");
        render(request, response, "tool-form");
    }

    /** A starting point for the test arguments: every property of the input schema, empty. */
    static String exampleArgs(McpTool tool) {
        JsonObject schema = tool.getInputSchema();
        if (schema == null || !schema.containsKey("properties")) {
            return "{}";
        }
        Function<String, String> sample = type -> switch (type) {
            case "integer", "number" -> "0";
            case "boolean" -> "false";
            default -> "\"\"";
        };
        return "{\n" + schema.getJsonObject("properties").entrySet().stream()
                .map(e -> "  \"" + e.getKey() + "\": " + sample.apply(e.getValue() instanceof JsonObject p ? p.getString("type", "string") : "string"))
                .collect(Collectors.joining(",\n")) + "\n}";
    }
}
