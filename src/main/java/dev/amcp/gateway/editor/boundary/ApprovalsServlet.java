package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.codemode.control.WriteApprovals;
import dev.amcp.gateway.codemode.entity.CodeApproval;
import dev.amcp.gateway.editor.control.HttpToolForms;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The approvals inbox: the writes paused code runs wait to have approved, each with its tool, arguments and summary,
 * and who asked; a workspace admin approves (the run resumes now, through {@link WriteApprovals}) or refuses.
 */
@WebServlet({"/admin/approvals", "/admin/approvals/*"})
public class ApprovalsServlet extends EditorServlet {

    @Inject
    WriteApprovals approvals;

    private final EditorRoutes<CodeApproval> routes = EditorRoutes.keyed(this::find)
            .get("", (request, response, caller) -> list(request, response, caller, null))
            .postItem("approve", (request, response, caller, approval) -> decide(request, response, caller, approval, approvals::approve))
            .postItem("refuse", (request, response, caller, approval) -> decide(request, response, caller, approval, approvals::refuse))
            .refusedWith("approvals.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller, String formError)
            throws ServletException, IOException {
        List<CodeApproval> pending = approvals.pending(caller);
        Map<String, String> args = new LinkedHashMap<>();
        pending.forEach(a -> args.put(a.getId(), HttpToolForms.pretty(a.getPlannedArgs())));
        request.setAttribute("approvals", pending);
        request.setAttribute("plannedArgs", args);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "approvals");
        render(request, response, "approvals");
    }

    private void decide(HttpServletRequest request, HttpServletResponse response, Caller caller, CodeApproval approval,
                        BiFunction<Caller, String, CodeApproval> decision) throws ServletException, IOException {
        try {
            CodeApproval decided = decision.apply(caller, approval.getId());
            EditorRequests.flash(request, msg(request, "approvals.decided." + decided.getStatus().toLowerCase(), decided.getToolName()));
            EditorRequests.redirect(request, response, "/admin/approvals");
        } catch (ConflictException e) { // decided meanwhile, or expired
            list(request, response, caller, refusal(request, response, e));
        }
    }

    /** An approval of the caller's workspace; {@code null} when there is none. */
    private CodeApproval find(Caller caller, String id) {
        try {
            return approvals.shown(caller, id);
        } catch (NoSuchItemException e) {
            return null;
        }
    }
}
