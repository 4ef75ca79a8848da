package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.editor.control.RunViews;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The code-run history ({@code code_runs}) with filters by status, tool, user and date, and the detail of one run
 * with its console tail and bridge trace. The audit is for admins ({@link CodeRunQueries}' gate).
 */
@WebServlet({"/admin/runs", "/admin/runs/*"})
public class RunsServlet extends EditorServlet {

    private static final Pattern RUN_ID = Pattern.compile("[0-9a-fA-F-]{8,64}");
    private static final int PAGE = 100;

    @Inject
    CodeRunQueries runs;

    @Inject
    ToolService tools;

    private final EditorRoutes<CodeRun> routes = EditorRoutes.<CodeRun>keyed(
                    (caller, id) -> RUN_ID.matcher(id).matches() ? runs.find(caller, id).orElse(null) : null)
            .get("", this::list)
            .getItem("", this::show)
            .refusedWith("runs.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, CodeRun run) throws ServletException, IOException {
        request.setAttribute("run", run);
        request.setAttribute("trace", RunViews.traceRows(run.getBridgeTrace()));
        request.setAttribute("usernames", workspaces.usernames(caller.workspaceId()));
        request.setAttribute("active", "runs");
        render(request, response, "run");
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String status = param(request, "status");
        String tool = param(request, "tool");
        String user = param(request, "user");
        String from = param(request, "from");
        String to = param(request, "to");
        Map<Long, String> usernames = workspaces.usernames(caller.workspaceId());
        List<CodeRun> found = runs.list(caller, new CodeRunQueries.Filter(status != null && CodeRun.STATUSES.contains(status) ? status : null, tool, null,
                user, RunViews.dayStart(from, 0), RunViews.dayStart(to, 1), PAGE));
        request.setAttribute("runs", found);
        request.setAttribute("usernames", usernames);
        request.setAttribute("statuses", CodeRun.STATUSES);
        request.setAttribute("toolNames", tools.tools(caller.workspaceId()).stream().filter(McpTool::isCodeTool).map(McpTool::getName).sorted().toList());
        request.setAttribute("filter", Map.of("status", status == null ? "" : status, "tool", tool == null ? "" : tool,
                "user", user == null ? "" : user, "from", from == null ? "" : from, "to", to == null ? "" : to));
        request.setAttribute("active", "runs");
        render(request, response, "runs");
    }

    private static String param(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null || value.isBlank() ? null : value.strip();
    }
}
