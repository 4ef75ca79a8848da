package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.control.AdminAudit;
import dev.amcp.gateway.governance.entity.AdminAuditEntry;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.boundary.Authenticated;
import dev.amcp.gateway.workspace.boundary.CurrentCaller;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The admin audit log: admins read their workspace's changes, operators every change, with filters. */
@Path("/api/audit")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit", description = "Admins and operators: who changed what, when, with before and after")
public class AuditResource {

    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._@-]{1,100}");

    /** Who made a change: an operator of the instance or a member of a workspace. */
    public record Actor(Long userId, String username, boolean operator) {}

    /** One change; {@code before}/{@code after} are null where the thing did not exist. */
    public record AuditRow(long id, String at, Actor actor, Long workspaceId, String kind, String subject, String action,
                           JsonObject before, JsonObject after) {}

    public record AuditList(List<AuditRow> changes) {}

    @Inject
    CurrentCaller caller;

    @Inject
    AdminAudit audit;

    @Inject
    WorkspaceService workspaces;

    @GET
    @Operation(summary = "List admin changes, newest first (admins: their workspace; operators: all)",
            description = "One row per change to a workspace, user, role, key, server, tool, code tool, proposal or the license, "
                    + "with before and after; secrets (passwords, keys, header values) are never recorded.")
    @APIResponse(responseCode = "200", description = "{\"changes\": [{\"id\", \"at\", \"actor\": {\"userId\", \"username\", \"operator\"}, "
            + "\"workspaceId\", \"kind\", \"subject\", \"action\", \"before\", \"after\"}]}")
    @APIResponse(responseCode = "400", description = "A filter is malformed; the message lists what is valid")
    @APIResponse(responseCode = "403", description = "Neither an operator nor a role with the admin capability")
    public AuditList list(
            @Parameter(description = "workspace, user, role, key, server, tool, codeTool, proposal or license") @QueryParam("kind") String kind,
            @Parameter(description = "the username who made the change") @QueryParam("actor") String actor,
            @Parameter(description = "ISO-8601 instant, e.g. 2026-12-01T00:00:00Z; changes at or after it") @QueryParam("since") String since,
            @Parameter(description = "ISO-8601 instant; changes at or before it") @QueryParam("until") String until,
            @Parameter(description = "1 to 500, default 100") @QueryParam("limit") String limit,
            @Parameter(description = "operators: a workspace slug") @QueryParam("workspace") String workspace) {
        Caller who = caller.get();
        if (kind != null && !AdminChange.KINDS.contains(kind)) {
            throw bad("problem.audit.kind", "kind must be one of {0}, not ''{1}''", String.join(", ", AdminChange.KINDS), kind);
        }
        if (actor != null && !USERNAME.matcher(actor).matches()) {
            throw bad("problem.audit.actor", "actor is a username: 1 to 100 letters, digits or . _ @ -");
        }
        Long workspaceId = null;
        if (workspace != null) {
            if (!who.operator()) {
                throw bad("problem.audit.workspace", "workspace is an operator''s filter; an admin sees their own workspace only");
            }
            workspaceId = workspaces.findWorkspace(workspace).map(Workspace::getId)
                    .orElseThrow(() -> bad("problem.audit.noWorkspace", "No workspace ''{0}''", workspace));
        }
        var query = new AdminAudit.Query(workspaceId, kind, actor, instant("since", since), instant("until", until), limit(limit));
        return new AuditList(audit.list(who, query).stream().map(AuditResource::row).toList());
    }

    private static AuditRow row(AdminAuditEntry e) {
        return new AuditRow(e.getId(), e.getAt().toString(), new Actor(e.getActorUserId(), e.getActorUsername(), e.isActorOperator()),
                e.getWorkspaceId(), e.getKind(), e.getSubject(), e.getAction(), e.getBefore(), e.getAfter());
    }

    private static Instant instant(String name, String value) {
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw bad("problem.audit.instant", "{0} must be an ISO-8601 instant such as 2026-12-01T00:00:00Z, not ''{1}''", name, value);
        }
    }

    private static int limit(String value) {
        if (value == null) {
            return AdminAudit.DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= AdminAudit.MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below, like a number out of range
        }
        throw bad("problem.audit.limit", "limit must be a whole number from 1 to {0}, not ''{1}''", AdminAudit.MAX_LIMIT, value);
    }

    private static InvalidInputException bad(String key, String pattern, Object... args) {
        return new InvalidInputException(Message.of(key, pattern, args));
    }
}
