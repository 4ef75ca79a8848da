package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorMessages;
import dev.amcp.gateway.editor.control.EditorToolAccess;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Locale;
import java.util.Map;

/**
 * Base of the signed-in editor pages: turns the login into a {@link Caller} before any handler runs, then hands the
 * request to the page's {@link #routes()}. A user who was disabled or deleted since signing in is signed out.
 */
abstract class EditorServlet extends HttpServlet {

    @Inject
    WorkspaceService workspaces;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        Principal principal = request.getUserPrincipal();
        Caller caller = principal == null ? null : workspaces.callerForUser(principal.getName()).orElse(null);
        if (caller == null) {
            var session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            request.logout();
            EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE);
            return;
        }
        request.setAttribute(EditorRequests.CALLER, caller);
        EditorRoutes<?> routes = routes();
        if (routes != null && EditorRoutes.serves(request)) {
            routes.serve(request, response, caller);
            return;
        }
        super.service(request, response);
    }

    /**
     * The page's routes ({@link EditorRoutes}), built once, e.g. in a field initialiser; {@code null} (the default) for a
     * page that answers {@code doGet} and {@code doPost} itself.
     */
    protected EditorRoutes<?> routes() {
        return null;
    }

    static Caller caller(HttpServletRequest request) {
        return (Caller) request.getAttribute(EditorRequests.CALLER);
    }

    static Locale locale(HttpServletRequest request) {
        return EditorRequests.locale(request);
    }

    static String msg(HttpServletRequest request, String key, Object... args) {
        return EditorMessages.get(locale(request), key, args);
    }

    /** A service's message (a gate's refusal, a field's problem, a notice) in the page's language. */
    static String msg(HttpServletRequest request, Message message) {
        return EditorMessages.get(locale(request), message);
    }

    static Map<String, String> msg(HttpServletRequest request, Map<String, Message> messages) {
        return EditorMessages.get(locale(request), messages);
    }

    static void render(HttpServletRequest request, HttpServletResponse response, String view) throws ServletException, IOException {
        EditorRequests.render(request, response, view);
    }

    /**
     * A tool the caller may see ({@link EditorToolAccess}) by id, or {@code null}: missing, another workspace's, and
     * out of the caller's scope all read the same.
     */
    static McpTool toolOf(ToolService tools, Caller caller, Long id) {
        if (id == null) {
            return null;
        }
        try {
            McpTool tool = tools.findInWorkspace(caller, id);
            return EditorToolAccess.visible(caller, tool) ? tool : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The workspace's tools the caller may see, in the service's order. */
    static java.util.List<McpTool> visibleTools(ToolService tools, Caller caller) {
        return tools.tools(caller.workspaceId()).stream().filter(t -> EditorToolAccess.visible(caller, t)).toList();
    }

    /** The slugs of the workspace's servers by server id. */
    java.util.Map<Long, String> serverSlugs(Caller caller) {
        return workspaces.servers(caller.workspaceId()).stream()
                .collect(java.util.stream.Collectors.toMap(McpServerConfig::getId, McpServerConfig::getSlug));
    }

    String serverSlug(Caller caller, McpTool tool) {
        return workspaces.serverInWorkspace(caller, tool.getServerId()).getSlug();
    }

    static void notFound(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        EditorRequests.renderError(request, response, HttpServletResponse.SC_NOT_FOUND, msg(request, "error.notFound"));
    }
}
