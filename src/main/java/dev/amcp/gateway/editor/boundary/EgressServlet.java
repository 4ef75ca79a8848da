package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.upstreams.control.UpstreamRules;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.EgressRule;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The operator's egress ceiling: the rules that say where workspaces may add upstreams, beside
 * {@code AMCP_UPSTREAM_ALLOWED_HOSTS} (shown read-only). Adding and removing go through {@link WorkspaceUpstreams},
 * whose operator gate refuses everyone else with the routes' 403 page.
 */
@WebServlet({"/admin/egress", "/admin/egress/*"})
public class EgressServlet extends EditorServlet {

    private static final String PAGE = "/admin/egress";

    @Inject
    WorkspaceUpstreams upstreams;

    @Inject
    UpstreamRules rules;

    private final EditorRoutes<Long> routes = EditorRoutes.<Long>numbered((caller, id) -> id)
            .get("", (request, response, caller) -> show(request, response, caller, "", "", null))
            .post("", this::add)
            .post("grants", this::grant)
            .postItem("delete", this::remove)
            .postItem("revoke-grant", this::revokeGrant);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void add(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String rule = EditorRequests.field(request, "rule");
        String note = EditorRequests.field(request, "note");
        EgressRule added;
        try {
            added = upstreams.addEgressRule(caller, rule, note);
        } catch (GateRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            show(request, response, caller, rule, note, refusal(request, response, e));
            return;
        }
        EditorRequests.flash(request, msg(request, "egress.added", added.getRule()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void remove(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        try {
            upstreams.removeEgressRule(caller, id);
        } catch (NoSuchItemException e) {
            notFound(request, response);
            return;
        }
        EditorRequests.flash(request, msg(request, "egress.removed"));
        EditorRequests.redirect(request, response, PAGE);
    }

    /** Grants an operator upstream to a workspace (by slug); a refusal shows beside the grant form. */
    private void grant(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String upstream = EditorRequests.field(request, "upstream");
        String workspace = EditorRequests.field(request, "workspace");
        WorkspaceUpstreams.GrantView granted;
        try {
            granted = upstreams.grant(caller, upstream, workspace);
        } catch (GateRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) { // a ConflictException too: granted already
            request.setAttribute("grantUpstream", upstream); // the form keeps what was chosen
            request.setAttribute("grantWorkspace", workspace);
            request.setAttribute("grantError", refusal(request, response, e));
            show(request, response, caller, "", "", null);
            return;
        }
        EditorRequests.flash(request, msg(request, "egress.granted", granted.upstream(), granted.workspace()));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void revokeGrant(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        try {
            upstreams.revokeGrant(caller, id);
        } catch (NoSuchItemException e) {
            notFound(request, response);
            return;
        }
        EditorRequests.flash(request, msg(request, "egress.revoked"));
        EditorRequests.redirect(request, response, PAGE);
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, String rule, String note, String formError)
            throws ServletException, IOException {
        request.setAttribute("grants", upstreams.grants(caller));
        request.setAttribute("operatorUpstreams", new java.util.TreeSet<>(rules.operatorNames()));
        request.setAttribute("rules", upstreams.egressRules(caller)); // the gate's refusal is the routes' 403 page
        request.setAttribute("allowedHosts", rules.allowedHosts());
        request.setAttribute("rule", rule);
        request.setAttribute("note", note);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "egress");
        render(request, response, "egress");
    }
}
