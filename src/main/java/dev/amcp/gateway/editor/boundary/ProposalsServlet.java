package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.codemode.control.CodeCheck;
import dev.amcp.gateway.codemode.control.ProposalService;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.editor.control.HttpToolForms;
import dev.amcp.gateway.editor.control.LineDiff;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.control.ToolService.InvalidToolException;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The inbox of code tools proposed by agents ({@code kg_skill_suggestions} of kind {@code code_tool}): review the code
 * with a line diff against an existing tool of the same name, then accept (through {@link ProposalService}, so every
 * gate of a code tool applies) or reject with a note.
 */
@WebServlet({"/admin/proposals", "/admin/proposals/*"})
public class ProposalsServlet extends EditorServlet {

    static final List<String> STATUSES = ProposalService.REVIEW_STATUSES;

    @Inject
    ProposalService proposals;

    @Inject
    ToolService tools;

    @Inject
    CodeCheck codeCheck;

    private final EditorRoutes<SkillSuggestion> routes = EditorRoutes.numbered(this::find)
            .get("", this::list)
            .getItem("", (request, response, caller, proposal) -> show(request, response, caller, proposal, Map.of(), null))
            .postItem("accept", this::accept)
            .postItem("reject", this::reject)
            .refusedWith("proposals.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        String asked = request.getParameter("status");
        String status = asked != null && STATUSES.contains(asked) ? asked : "pending";
        request.setAttribute("proposals", proposals.list(caller, status));
        request.setAttribute("status", status);
        request.setAttribute("statuses", STATUSES);
        request.setAttribute("serverSlugs", serverSlugs(caller));
        request.setAttribute("active", "proposals");
        render(request, response, "proposals");
    }

    private void accept(HttpServletRequest request, HttpServletResponse response, Caller caller, SkillSuggestion proposal)
            throws ServletException, IOException {
        review(request, response, caller, proposal, () -> {
            Gated<McpTool> created = proposals.accept(caller, proposal.getId());
            EditorRequests.flash(request, msg(request, "proposals.accepted", created.value().getName()));
            EditorRequests.flashWarnings(request, created.warnings());
            EditorRequests.redirect(request, response, "/admin/code-tools/" + created.value().getId());
        });
    }

    private void reject(HttpServletRequest request, HttpServletResponse response, Caller caller, SkillSuggestion proposal)
            throws ServletException, IOException {
        review(request, response, caller, proposal, () -> {
            String note = request.getParameter("note");
            proposals.reject(caller, proposal.getId(), note == null || note.isBlank() ? null : note.strip());
            EditorRequests.flash(request, msg(request, "proposals.rejected", proposal.getName()));
            EditorRequests.redirect(request, response, "/admin/proposals");
        });
    }

    private interface Review {
        void run() throws ServletException, IOException;
    }

    /** Runs a review and shows the proposal again with what refused it. */
    private void review(HttpServletRequest request, HttpServletResponse response, Caller caller, SkillSuggestion proposal, Review review)
            throws ServletException, IOException {
        try {
            review.run();
        } catch (InvalidToolException e) {
            response.setStatus(422);
            show(request, response, caller, proposal, msg(request, e.problems()), msg(request, "proposals.invalid"));
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            show(request, response, caller, proposal, Map.of(), msg(request, "error.gate", msg(request, e.reason())));
        } catch (InvalidInputException e) { // reviewed meanwhile by someone else
            response.setStatus(HttpServletResponse.SC_CONFLICT);
            show(request, response, caller, proposal, Map.of(), msg(request, e.problem()));
        }
    }

    private void show(HttpServletRequest request, HttpServletResponse response, Caller caller, SkillSuggestion proposal,
                      Map<String, String> problems, String formError) throws ServletException, IOException {
        JsonObject payload = proposal.getPayload();
        String code = payload.getString("code", "");
        McpTool existing = tools.tools(caller.workspaceId()).stream().filter(t -> t.getName().equals(proposal.getName()))
                .findFirst().orElse(null);
        request.setAttribute("proposal", proposal);
        request.setAttribute("code", code);
        request.setAttribute("uses", CodeToolSpec.from(payload).uses());
        request.setAttribute("literalUses", codeCheck.check(code).toolNames());
        request.setAttribute("inputSchema", payload.get("inputSchema") instanceof JsonObject o ? HttpToolForms.pretty(o) : "");
        request.setAttribute("existing", existing);
        if (existing != null && existing.isCodeTool()) {
            request.setAttribute("diff", LineDiff.of(CodeToolSpec.from(existing.getEndpointMapping()).code(), code));
        }
        request.setAttribute("serverSlugs", serverSlugs(caller));
        request.setAttribute("problems", problems);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "proposals");
        render(request, response, "proposal");
    }

    /** A proposal of the caller's workspace, in any status; {@code null} when there is none. */
    private SkillSuggestion find(Caller caller, Long id) {
        for (String status : STATUSES) {
            for (SkillSuggestion s : proposals.list(caller, status)) {
                if (s.getId().equals(id)) {
                    return s;
                }
            }
        }
        return null;
    }
}
