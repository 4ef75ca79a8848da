package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.CredentialDraft;
import dev.amcp.gateway.upstreams.entity.UpstreamCredential;
import dev.amcp.gateway.upstreams.entity.UpstreamDraft;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workspace's company APIs (upstreams) and their credentials, for its admins: the list with each credential's kind
 * and fingerprint (never its secret), the add form, a credential form per upstream, and removing either. Everything
 * goes through {@link WorkspaceUpstreams}, as over REST; its gates refuse others with the routes' 403 page.
 */
@WebServlet({"/admin/apis", "/admin/apis/*"})
public class ApisServlet extends EditorServlet {

    private static final String PAGE = "/admin/apis";

    /** One upstream as the page shows it; {@code credential} holds what may be shown, or is null. */
    public record ApiRow(long id, String name, String baseUrl, String description, JsonObject credential) {}

    @Inject
    WorkspaceUpstreams upstreams;

    private final EditorRoutes<WorkspaceUpstream> routes = EditorRoutes.<WorkspaceUpstream>numbered(this::lookup)
            .get("", (request, response, caller) -> show(request, response, caller, Map.of(), null, null))
            .post("", this::create)
            .postItem("credential", this::setCredential)
            .postItem("credential/delete", this::clearCredential)
            .postItem("delete", this::delete);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private WorkspaceUpstream lookup(Caller caller, Long id) {
        try {
            return upstreams.find(caller, id);
        } catch (NoSuchItemException e) {
            return null;
        }
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        Map<String, String> form = fields(request, "name", "baseUrl", "description");
        try {
            upstreams.create(caller, new UpstreamDraft(form.get("name"), form.get("baseUrl"), form.get("description")));
        } catch (GateRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            show(request, response, caller, form, refusal(request, response, e), null);
            return;
        }
        EditorRequests.flash(request, msg(request, "apis.added", form.get("name")));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void setCredential(HttpServletRequest request, HttpServletResponse response, Caller caller, WorkspaceUpstream upstream)
            throws ServletException, IOException {
        String kind = EditorRequests.field(request, "kind");
        JsonObjectBuilder params = JsonSupport.JSON.createObjectBuilder();
        UpstreamCredential.paramNames(kind).forEach(field -> {
            String value = EditorRequests.field(request, kind + "-" + field);
            if (!value.isEmpty()) {
                params.add(field, value);
            }
        });
        try {
            upstreams.setCredential(caller, upstream.getId(), new CredentialDraft(kind, params.build(), request.getParameter("secret")));
        } catch (GateRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            show(request, response, caller, Map.of(), null, Map.of(upstream.getId(), refusal(request, response, e)));
            return;
        }
        EditorRequests.flash(request, msg(request, "apis.credentialSet", upstream.getName()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void clearCredential(HttpServletRequest request, HttpServletResponse response, Caller caller, WorkspaceUpstream upstream)
            throws ServletException, IOException {
        try {
            upstreams.clearCredential(caller, upstream.getId());
        } catch (NoSuchItemException e) {
            notFound(request, response);
            return;
        }
        EditorRequests.flash(request, msg(request, "apis.credentialRemoved", upstream.getName()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void delete(HttpServletRequest request, HttpServletResponse response, Caller caller, WorkspaceUpstream upstream)
            throws ServletException, IOException {
        try {
            upstreams.delete(caller, upstream.getId());
        } catch (GateRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            show(request, response, caller, Map.of(), null, Map.of(upstream.getId(), refusal(request, response, e)));
            return;
        }
        EditorRequests.flash(request, msg(request, "apis.deleted", upstream.getName()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, Map<String, String> form, String formError,
                      Map<Long, String> rowErrors) throws ServletException, IOException {
        Map<Long, UpstreamCredential> credentials = upstreams.credentials(caller);
        List<ApiRow> rows = upstreams.list(caller).stream().map(u -> {
            UpstreamCredential c = credentials.get(u.getId());
            return new ApiRow(u.getId(), u.getName(), u.getBaseUrl(), u.getDescription(), c == null ? null : WorkspaceUpstreams.describe(c));
        }).toList();
        request.setAttribute("apis", rows);
        request.setAttribute("operatorApis", upstreams.grantedOperatorBases(caller));
        request.setAttribute("form", form);
        request.setAttribute("formError", formError);
        request.setAttribute("rowErrors", rowErrors == null ? Map.of() : rowErrors);
        request.setAttribute("kinds", UpstreamCredential.KINDS);
        request.setAttribute("active", "apis");
        render(request, response, "apis");
    }

    private static Map<String, String> fields(HttpServletRequest request, String... names) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String name : names) {
            form.put(name, EditorRequests.field(request, name));
        }
        return form;
    }
}
