package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.sources.control.McpUpstreams;
import dev.amcp.gateway.sources.entity.UpstreamServerRequest;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.PersonalAccounts;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream MCP servers, for workspace admins: the list with each upstream's tools, the registration form, a refresh
 * that shows the same diff as an OpenAPI re-import ({@code POST /{id}/refresh}, review at {@code GET /{id}/refresh}),
 * applying the chosen changes, marking a write tool read-only, and deleting. Everything goes through
 * {@link McpUpstreams}, as over REST; its gates refuse others with the routes' 403 page.
 */
@WebServlet({"/admin/upstream-servers", "/admin/upstream-servers/*"})
public class UpstreamServersServlet extends EditorServlet {

    private static final String PAGE = "/admin/upstream-servers";

    @Inject
    WorkspaceUpstreams workspaceUpstreams;

    @Inject
    McpUpstreams upstreams;

    private final EditorRoutes<UpstreamServer> routes = EditorRoutes.<UpstreamServer>numbered(this::lookup)
            .get("", (request, response, caller) -> show(request, response, caller, Map.of(), null))
            .post("", this::register)
            .postItem("refresh", this::refresh)
            .getItem("refresh", this::review)
            .postItem("apply", this::apply)
            .postItem("read-only", this::markReadOnly)
            .postItem("delete", this::delete);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private UpstreamServer lookup(Caller caller, Long id) {
        try {
            return upstreams.find(caller, id);
        } catch (NoSuchItemException e) {
            return null;
        }
    }

    private void register(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        Map<String, String> form = new LinkedHashMap<>();
        for (String field : List.of("server", "name", "url", "prefix", "credential", "upstream", "accounts", "clientId", "scope")) {
            form.put(field, EditorRequests.field(request, field));
        }
        PersonalAccounts accounts = "true".equals(form.get("accounts"))
                ? new PersonalAccounts(blankToNull(form.get("clientId")),
                        blankToNull(EditorRequests.field(request, "clientSecret")), blankToNull(form.get("scope")))
                : null;
        try {
            JsonObject registered = upstreams.register(caller, new UpstreamServerRequest(blankToNull(form.get("server")), form.get("name"),
                    form.get("url"), form.get("prefix"), blankToNull(form.get("credential")),
                    blankToNull(form.get("upstream")), accounts), EditorRequests.base(request));
            EditorRequests.flash(request, registered.containsKey("connect")
                    ? msg(request, "upstreams.registeredPersonal", form.get("name"))
                    : msg(request, "upstreams.registered", form.get("name"), registered.getJsonArray("tools").size()));
            List<Message> skipped = registered.getJsonArray("skipped").getValuesAs(JsonObject.class).stream()
                    .map(s -> Message.of("upstreams.skipped", "Skipped {0}: {1}", s.getString("name"), s.getString("reason"))).toList();
            EditorRequests.flashWarnings(request, skipped);
            EditorRequests.redirect(request, response, PAGE);
        } catch (GateRefusedException e) {
            throw e;
        } catch (ConflictException e) {
            response.setStatus(HttpServletResponse.SC_CONFLICT);
            show(request, response, caller, form, msg(request, e.problem()));
        } catch (InvalidInputException e) {
            response.setStatus(422);
            show(request, response, caller, form, msg(request, e.problem()));
        }
    }

    private void refresh(HttpServletRequest request, HttpServletResponse response, Caller caller, UpstreamServer upstream)
            throws ServletException, IOException {
        try {
            upstreams.refresh(caller, upstream.getId());
        } catch (InvalidInputException e) {
            EditorRequests.renderError(request, response, 422, msg(request, e.problem()));
            return;
        }
        EditorRequests.redirect(request, response, PAGE + "/" + upstream.getId() + "/refresh");
    }

