package dev.amcp.gateway.it;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Test-only, with plain JDBC: {@code POST /it-retention/seed/{workspace}} writes rows of several ages into the tables
 * retention purges (as months of use would have), {@code GET /it-retention/count/{workspace}} counts them by age, and
 * {@code POST /it-retention/hold} and {@code /release} play another node holding the purge's lease.
 */
@Path("/it-retention")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class RetentionItResource {

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    /** 20 runs 40 days old (10 with recordings), 3 runs 10 days old with recordings, 2 fresh runs with recordings,
     *  one run 40 days old still PAUSED; audit rows 400 and 10 days old; approvals 40 days old (decided and pending). */
    @POST
    @Path("seed/{workspace}")
    public String seed(@PathParam("workspace") String slug) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            long ws = workspaceId(c, slug);
            for (int i = 0; i < 20; i++) {
                run(c, ws, 40, "SUCCESS", i < 10);
            }
            for (int i = 0; i < 3; i++) {
                run(c, ws, 10, "ERROR", true);
            }
            run(c, ws, 0, "SUCCESS", true);
            run(c, ws, 0, "SUCCESS", true);
            run(c, ws, 40, "PAUSED", false);
            for (int i = 0; i < 9; i++) {
                audit(c, ws, i < 6 ? 400 : 10);
            }
            approval(c, ws, 40, "APPROVED");
            approval(c, ws, 40, "EXPIRED");
            approval(c, ws, 40, "PENDING");
            approval(c, ws, 1, "REFUSED");
        }
        return "{}";
    }

    @GET
    @Path("count/{workspace}")
    public String count(@PathParam("workspace") String slug) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            long ws = workspaceId(c, slug);
            return Json.createObjectBuilder()
                    .add("codeRuns", count(c, "select count(*) from code_runs where workspace_id = ?", ws))
                    .add("recordings", count(c, "select count(*) from code_run_recordings r join code_runs c on c.run_id = r.run_id where c.workspace_id = ?", ws))
                    .add("paused", count(c, "select count(*) from code_runs where workspace_id = ? and status = 'PAUSED'", ws))
                    .add("audit", count(c, "select count(*) from admin_audit where workspace_id = ? and subject = 'retention-test'", ws))
                    .add("approvals", count(c, "select count(*) from code_approvals where workspace_id = ?", ws))
                    .add("pendingApprovals", count(c, "select count(*) from code_approvals where workspace_id = ? and status = 'PENDING'", ws))
                    .build().toString();
        }
    }

    @POST
    @Path("hold")
    public String hold() throws SQLException {
        return lease("update scheduled_work set leased_by = 'another-node', leased_until = ? where name = 'retention'",
                Timestamp.from(Instant.now().plus(1, ChronoUnit.HOURS)));
    }

    @POST
    @Path("release")
    public String release() throws SQLException {
        return lease("update scheduled_work set leased_by = null, leased_until = ? where name = 'retention'", null);
    }

    private String lease(String sql, Timestamp until) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setTimestamp(1, until);
            return "{\"updated\":" + st.executeUpdate() + "}";
        }
    }

    private static long workspaceId(Connection c, String slug) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("select id from workspaces where slug = ?")) {
            st.setString(1, slug);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long count(Connection c, String sql, long ws) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, ws);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Timestamp daysAgo(int days) {
        return Timestamp.from(Instant.now().minus(days, ChronoUnit.DAYS).minus(1, ChronoUnit.HOURS));
    }

    private static void run(Connection c, long ws, int days, String status, boolean recording) throws SQLException {
        String runId = "ret-" + UUID.randomUUID();
        try (PreparedStatement st = c.prepareStatement("insert into code_runs (run_id, workspace_id, inline_run, run_as_mode, run_as_role, "
                + "code_sha256, status, started_at) values (?, ?, true, 'invoker', 'admin', ?, ?, ?)")) {
            st.setString(1, runId);
            st.setLong(2, ws);
            st.setString(3, "0".repeat(64));
            st.setString(4, status);
            st.setTimestamp(5, daysAgo(days));
            st.executeUpdate();
        }
        if (recording) {
            try (PreparedStatement st = c.prepareStatement("insert into code_run_recordings (run_id, code, recording) values (?, 'return 1', '{}')")) {
                st.setString(1, runId);
                st.executeUpdate();
            }
        }
    }

    private static void audit(Connection c, long ws, int days) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("insert into admin_audit (at, actor_username, actor_operator, workspace_id, kind, subject, action) "
                + "values (?, 'it', false, ?, 'tool', 'retention-test', 'update')")) {
            st.setTimestamp(1, daysAgo(days));
            st.setLong(2, ws);
            st.executeUpdate();
        }
    }

    private static void approval(Connection c, long ws, int days, String status) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("insert into code_approvals (id, workspace_id, run_id, tool_id, tool_name, call_scope, input, "
                + "planned_tool, planned_args, summary, status, created_at, expires_at) values (?, ?, 'r', 1, 't', '{}', '{}', 't', '{}', 's', ?, ?, ?)")) {
            st.setString(1, "ret-" + UUID.randomUUID());
            st.setLong(2, ws);
            st.setString(3, status);
            st.setTimestamp(4, daysAgo(days));
            st.setTimestamp(5, daysAgo(days - 1));
            st.executeUpdate();
        }
    }
}
