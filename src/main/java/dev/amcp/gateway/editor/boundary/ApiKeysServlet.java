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

    private final EditorRoutes<Long> routes = EditorRoutes.<Long>numbered((caller, id) -> id)
            .get("", this::list)
            .post("", this::create)
            .postItem("revoke", this::revoke);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        request.setAttribute("newKey", EditorRequests.takeOnce(request, NEW_KEY)); // shown exactly once
        show(request, response, caller, "", "", Map.of(), null);
    }

    private void revoke(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        if (!apiKeys.revoke(caller, id)) {
            notFound(request, response);
            return;
        }
        EditorRequests.flash(request, msg(request, "keys.revoked"));
        EditorRequests.redirect(request, response, "/admin/keys");
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String name = EditorRequests.field(request, "name");
        String role = EditorRequests.field(request, "role");
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
            EditorRequests.keepOnce(request, NEW_KEY, issued.plaintext());
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
