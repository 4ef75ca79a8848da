package dev.amcp.gateway.audit.boundary;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Admin REST over the code-run audit: {@code GET /api/code-runs?status=&tool=&user=&from=&to=&limit=}. {@code user} is
 * a username (or a user id); {@code status} one of {@link CodeRun#STATUSES}, in any case. A value that cannot mean
 * anything is a 400 naming the parameter.
 */
@Path("/api/code-runs")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class CodeRunResource {

    @Inject
    CurrentCaller caller;

    @Inject
    CodeRunQueries queries;

    @GET
    public String list(@QueryParam("status") String status, @QueryParam("tool") String tool, @QueryParam("user") String user,
                       @QueryParam("from") String from, @QueryParam("to") String to,
                       @QueryParam("limit") @DefaultValue("50") String limit) {
        boolean byId = user != null && user.matches("[0-9]{1,18}");
        String username = user == null || user.isBlank() || byId ? null : user;
        var runs = queries.list(caller.get(), new CodeRunQueries.Filter(CodeRunQueries.status(status), tool,
                byId ? Long.valueOf(user) : null, username, instant("from", from), instant("to", to), limit(limit)));
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        runs.forEach(r -> array.add(json(r, false)));
        return JsonSupport.JSON.createObjectBuilder().add("runs", array).build().toString();
    }

    @GET
    @Path("{runId}")
    public Response get(@PathParam("runId") String runId) {
        return queries.find(caller.get(), runId).map(r -> Response.ok(json(r, true).toString()).build())
                .orElseGet(() -> ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "No code run " + runId + " in this workspace"));
    }

    static JsonObject json(CodeRun r, boolean withTrace) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("runId", r.getRunId()).add("status", r.getStatus())
                .add("kind", r.getKind())
                .add("inline", r.isInlineRun()).add("runAsMode", r.getRunAsMode()).add("runAsRole", r.getRunAsRole())
                .add("codeSha256", r.getCodeSha256()).add("bridgeCalls", r.getBridgeCalls())
                .add("inputBytes", r.getInputBytes()).add("outputBytes", r.getOutputBytes()).add("consoleBytes", r.getConsoleBytes())
                .add("startedAt", r.getStartedAt().toString());
        if (r.getToolName() != null) {
            b.add("tool", r.getToolName());
        }
        if (r.getReplayOf() != null) {
            b.add("replayOf", r.getReplayOf());
        }
        if (r.getApprovalId() != null) { // the write it paused at or resumed after: decision, who decided, when
            JsonObjectBuilder a = JsonSupport.JSON.createObjectBuilder().add("id", r.getApprovalId()).add("status", r.getApproval());
            if (r.getApprovalBy() != null) {
                a.add("decidedBy", r.getApprovalBy()).add("decidedAt", r.getApprovalAt().toString());
            }
            b.add("approval", a);
        }
        if (r.getInvokerUserId() != null) {
            b.add("invokerUserId", r.getInvokerUserId());
        }
        if (r.getError() != null) {
            b.add("error", r.getError());
        }
        if (r.getFinishedAt() != null) {
            b.add("finishedAt", r.getFinishedAt().toString()).add("wallMs", r.getWallMs());
        }
        if (withTrace && r.getBridgeTrace() != null) {
            b.add("trace", r.getBridgeTrace());
        }
        if (withTrace && r.getConsoleTail() != null) {
            b.add("console", r.getConsoleTail());
        }
        return b.build();
    }

    private static int limit(String value) {
        try {
            int limit = Integer.parseInt(value.strip());
            if (limit >= 1 && limit <= CodeRunQueries.MAX_PAGE) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException("limit must be a whole number from 1 to " + CodeRunQueries.MAX_PAGE + "; got '" + value + "'");
    }

    private static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 instant such as 2026-11-01T00:00:00Z");
        }
    }
}
