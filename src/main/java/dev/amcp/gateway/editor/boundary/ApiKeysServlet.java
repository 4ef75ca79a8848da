package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.entity.ApiKey;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** API keys of the workspace: the list, create (the key is shown once, on the next page) and revoke. */
@WebServlet({"/admin/keys", "/admin/keys/*"})
public class ApiKeysServlet extends EditorServlet {

    private static final String NEW_KEY = "amcp.newKey";

    @Inject
    ApiKeyService apiKeys;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getPathInfo() != null && !"/".equals(request.getPathInfo())) {
            notFound(request, response);
            return;
        }
        var session = request.getSession();
        Object newKey = session.getAttribute(NEW_KEY);
        if (newKey != null) {
            session.removeAttribute(NEW_KEY); // shown exactly once
            request.setAttribute("newKey", newKey);
        }
        show(request, response, caller(request), "", "", Map.of(), null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        Caller caller = caller(request);
        String path = request.getPathInfo();
        if (path == null || "/".equals(path)) {
            create(request, response, caller);
            return;
        }
        Long id = EditorRequests.idOf(path);
        if (id == null || !"revoke".equals(EditorRequests.actionOf(path))) {
            notFound(request, response);
            return;
        }
        try {
            if (!apiKeys.revoke(caller, id)) {
                notFound(request, response);
                return;
            }
            EditorRequests.flash(request, msg(request, "keys.revoked"));
            EditorRequests.redirect(request, response, "/admin/keys");
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
        }
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String name = request.getParameter("name") == null ? "" : request.getParameter("name").strip();
        String role = request.getParameter("role") == null ? "" : request.getParameter("role").strip();
        Map<String, String> errors = new LinkedHashMap<>();
        if (name.isEmpty() || name.length() > 200) {
            errors.put("name", msg(request, "error.required"));
        }
        if (!role.isEmpty() && workspaces.roles(caller.workspaceId()).stream().noneMatch(r -> r.getName().equals(role))) {
            errors.put("role", msg(request, "keys.error.role"));
        }
        if (!errors.isEmpty()) {
            response.setStatus(422);
            show(request, response, caller, name, role, errors, msg(request, "error.fixFields"));
            return;
        }
        try {
            ApiKeyService.IssuedKey issued = apiKeys.issue(caller, name, role.isEmpty() ? null : role);
            request.getSession().setAttribute(NEW_KEY, issued.plaintext());
            EditorRequests.redirect(request, response, "/admin/keys");
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            show(request, response, caller, name, role, errors, msg(request, "error.forbidden"));
        }
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, String name, String role,
                      Map<String, String> errors, String formError) throws ServletException, IOException {
        List<ApiKey> keys = apiKeys.keys(caller.workspaceId());
        Map<Long, String> roleNames = workspaces.roles(caller.workspaceId()).stream()
                .collect(Collectors.toMap(Role::getId, Role::getName));
        request.setAttribute("keys", keys);
        request.setAttribute("roles", workspaces.roles(caller.workspaceId()));
        request.setAttribute("roleNames", roleNames);
        request.setAttribute("usernames", workspaces.usernames(caller.workspaceId()));
        request.setAttribute("keyName", name);
        request.setAttribute("keyRole", role);
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("now", java.time.Instant.now());
        request.setAttribute("active", "keys");
        render(request, response, "keys");
    }
}
