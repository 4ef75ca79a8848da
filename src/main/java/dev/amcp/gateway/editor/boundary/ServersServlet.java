package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.entity.ServerForm;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.control.WorkspaceService.InvalidServerException;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.ServerDraft;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Servers: the list, and the create and edit form (name, slug, code mode, roles that may use it). */
@WebServlet({"/admin/servers", "/admin/servers/*"})
public class ServersServlet extends EditorServlet {

    @Inject
    ToolService tools;

    private final EditorRoutes<McpServerConfig> routes = EditorRoutes.numbered(this::find)
            .get("", this::list)
            .get("new", this::blank)
            .post("new", (request, response, caller) -> save(request, response, caller, null))
            .getItem("", this::show)
            .postItem("", (request, response, caller, server) -> save(request, response, caller, server.getId()));

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void blank(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        ServerForm form = new ServerForm();
        form.setRoleIds(workspaces.roles(caller.workspaceId()).stream().filter(Role::isAllServers).map(Role::getId)
                .collect(Collectors.toSet()));
        showForm(request, response, caller, form, Map.of(), null);
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, McpServerConfig server)
            throws ServletException, IOException {
        ServerForm form = new ServerForm();
        form.setId(server.getId());
        form.setSlug(server.getSlug());
        form.setName(server.getName());
        form.setDescription(server.getDescription() == null ? "" : server.getDescription());
        form.setCodeMode(server.getCodeMode().wire());
        form.setRoleIds(workspaces.rolesUsing(caller.workspaceId(), server.getId()));
        showForm(request, response, caller, form, Map.of(), null);
    }

    private void save(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        ServerForm form = read(request, id);
        ServerDraft draft = new ServerDraft(form.getSlug(), form.getName(), form.getDescription(), form.getCodeMode(), form.getRoleIds());
        try {
            McpServerConfig saved = id == null ? workspaces.createServer(caller, draft) : workspaces.updateServer(caller, id, draft);
            EditorRequests.flash(request, msg(request, "servers.saved", saved.getName()));
            EditorRequests.redirect(request, response, "/admin/servers");
        } catch (InvalidServerException e) {
            response.setStatus(422);
            showForm(request, response, caller, form, msg(request, e.problems()), msg(request, "error.fixFields"));
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            showForm(request, response, caller, form, Map.of(), msg(request, "error.forbidden"));
        }
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        List<McpServerConfig> servers = workspaces.servers(caller.workspaceId());
        Map<Long, Long> toolCounts = tools.tools(caller.workspaceId()).stream()
                .collect(Collectors.groupingBy(McpTool::getServerId, Collectors.counting()));
        Map<Long, String> roleNames = new LinkedHashMap<>();
        List<Role> roles = workspaces.roles(caller.workspaceId());
        for (McpServerConfig server : servers) {
            Set<Long> using = workspaces.rolesUsing(caller.workspaceId(), server.getId());
            roleNames.put(server.getId(), roles.stream().filter(r -> using.contains(r.getId())).map(Role::getName)
                    .collect(Collectors.joining(", ")));
        }
        Map<Long, Long> counts = new HashMap<>();
        servers.forEach(s -> counts.put(s.getId(), toolCounts.getOrDefault(s.getId(), 0L)));
        request.setAttribute("servers", servers);
        request.setAttribute("toolCounts", counts);
        request.setAttribute("roleNames", roleNames);
        request.setAttribute("active", "servers");
        render(request, response, "servers");
    }

    private void showForm(HttpServletRequest request, HttpServletResponse response, Caller caller, ServerForm form,
                          Map<String, String> errors, String formError) throws ServletException, IOException {
        request.setAttribute("form", form);
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("roles", workspaces.roles(caller.workspaceId()));
        request.setAttribute("active", "servers");
        render(request, response, "server-form");
    }

    private McpServerConfig find(Caller caller, Long id) {
        try {
            return workspaces.serverInWorkspace(caller, id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static ServerForm read(HttpServletRequest request, Long id) {
        ServerForm form = new ServerForm();
        form.setId(id);
        form.setSlug(trim(request.getParameter("slug")));
        form.setName(trim(request.getParameter("name")));
        form.setDescription(trim(request.getParameter("description")));
        form.setCodeMode(trim(request.getParameter("codeMode")));
        Set<Long> roleIds = new TreeSet<>();
        String[] values = request.getParameterValues("roles");
        if (values != null) {
            Arrays.stream(values).forEach(v -> {
                try {
                    roleIds.add(Long.parseLong(v));
                } catch (NumberFormatException e) {
                    roleIds.add(-1L); // reported by the service as an unknown role
                }
            });
        }
        form.setRoleIds(roleIds);
        return form;
    }

    private static String trim(String s) {
        return s == null ? "" : s.strip();
    }
}
