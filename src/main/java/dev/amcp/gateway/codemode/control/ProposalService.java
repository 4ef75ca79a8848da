package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * Code tools proposed by agents ({@code propose_code_tool}) wait as {@code kg_skill_suggestions} of kind
 * {@code code_tool} until an admin accepts or rejects them. Accepting saves the tool through
 * {@link CodeToolService}, so a proposal passes exactly the gates an admin's own tool passes.
 */
@ApplicationScoped
@Transactional
public class ProposalService {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    CodeToolService codeTools;

    @Inject
    Event<AdminChange> changes;

    @Inject
    WorkspaceService workspaces;

    @Inject
    CodeRunSettings runSettings;

    /** The {@code review_note} column's width. */
    static final int MAX_NOTE_CHARS = 2000;

    /** The statuses a proposal moves through, in order. */
    public static final List<String> REVIEW_STATUSES = List.of("pending", "accepted", "rejected");

    /**
     * Files a proposal from an agent; proposals always run as the invoker and never write until an admin says so. A
     * proposer may have only so many waiting ({@code AMCP_CODE_MAX_PENDING_PROPOSALS}), each of bounded size
     * ({@code AMCP_CODE_MAX_PROPOSAL_BYTES}); the count is taken under the workspace row's lock, so it cannot be raced.
     */
    @RequiresCapability(Capability.PROPOSE_CODE)
    public SkillSuggestion propose(Caller caller, long serverId, JsonObject args) {
        String name = JsonSupport.string(args, "name", "");
        if (!ToolService.TOOL_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must be 1 to 64 letters, digits, '_', '-' or '.'");
        }
        String code = JsonSupport.string(args, "code", "");
        if (code.isBlank() || code.length() > CodeToolSpec.MAX_CODE_CHARS) {
            throw new IllegalArgumentException("code must be 1 to " + CodeToolSpec.MAX_CODE_CHARS + " characters");
        }
        var payload = JsonSupport.JSON.createObjectBuilder().add("code", code)
                .add("uses", args.getOrDefault("uses", JsonValue.EMPTY_JSON_ARRAY))
                .add("inputSchema", args.getOrDefault("inputSchema", JsonValue.NULL)).build();
        String description = JsonSupport.string(args, "description", null);
        String title = JsonSupport.string(args, "title", null);
        int maxBytes = runSettings.values().maxProposalBytes();
        long bytes = JsonSupport.utf8Length(payload.toString()) + (description == null ? 0 : JsonSupport.utf8Length(description))
                + (title == null ? 0 : JsonSupport.utf8Length(title));
        if (bytes > maxBytes) {
            throw new InvalidInputException(Message.of("problem.proposal.tooLarge",
                    "This proposal is {0} bytes; a proposal may be at most {1} bytes (code, uses, input schema and texts)", bytes, maxBytes));
        }
        em.createNativeQuery("select id from workspaces where id = ? for update").setParameter(1, caller.workspaceId()).getResultList();
        var count = em.createQuery("select count(s) from SkillSuggestion s where s.workspaceId = :ws and s.kind = :kind"
                        + " and s.status = 'pending' and " + (caller.userId() == null ? "s.proposedBy is null" : "s.proposedBy = :user"), Long.class)
                .setParameter("ws", caller.workspaceId()).setParameter("kind", SkillSuggestion.KIND_CODE_TOOL);
        if (caller.userId() != null) {
            count.setParameter("user", caller.userId());
        }
        long waiting = count.getSingleResult();
        int maxPending = runSettings.values().maxPendingProposals();
        if (waiting >= maxPending) {
            throw new InvalidInputException(Message.of("problem.proposal.tooMany",
                    "You already have {0} proposals waiting for review, the most this gateway allows; wait until an admin reviews them",
                    waiting));
        }
        SkillSuggestion suggestion = new SkillSuggestion(caller.workspaceId(), serverId, SkillSuggestion.KIND_CODE_TOOL, name, payload);
        suggestion.setDescription(description);
        suggestion.setTitle(title);
        suggestion.setProposedBy(caller.userId());
        em.persist(suggestion);
        return suggestion;
    }

    /** Proposals of the workspace in one status (pending, accepted or rejected), newest first. */
    @RequiresCapability(Capability.ADMIN)
    public List<SkillSuggestion> list(Caller caller, String status) {
        if (status != null && !REVIEW_STATUSES.contains(status)) {
            throw new InvalidInputException(Message.of("problem.proposal.status",
                    "status must be one of {0}, not ''{1}''", String.join(", ", REVIEW_STATUSES), status));
        }
        return em.createQuery("select s from SkillSuggestion s where s.workspaceId = :ws and s.kind = :kind"
                        + " and s.status = :status order by s.createdAt desc", SkillSuggestion.class)
                .setParameter("ws", caller.workspaceId()).setParameter("kind", SkillSuggestion.KIND_CODE_TOOL)
                .setParameter("status", status == null ? "pending" : status)
                .getResultList();
    }

    /** Accepts a pending proposal: the code tool is created through every gate, or nothing changes. */
    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> accept(Caller caller, long proposalId) {
        SkillSuggestion proposal = pending(caller, proposalId);
        JsonObject payload = proposal.getPayload();
        JsonValue schema = payload.get("inputSchema");
        var server = workspaces.server(proposal.getServerId());
        ToolDraft tool = new ToolDraft(server == null ? null : server.getSlug(), proposal.getName(), proposal.getTitle(),
                proposal.getDescription(), schema instanceof JsonObject o ? o : null, null, null);
        CodeToolSpec spec = CodeToolSpec.from(JsonSupport.JSON.createObjectBuilder().add("code", payload.getString("code"))
                .add("uses", payload.getOrDefault("uses", JsonValue.EMPTY_JSON_ARRAY)).build());
        Gated<McpTool> created = codeTools.create(caller, new CodeToolDraft(tool, spec));
        proposal.review("accepted", caller.userId(), null);
        return created;
    }

    @RequiresCapability(Capability.ADMIN)
    public SkillSuggestion reject(Caller caller, long proposalId, String note) {
        if (note != null && note.length() > MAX_NOTE_CHARS) {
            throw new InvalidInputException(Message.of("problem.proposal.noteTooLong",
                    "A review note is limited to {0} characters; this one has {1}", MAX_NOTE_CHARS, note.length()));
        }
        SkillSuggestion proposal = pending(caller, proposalId);
        proposal.review("rejected", caller.userId(), note);
        var after = JsonSupport.JSON.createObjectBuilder().add("name", proposal.getName()).add("status", "rejected");
        if (note != null) {
            after.add("note", note);
        }
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.PROPOSAL, proposal.getName() + " (" + proposalId + ")",
                AdminChange.REJECT, JsonSupport.JSON.createObjectBuilder().add("name", proposal.getName()).add("status", "pending").build(),
                after.build()));
        return proposal;
    }

    private SkillSuggestion pending(Caller caller, long proposalId) {
        SkillSuggestion proposal = em.find(SkillSuggestion.class, proposalId);
        if (proposal == null || proposal.getWorkspaceId() != caller.workspaceId()
                || !SkillSuggestion.KIND_CODE_TOOL.equals(proposal.getKind())) {
            throw new NoSuchItemException(Message.of("problem.proposal.missing", "No code-tool proposal {0} in this workspace", proposalId));
        }
        if (!"pending".equals(proposal.getStatus())) {
            throw new InvalidInputException(Message.of("problem.proposal.reviewed", "Proposal {0} was already {1}", proposalId, proposal.getStatus()));
        }
        return proposal;
    }
}
