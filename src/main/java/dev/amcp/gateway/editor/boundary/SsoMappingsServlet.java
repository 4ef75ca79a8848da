package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.OidcCodeFlow;
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
 * gate is on {@link SsoRoleMappings}, so other people get the routes' 403 page, and the entry is shown to admins only.
 */
@WebServlet({"/admin/sso-mappings", "/admin/sso-mappings/*"})
public class SsoMappingsServlet extends EditorServlet {

    @Inject
    SsoRoleMappings mappings;

    @Inject
    OidcCodeFlow sso;

    private final EditorRoutes<Long> routes = EditorRoutes.<Long>numbered((caller, id) -> id)
            .get("", (request, response, caller) -> show(request, response, caller, "", "", Map.of(), null))
            .post("", this::create)
            .postItem("delete", this::delete);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void delete(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        if (!mappings.delete(caller, id)) {
            notFound(request, response);
            return;
        }
        EditorRequests.flash(request, msg(request, "sso.mappings.deleted"));
        EditorRequests.redirect(request, response, "/admin/sso-mappings");
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String value = EditorRequests.field(request, "claimValue");
        String role = EditorRequests.field(request, "role");
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
        request.setAttribute("mappings", mappings.list(caller)); // the gate's refusal is the routes' 403 page
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
