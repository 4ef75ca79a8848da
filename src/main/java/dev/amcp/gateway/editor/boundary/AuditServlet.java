package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.AdminAudit;
import dev.amcp.gateway.governance.control.AuditFilters;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The admin audit log with the filters of {@code GET /api/audit} (kind, who, from, to, how many; an operator also by
 * workspace), read through the same {@link AuditFilters} and {@link AdminAudit}: admins see their workspace's changes,
 * operators every change, others are refused by the service's gate.
 */
@WebServlet({"/admin/audit", "/admin/audit/*"})
public class AuditServlet extends EditorServlet {

    @Inject
    AdminAudit audit;

    private final EditorRoutes<Void> routes = EditorRoutes.fixed()
            .get("", this::list)
            .refusedWith("audit.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        var typed = new AuditFilters.Typed(request.getParameter("kind"), request.getParameter("actor"), request.getParameter("since"),
                request.getParameter("until"), request.getParameter("limit"), request.getParameter("workspace"));
        request.setAttribute("filter", Map.of("kind", text(typed.kind()), "actor", text(typed.actor()), "since", text(typed.since()),
                "until", text(typed.until()), "limit", text(typed.limit()), "workspace", text(typed.workspace())));
        request.setAttribute("kinds", AdminChange.KINDS);
        request.setAttribute("operatorView", caller.operator());
        request.setAttribute("active", "audit");
        try {
            var query = AuditFilters.parse(caller, typed, workspaces::idOf);
            request.setAttribute("changes", audit.list(caller, query));
        } catch (InvalidInputException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            request.setAttribute("changes", List.of());
            request.setAttribute("formError", msg(request, e.problem()));
        }
        render(request, response, "audit");
    }

    private static String text(String value) {
        return value == null ? "" : value.strip();
    }
}