    private void review(HttpServletRequest request, HttpServletResponse response, Caller caller, UpstreamServer upstream)
            throws ServletException, IOException {
        if (upstream.getPending() == null) {
            notFound(request, response);
            return;
        }
        JsonObject preview = upstreams.preview(upstream);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (JsonObject row : preview.getJsonArray("tools").getValuesAs(JsonObject.class)) {
            rows.add(Map.of("name", row.getString("name"), "status", row.getString("status"),
                    "changes", row.getJsonArray("changes").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()));
        }
        request.setAttribute("upstream", upstream);
        request.setAttribute("rows", rows);
        request.setAttribute("listChanged", preview.getBoolean("listChanged"));
        request.setAttribute("removed", preview.getJsonArray("removed").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList());
        request.setAttribute("active", "upstreams");
        render(request, response, "upstream-refresh");
    }

    private void apply(HttpServletRequest request, HttpServletResponse response, Caller caller, UpstreamServer upstream)
            throws ServletException, IOException {
        List<String> accept = values(request, "tool");
        List<String> remove = values(request, "remove");
        if (accept.isEmpty() && remove.isEmpty()) {
            EditorRequests.renderError(request, response, 422, msg(request, "upstreams.nothingChosen"));
            return;
        }
        try {
            McpUpstreams.Applied applied = upstreams.apply(caller, upstream.getId(), accept, remove);
            EditorRequests.flash(request, msg(request, "upstreams.applied", applied.created().size(), applied.updated().size(), applied.removed().size()));
            EditorRequests.redirect(request, response, PAGE);
        } catch (ToolService.InvalidToolException e) {
            EditorRequests.renderError(request, response, 422, String.join("; ", msg(request, e.problems()).values()));
        } catch (InvalidInputException e) {
            EditorRequests.renderError(request, response, 422, msg(request, e.problem()));
        }
    }

    private void markReadOnly(HttpServletRequest request, HttpServletResponse response, Caller caller, UpstreamServer upstream)
            throws ServletException, IOException {
        String tool = EditorRequests.field(request, "tool");
        try {
            upstreams.markReadOnly(caller, upstream.getId(), tool, "true".equals(EditorRequests.field(request, "readOnly")));
            EditorRequests.flash(request, msg(request, "upstreams.marked", tool));
            EditorRequests.redirect(request, response, PAGE);
        } catch (NoSuchItemException e) {
            notFound(request, response);
        } catch (InvalidInputException e) {
            EditorRequests.renderError(request, response, 422, msg(request, e.problem()));
        }
    }

    private void delete(HttpServletRequest request, HttpServletResponse response, Caller caller, UpstreamServer upstream)
            throws ServletException, IOException {
        upstreams.delete(caller, upstream.getId());
        EditorRequests.flash(request, msg(request, "upstreams.deleted", upstream.getName()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, Map<String, String> form, String formError)
            throws ServletException, IOException {
        List<JsonObject> described = upstreams.list(caller).stream().map(upstreams::describe).toList(); // gated: the routes' 403 page
        List<Map<String, Object>> list = new ArrayList<>();
        for (JsonObject u : described) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", u.getJsonNumber("id").longValue());
            for (String field : List.of("name", "server", "url", "prefix")) {
                row.put(field, u.getString(field));
            }
            row.put("credential", u.isNull("credential") ? "" : u.getString("credential"));
            row.put("upstream", u.isNull("upstream") ? "" : u.getString("upstream"));
            for (String flag : List.of("perPerson", "pending", "listChanged")) {
                row.put(flag, u.getBoolean(flag));
            }
            row.put("tools", u.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                    .map(t -> Map.of("name", t.getString("name"), "readOnly", t.getBoolean("readOnly"), "hintReadOnly", t.getBoolean("hintReadOnly")))
                    .toList());
            list.add(row);
        }
        request.setAttribute("upstreams", list);
        request.setAttribute("form", form);
        request.setAttribute("formError", formError);
        request.setAttribute("servers", workspaces.servers(caller.workspaceId()));
        request.setAttribute("apis", workspaceUpstreams.list(caller).stream().map(WorkspaceUpstream::getName).toList());
        request.setAttribute("active", "upstreams");
        render(request, response, "upstreams");
    }

    private static List<String> values(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        return values == null ? List.of() : Arrays.stream(values).filter(v -> !v.isBlank()).toList();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
