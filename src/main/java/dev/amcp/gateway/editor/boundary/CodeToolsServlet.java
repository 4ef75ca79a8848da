package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.control.CodeCheck;
import dev.amcp.gateway.codemode.control.CodeToolDrift;
import dev.amcp.gateway.codemode.control.CodeToolReplay;
import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.editor.control.CodeToolForms;
import dev.amcp.gateway.editor.control.EditorToolAccess;
import dev.amcp.gateway.editor.control.HttpToolForms;
import dev.amcp.gateway.editor.control.RunViews;
import dev.amcp.gateway.editor.entity.CodeToolForm;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.control.ToolService.InvalidToolException;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The code tool form (create, edit) with its CodeMirror editor, and the test run, which runs the saved tool through
 * {@link ToolExecutor} and the real runner, then shows the run's audit row: result, console and bridge trace.
 * A tool whose used tools changed their schemas since its save shows what changed ("needs review") until it is saved
 * again. Deleting a code tool goes through the tools page like any tool.
 */
@WebServlet({"/admin/code-tools", "/admin/code-tools/*"})
public class CodeToolsServlet extends EditorServlet {

    @Inject
    ToolService tools;

    @Inject
    CodeToolService codeTools;

    @Inject
    ToolExecutor executor;

    @Inject
    CodeRunQueries runs;

    @Inject
    LicenseService licenses;

    @Inject
    CodeToolDrift drift;

    @Inject
    CodeToolReplay replays;

