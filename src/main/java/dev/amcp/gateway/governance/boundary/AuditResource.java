package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.control.AdminAudit;
import dev.amcp.gateway.governance.control.AuditFilters;
import dev.amcp.gateway.governance.control.WorkspaceIds;
import dev.amcp.gateway.governance.entity.AdminAuditEntry;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
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
    WorkspaceIds workspaces;

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
            @Parameter(description = "ISO-8601 instant, e.g. 2026-12-01T00:00:00Z, or a date (from its start, UTC); changes at or after it") @QueryParam("since") String since,
            @Parameter(description = "ISO-8601 instant, or a date (to its end, UTC); changes at or before it") @QueryParam("until") String until,
            @Parameter(description = "1 to 500, default 100") @QueryParam("limit") String limit,
            @Parameter(description = "operators: a workspace slug") @QueryParam("workspace") String workspace) {
        var query = AuditFilters.parse(caller.get(), new AuditFilters.Typed(kind, actor, since, until, limit, workspace),
                workspaces::idOf);
        return new AuditList(audit.list(caller.get(), query).stream().map(AuditResource::row).toList());
    }

    private static AuditRow row(AdminAuditEntry e) {
        return new AuditRow(e.getId(), e.getAt().toString(), new Actor(e.getActorUserId(), e.getActorUsername(), e.isActorOperator()),
                e.getWorkspaceId(), e.getKind(), e.getSubject(), e.getAction(), e.getBefore(), e.getAfter());
    }
}
