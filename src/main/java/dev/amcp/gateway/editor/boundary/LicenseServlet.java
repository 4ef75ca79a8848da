package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.audit.control.WorkspaceUsage;
import dev.amcp.gateway.editor.control.LicenseUsages;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The license in force: edition, features, the workspace's usage against {@code maxCodeTools} and
 * {@code monthlyCodeRuns} with the soft-limit warnings. The license is the instance's, so only an operator installs a
 * signed license document or removes it ({@code @RequiresOperator} on {@link LicenseService}); an operator belongs to no
 * workspace and sees no usage.
 */
@WebServlet({"/admin/license", "/admin/license/*"})
public class LicenseServlet extends EditorServlet {

    @Inject
    LicenseService licenses;

    @Inject
    WorkspaceUsage usage;

    private final EditorRoutes<Void> routes = EditorRoutes.fixed()
            .get("", (request, response, caller) -> show(request, response, caller, "", null))
            .post("install", this::install)
            .post("remove", this::remove);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void install(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String document = request.getParameter("document") == null ? "" : request.getParameter("document");
        try {
            if (document.isBlank()) {
                response.setStatus(422);
                show(request, response, caller, document, msg(request, "license.error.empty"));
                return;
            }
            LicenseTerms terms = licenses.install(caller, document);
            EditorRequests.flash(request, msg(request, "license.installed", terms.edition().wire(), terms.licensee()));
            EditorRequests.redirect(request, response, "/admin/license");
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            show(request, response, caller, document, msg(request, "error.forbidden"));
        } catch (IllegalArgumentException e) {
            response.setStatus(422);
            show(request, response, caller, document, msg(request, "license.error.invalid", e.getMessage()));
        }
    }

    private void remove(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        try {
            licenses.uninstall(caller);
            EditorRequests.flash(request, msg(request, "license.removed"));
            EditorRequests.redirect(request, response, "/admin/license");
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            show(request, response, caller, "", msg(request, "error.forbidden"));
        }
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, String document, String formError)
            throws ServletException, IOException {
        WorkspaceUsage.Usage used = usage.of(caller.workspaceId());
        request.setAttribute("usage", LicenseUsages.of(licenses.current(), used.codeTools(), used.runsThisMonth(), locale(request)));
        request.setAttribute("document", document);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "license");
        request.setAttribute("manageLicense", caller.operator());
        render(request, response, "license");
    }
}
