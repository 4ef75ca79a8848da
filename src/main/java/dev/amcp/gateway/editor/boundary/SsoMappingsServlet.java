package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.OidcCodeFlow;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.workspace.control.SsoRoleMappings;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * The workspace's single sign-on mapping, for its admins: which values of the role claim give which role. Lists the
 * rows, adds one ({@code POST /admin/sso-mappings}) and deletes one ({@code POST /admin/sso-mappings/{id}/delete}); the
 * gate is on {@link SsoRoleMappings}, so other people get a 403 page.
 */
@WebServlet({"/admin/sso-mappings", "/admin/sso-mappings/*"})
public class SsoMappingsServlet extends EditorServlet {

    @Inject
    SsoRoleMappings mappings;

    @Inject
    OidcCodeFlow sso;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getPathInfo() != null && !"/".equals(request.getPathInfo())) {
            notFound(request, response);
            return;
        }
        show(request, response, caller(request), "", "", Map.of(), null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        Caller caller = caller(request);
        String path = request.getPathInfo();
        try {
            if (path == null || "/".equals(path)) {
                create(request, response, caller);
                return;
            }
            Long id = EditorRequests.idOf(path);
            if (id == null || !"delete".equals(EditorRequests.actionOf(path)) || !mappings.delete(caller, id)) {
                notFound(request, response);
                return;
            }
            EditorRequests.flash(request, msg(request, "sso.mappings.deleted"));
            EditorRequests.redirect(request, response, "/admin/sso-mappings");
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
        }
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String value = request.getParameter("claimValue") == null ? "" : request.getParameter("claimValue").strip();
        String role = request.getParameter("role") == null ? "" : request.getParameter("role").strip();
        if (value.isEmpty() || value.length() > SsoRoleMappings.MAX_VALUE) {
            response.setStatus(422);
            show(request, response, caller, value, role, Map.of("claimValue", msg(request, "sso.mappings.error.value", SsoRoleMappings.MAX_VALUE)),
                    msg(request, "error.fixFields"));
            return;
        }
        try {
            mappings.create(caller, value, role);
        } catch (ConflictException e) {
            response.setStatus(HttpServletResponse.SC_CONFLICT);
            show(request, response, caller, value, role, Map.of("claimValue", msg(request, "sso.mappings.error.taken", value)),
                    msg(request, "error.fixFields"));
            return;
        } catch (IllegalArgumentException e) {
            response.setStatus(422);
            show(request, response, caller, value, role, Map.of("role", msg(request, "keys.error.role")), msg(request, "error.fixFields"));
            return;
        }
        EditorRequests.flash(request, msg(request, "sso.mappings.added", value, role));
        EditorRequests.redirect(request, response, "/admin/sso-mappings");
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, String value, String role,
                      Map<String, String> errors, String formError) throws ServletException, IOException {
        try {
            request.setAttribute("mappings", mappings.list(caller));
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
            return;
        }
        request.setAttribute("roles", workspaces.roles(caller.workspaceId()));
        request.setAttribute("ssoEnabled", sso.enabled());
        request.setAttribute("roleClaim", sso.roleClaim());
        request.setAttribute("claimValue", value);
        request.setAttribute("mappingRole", role);
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "sso");
        render(request, response, "sso-mappings");
    }
}
