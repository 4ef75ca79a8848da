package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.AdminForms;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.workspace.control.RoleAdministration;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.RoleDraft;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;

/**
 * Roles of the workspace, for its admins: the list with the new-role form, a role's capabilities (with
 * {@code inlineCode}) and server scope (every server, or a chosen list), and delete. Built-in roles are re-scoped and
 * given capabilities but never deleted, and a role someone holds is not deleted: {@link RoleAdministration}, the
 * service of the REST API, decides both.
 */
@WebServlet({"/admin/roles", "/admin/roles/*"})
public class RolesServlet extends EditorServlet {

    @Inject
    RoleAdministration roles;

    private final EditorRoutes<RoleAdministration.RoleRow> routes = EditorRoutes.<RoleAdministration.RoleRow>keyed(
                    (caller, name) -> roles.list(caller).stream().filter(r -> r.role().getName().equals(name)).findFirst().orElse(null))
            .get("", (request, response, caller) -> list(request, response, caller, new RoleDraft("", Set.of(), true, null), null))
            .post("", this::create)
            .getItem("", (request, response, caller, role) -> edit(request, response, caller, role, draftOf(role), null))
            .postItem("", this::update)
            .postItem("delete", this::delete)
            .refusedWith("roles.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller, RoleDraft typed, String formError)
            throws ServletException, IOException {
        request.setAttribute("roles", roles.list(caller));
        showForm(request, caller, typed, formError);
        render(request, response, "roles");
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        RoleDraft draft = AdminForms.role(AdminForms.trim(request.getParameter("name")), request::getParameter, request::getParameterValues);
        try {
            RoleAdministration.RoleRow created = roles.create(caller, draft);
            EditorRequests.flash(request, msg(request, "roles.created", created.role().getName()));
            EditorRequests.redirect(request, response, "/admin/roles/" + created.role().getName());
        } catch (IllegalArgumentException e) {
            list(request, response, caller, draft, refusal(request, response, e));
        }
    }

    private void edit(HttpServletRequest request, HttpServletResponse response, Caller caller, RoleAdministration.RoleRow role,
                      RoleDraft typed, String formError) throws ServletException, IOException {
        request.setAttribute("role", role);
        showForm(request, caller, typed, formError);
        render(request, response, "role-form");
    }

    private void update(HttpServletRequest request, HttpServletResponse response, Caller caller, RoleAdministration.RoleRow role)
            throws ServletException, IOException {
        String name = role.role().getName();
        RoleDraft draft = AdminForms.role(name, request::getParameter, request::getParameterValues);
        try {
            roles.update(caller, name, draft);
            EditorRequests.flash(request, msg(request, "roles.saved", name));
            EditorRequests.redirect(request, response, "/admin/roles/" + name);
        } catch (IllegalArgumentException e) {
            edit(request, response, caller, role, draft, refusal(request, response, e));
        }
    }

    private void delete(HttpServletRequest request, HttpServletResponse response, Caller caller, RoleAdministration.RoleRow role)
            throws ServletException, IOException {
        String name = role.role().getName();
        try {
            roles.delete(caller, name);
            EditorRequests.flash(request, msg(request, "roles.deleted", name));
            EditorRequests.redirect(request, response, "/admin/roles");
        } catch (IllegalArgumentException e) {
            edit(request, response, caller, role, draftOf(role), refusal(request, response, e));
        }
    }

    private void showForm(HttpServletRequest request, Caller caller, RoleDraft typed, String formError) {
        request.setAttribute("typed", typed);
        request.setAttribute("capabilities", AdminForms.CAPABILITIES);
        request.setAttribute("servers", workspaces.servers(caller.workspaceId()).stream().map(McpServerConfig::getSlug).toList());
        request.setAttribute("formError", formError);
        request.setAttribute("active", "roles");
    }

    private static RoleDraft draftOf(RoleAdministration.RoleRow row) {
        return new RoleDraft(row.role().getName(), row.role().getCapabilities(), row.servers() == null,
                row.servers() == null ? null : Set.copyOf(row.servers()), row.role().isApproveWrites());
    }
}
