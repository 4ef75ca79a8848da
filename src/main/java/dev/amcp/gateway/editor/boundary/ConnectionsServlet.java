package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.sources.control.McpUpstreams;
import dev.amcp.gateway.upstreams.control.UpstreamAccounts;
import dev.amcp.gateway.upstreams.entity.PendingConnection;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * "Your accounts": the per-person upstream MCP servers of the workspace, where each person connects their own account
 * ({@code GET /{id}/connect} sends the browser to the server's sign-in, as the single sign-on start does: the page's
 * CSP allows forms to post only to the gateway, redirects included; {@code /callback} is where it comes back) or
 * disconnects it; admins also see everyone's accounts and revoke them. The connection started is kept in the session
 * by its {@code state} ({@link PendingConnection}), so only this browser and person can finish it.
 */
@WebServlet({"/admin/connections", "/admin/connections/*"})
public class ConnectionsServlet extends EditorServlet {

    private static final String PENDING = "amcp.connections.pending";
    /** Connections one session may have started at once (tabs); older ones are dropped. */
    private static final int MAX_PENDING = 5;

    @Inject
    UpstreamAccounts accounts;

    @Inject
    McpUpstreams upstreams;

    private final EditorRoutes<Long> routes = EditorRoutes.<Long>numbered((caller, id) -> id)
            .get("", this::show)
            .get("callback", this::callback)
            .getItem("connect", this::connect)
            .postItem("disconnect", this::disconnect)
            .postItem("revoke", this::revoke);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        Map<Long, UpstreamAccounts.AccountView> mine = new LinkedHashMap<>();
        accounts.mine(caller).forEach(a -> mine.put(a.upstreamServerId(), a));
        List<Map<String, Object>> rows = new ArrayList<>();
        boolean admin = caller.has(Capability.ADMIN);
        for (UpstreamServer server : accounts.perPersonServers(caller)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", server.getId());
            row.put("name", server.getName());
            row.put("mine", mine.get(server.getId()));
            row.put("everyone", admin ? accounts.accounts(caller, server.getId()) : List.of());
            rows.add(row);
        }
        request.setAttribute("servers", rows);
        request.setAttribute("admin", admin);
        request.setAttribute("active", "connections");
        render(request, response, "connections");
    }

    private void connect(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        PendingConnection pending;
        try {
            pending = accounts.start(caller, id);
        } catch (NoSuchItemException e) {
            notFound(request, response);
            return;
        } catch (InvalidInputException e) {
            EditorRequests.renderError(request, response, 422, msg(request, e.problem()));
            return;
        }
        EditorRequests.keepStarted(request, PENDING, pending.state(), pending, MAX_PENDING);
        response.sendRedirect(pending.authorizationUrl());
    }

    /**
     * The authorization server's answer: the connection this session started with that state, finished for this
     * person. An admin's first connection at a server that was never listed creates its tools.
     */
    private void callback(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        PendingConnection pending = EditorRequests.takeStarted(request, PENDING, request.getParameter("state"));
        if (pending == null) {
            EditorRequests.renderError(request, response, 400, msg(request, "connections.unknownState"));
            return;
        }
        String error = request.getParameter("error");
        if (error != null) {
            EditorRequests.renderError(request, response, 400, msg(request, "connections.denied", Texts.printable(error, 100)));
            return;
        }
        try {
            UpstreamAccounts.AccountView connected = accounts.finish(caller, pending, request.getParameter("code"));
            Optional<JsonObject> listed = caller.has(Capability.ADMIN) ? upstreams.listFirstTime(caller, pending.upstreamServerId()) : Optional.empty();
            EditorRequests.flash(request, listed.isPresent()
                    ? msg(request, "connections.listed", connected.upstreamServer(), listed.get().getJsonArray("tools").size())
                    : msg(request, "connections.connected", connected.upstreamServer()));
            EditorRequests.redirect(request, response, UpstreamAccounts.PAGE);
        } catch (NoSuchItemException e) {
            notFound(request, response);
        } catch (InvalidInputException e) {
            EditorRequests.renderError(request, response, 422, msg(request, e.problem()));
        }
    }

    private void disconnect(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        try {
            accounts.disconnect(caller, id);
            EditorRequests.flash(request, msg(request, "connections.disconnected"));
            EditorRequests.redirect(request, response, UpstreamAccounts.PAGE);
        } catch (NoSuchItemException e) {
            notFound(request, response);
        }
    }

    private void revoke(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        try {
            accounts.revoke(caller, id, Long.parseLong(EditorRequests.field(request, "userId")));
            EditorRequests.flash(request, msg(request, "connections.revoked"));
            EditorRequests.redirect(request, response, UpstreamAccounts.PAGE);
        } catch (NoSuchItemException | NumberFormatException e) {
            notFound(request, response);
        }
    }
}