    private final EditorRoutes<McpTool> routes = EditorRoutes.<McpTool>numbered(this::codeToolOf)
            .get("new", this::blank)
            .post("new", (request, response, caller) -> save(request, response, caller, null))
            .post("analyze", this::analyze)
            .getItem("", (request, response, caller, tool) -> showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null))
            .postItem("", this::save)
            .postItem("test", this::test)
            .postItem("replay", this::replay);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void blank(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        CodeToolForm form = new CodeToolForm();
        String server = request.getParameter("server");
        form.setServer(server == null ? "" : server);
        showForm(request, response, caller, form, null, Map.of(), null);
    }

    private McpTool codeToolOf(Caller caller, Long id) {
        McpTool tool = toolOf(tools, caller, id);
        return tool != null && tool.isCodeTool() ? tool : null;
    }

    private void save(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool existing)
            throws ServletException, IOException {
        CodeToolForm form = CodeToolForms.read(request::getParameter, request::getParameterValues);
        form.setId(existing == null ? null : existing.getId());
        Map<String, String> errors = new LinkedHashMap<>();
        CodeToolDraft draft = CodeToolForms.toDraft(form, locale(request), errors);
        try {
            if (!errors.isEmpty()) {
                // Show the service's checks of the fields that did parse too, then save nothing.
                Map<String, Message> more = new LinkedHashMap<>();
                tools.checkCommon(caller, draft.tool(), existing, more);
                throw new InvalidToolException(more);
            }
            Gated<McpTool> saved = existing == null ? codeTools.create(caller, draft) : codeTools.update(caller, existing.getId(), draft);
            EditorRequests.flash(request, msg(request, "tools.saved", saved.value().getName()));
            EditorRequests.flashWarnings(request, saved.warnings());
            EditorRequests.redirect(request, response, "/admin/code-tools/" + saved.value().getId());
        } catch (InvalidToolException e) {
            Map<String, String> all = new LinkedHashMap<>(errors);
            msg(request, e.problems()).forEach(all::putIfAbsent);
            response.setStatus(422);
            showForm(request, response, caller, form, existing, all, msg(request, "error.fixFields"));
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            showForm(request, response, caller, form, existing, errors, msg(request, "error.gate", msg(request, e.reason())));
        }
    }

    /**
     * The runner's reading of the code in the editor, for its pre-filled {@code uses}, as JSON: {@code {"checked",
     * "names": [...], "problems": [{"line", "column", "message"}], "computed": [{"line", "column", "reason"}]}}.
     */
    private void analyze(HttpServletRequest request, HttpServletResponse response, Caller caller) throws IOException {
        CodeCheck.Verdict verdict = codeTools.analyze(caller, request.getParameter("code"));
        response.setContentType("application/json;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(CodeToolForms.analysis(verdict));
    }

    private void test(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        String inputText = request.getParameter("input") == null ? "" : request.getParameter("input");
        Map<String, String> errors = new LinkedHashMap<>();
        JsonObject input = CodeToolForms.input(inputText, locale(request), errors);
        if (errors.isEmpty()) {
            Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            boolean dryRun = "true".equals(request.getParameter("dryRun"));
            try {
                // A dry run: reads live, writes planned and never made, as with MCP's _meta "amcp/dryRun".
                ToolResult result = new CallContext(null, null, dryRun).run(() -> executor.execute(caller, tool, input));
                if (dryRun) {
                    request.setAttribute("testDryRun", true);
                    request.setAttribute("plannedWrites", plannedWrites(result));
                }
                request.setAttribute("testResult", result.value() != null ? HttpToolForms.pretty(result.value()) : result.text());
                request.setAttribute("testFailed", result.isError());
                request.setAttribute("testRun", newestRun(caller, tool, before));
            } catch (ToolNotAvailableException e) {
                request.setAttribute("testResult", msg(request, "tools.test.notAvailable"));
                request.setAttribute("testFailed", true);
            }
        }
        request.setAttribute("testInput", inputText);
        request.setAttribute("testErrors", errors);
        showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null);
    }

    private static List<Map<String, String>> plannedWrites(ToolResult result) {
        if (result.meta() == null || !(result.meta().get(ToolResult.META_PLANNED_WRITES) instanceof JsonArray planned)) {
            return List.of();
        }
        return planned.getValuesAs(JsonObject.class).stream()
                .map(w -> Map.of("tool", w.getString("tool", ""), "args", String.valueOf(w.get("args")))).toList();
    }

    /** "Try this code against run #N": replays a recorded run with the code in the box; no tool is called. */
    private void replay(HttpServletRequest request, HttpServletResponse response, Caller caller, McpTool tool)
            throws ServletException, IOException {
        String runId = request.getParameter("runId");
        String code = request.getParameter("code");
        try {
            CodeToolReplay.Replay replay = replays.replay(caller, tool.getId(), runId, code == null || code.isBlank() ? null : code);
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("status", replay.status().name());
            JsonObject json = replay.json();
            view.put("same", json.getBoolean("same"));
            view.put("oldValue", replay.oldWithheld() ? msg(request, "codeTools.replay.oldWithheld")
                    : replay.oldValue() == null ? "" : HttpToolForms.pretty(replay.oldValue()));
            view.put("newValue", replay.newValue() == null ? "" : HttpToolForms.pretty(replay.newValue()));
            view.put("error", replay.error());
            if (replay.diverged() != null) {
                view.put("diverged", Map.of("reason", replay.diverged().reason(), "callIndex", replay.diverged().callIndex(),
                        "tool", replay.diverged().tool(), "args", String.valueOf(replay.diverged().args())));
            }
            request.setAttribute("replay", view);
        } catch (IllegalArgumentException e) { // a run that is not this tool's, or cannot be replayed: said, nothing run
            request.setAttribute("replayError", e instanceof InvalidInputException invalid ? msg(request, invalid.problem()) : e.getMessage());
        } catch (GateRefusedException e) {
            request.setAttribute("replayError", msg(request, "error.gate", msg(request, e.reason())));
        }
        request.setAttribute("replayRunId", runId);
        request.setAttribute("replayCode", code);
        showForm(request, response, caller, formOf(caller, tool), tool, Map.of(), null);
    }

    private CodeToolForm formOf(Caller caller, McpTool tool) {
        return CodeToolForms.of(tool, serverSlug(caller, tool), EditorToolAccess.showsMapping(caller));
    }

    /** The audit row of the run just made: the newest run of this tool by this person since the click. */
    private CodeRun newestRun(Caller caller, McpTool tool, Instant since) {
        try {
            List<CodeRun> found = runs.list(caller, new CodeRunQueries.Filter(null, tool.getName(), caller.userId(), since, null, 1));
            return found.isEmpty() ? null : found.get(0);
        } catch (GateRefusedException e) {
            return null; // only admins read the audit; others see the result alone
        }
    }

    private void showForm(HttpServletRequest request, HttpServletResponse response, Caller caller, CodeToolForm form,
                          McpTool existing, Map<String, String> errors, String formError) throws ServletException, IOException {
        List<McpTool> callable = visibleTools(tools, caller).stream().filter(t -> !t.isCodeTool()).toList();
        if (existing == null && form.getUses().isEmpty() && !form.getCode().isBlank()) {
            try {
                form.setUses(codeTools.analyze(caller, form.getCode()).toolNames());
            } catch (GateRefusedException e) {
                // not an admin: the form already shows why nothing was saved
            }
        }
        request.setAttribute("form", form);
        request.setAttribute("tool", existing);
        request.setAttribute("drift", existing == null ? List.of() : drift.of(existing));
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("servers", workspaces.servers(caller.workspaceId()));
        request.setAttribute("showMapping", EditorToolAccess.showsMapping(caller));
        request.setAttribute("callable", callable);
        request.setAttribute("completions", CodeToolForms.completions(callable));
        request.setAttribute("writesLicensed", licenses.current().allowsWrites());
        request.setAttribute("approvals", dev.amcp.gateway.codemode.entity.CodeToolSpec.APPROVALS);
        request.setAttribute("edition", licenses.current().edition().wire());
        if (request.getAttribute("testInput") == null) {
            request.setAttribute("testInput", existing == null ? "{}" : ToolsServlet.exampleArgs(existing));
        }
        CodeRun run = (CodeRun) request.getAttribute("testRun");
        if (run != null) {
            request.setAttribute("testTrace", RunViews.traceRows(run.getBridgeTrace()));
        }
        if (existing != null) {
            if (request.getAttribute("replayCode") == null) {
                request.setAttribute("replayCode", form.getCode());
            }
            try {
                request.setAttribute("recordedRuns", replays.replayable(caller, existing.getId(), 20));
            } catch (GateRefusedException e) {
                request.setAttribute("recordedRuns", List.of()); // replays need tools.write
            }
        }
        request.setAttribute("active", "tools");
        render(request, response, "code-tool");
    }
}
