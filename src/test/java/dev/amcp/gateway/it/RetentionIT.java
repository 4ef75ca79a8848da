package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention on the running gateway and its database: rows older than the policy go, in batches (a batch of 7 here, so
 * every table takes several), recordings sooner than their runs, pending approvals and paused runs stay, and a purge
 * another node holds the lease of is refused, not run twice.
 */
@ExtendWith(ArquillianExtension.class)
class RetentionIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(Deployments.NAME, true, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_RETENTION_CODE_RUNS_DAYS", "30", "AMCP_RETENTION_RECORDINGS_DAYS", "7", "AMCP_RETENTION_APPROVALS_DAYS", "30",
                "AMCP_RETENTION_AUDIT_DAYS", "365", "AMCP_RETENTION_BATCH", "7", "AMCP_RETENTION_EVERY_HOURS", "0"));
    }

    static HttpResponse<String> send(String method, String path, String key) throws Exception {
        return OperatorIT.send(method, path, key, method.equals("POST") ? "" : null);
    }

    static JsonObject json(HttpResponse<String> r, int status) {
        assertEquals(status, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject();
    }

    @Test
    void oldRowsGoInBatchesRecordingsSoonerAndNothingRunsTwice() throws Exception {
        JsonObject tenant = McpHttp.tenant("mcp-tenant");
        String slug = tenant.getString("workspace");
        json(send("POST", "/it-retention/seed/" + slug, null), 200);
        assertEquals(Map.of("codeRuns", 26, "recordings", 15, "paused", 1, "audit", 9, "approvals", 4, "pendingApprovals", 1),
                counts(slug), "as seeded");

        assertEquals(403, send("POST", "/api/retention/run", tenant.getString("adminKey")).statusCode(), "operators only");
        json(send("POST", "/it-retention/hold", null), 200);
        HttpResponse<String> held = send("POST", "/api/retention/run", Operators.API_KEY);
        assertEquals(409, held.statusCode(), held.body());
        assertTrue(held.body().contains("A retention purge is running already"), held.body());
        assertEquals("another-node", json(send("GET", "/api/retention", Operators.API_KEY), 200).getJsonObject("running").getString("node"));
        assertEquals(26, counts(slug).get("codeRuns"), "nothing purged while another node holds the lease");
        json(send("POST", "/it-retention/release", null), 200);

        JsonObject purged = json(send("POST", "/api/retention/run", Operators.API_KEY), 200);
        assertTrue(purged.getInt("codeRuns") >= 20 && purged.getInt("recordings") >= 13 && purged.getInt("audit") >= 6
                && purged.getInt("approvals") >= 2, purged.toString());
        // Kept: 3 runs of 10 days (their recordings gone: 7 days), 2 fresh runs with recordings, the paused run; 3 audit
        // rows of 10 days; the pending approval and the fresh one.
        assertEquals(Map.of("codeRuns", 6, "recordings", 2, "paused", 1, "audit", 3, "approvals", 2, "pendingApprovals", 1), counts(slug));
        JsonObject status = json(send("GET", "/api/retention", Operators.API_KEY), 200);
        assertEquals(7, status.getJsonObject("policy").getInt("batch"));
        assertEquals(purged.getInt("codeRuns"), status.getJsonObject("lastRun").getJsonObject("result").getInt("codeRuns"));
        assertEquals(0, json(send("POST", "/api/retention/run", Operators.API_KEY), 200).getInt("codeRuns"), "a second purge finds nothing");
    }

    static Map<String, Integer> counts(String slug) throws Exception {
        JsonObject c = json(send("GET", "/it-retention/count/" + slug, null), 200);
        java.util.Map<String, Integer> out = new java.util.TreeMap<>();
        c.forEach((k, v) -> out.put(k, ((jakarta.json.JsonNumber) v).intValue()));
        return out;
    }
}
