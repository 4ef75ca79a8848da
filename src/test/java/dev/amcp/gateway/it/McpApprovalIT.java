package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Human approval of writes for 2026-07-28 clients, as raw JSON-RPC over HTTP (the official Java SDK does not speak that
 * revision yet), against the real gateway, the live runner and PostgreSQL: a paused write is asked through an
 * {@code input_required} result carrying a form elicitation with the planned write; the retry echoes
 * {@code requestState} and answers in {@code inputResponses}; approving resumes by replay and writes once, declining
 * writes nothing; a tampered or foreign state is a JSON-RPC error; a client without elicitation gets the pending id.
 */
@ExtendWith(ArquillianExtension.class)
class McpApprovalIT {

    static final String V = "2026-07-28";

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static String meta(boolean elicitation) {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + V + "\",\"io.modelcontextprotocol/clientCapabilities\":"
                + (elicitation ? "{\"elicitation\":{\"form\":{}}}" : "{}") + "}";
    }

    /** A 2026-07-28 {@code tools/call} of {@code order_for}; {@code more} is added to the params (e.g. the retry's fields). */
    static JsonObject call(String key, int customer, String note, boolean elicitation, String more) throws Exception {
        return call(key, "order_for", customer, note, elicitation, more);
    }

    static JsonObject call(String key, String tool, int customer, String note, boolean elicitation, String more) throws Exception {
        String params = "{\"name\":\"" + tool + "\",\"arguments\":{\"customerId\":" + customer + ",\"note\":\"" + note + "\"},"
                + meta(elicitation) + (more == null ? "" : "," + more) + "}";
        HttpResponse<String> r = McpHttp.post("/mcp/demo", key, McpHttp.request(1, "tools/call", params),
                "MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", tool);
        return McpHttp.parse(r.body()).asJsonObject();
    }

    static String answer(String state, String action, Boolean approve) {
        String content = approve == null ? "" : ",\"content\":{\"approve\":" + approve + "}";
        return "\"requestState\":\"" + state + "\",\"inputResponses\":{\"approve_write\":{\"action\":\"" + action + "\"" + content + "}}";
    }

    @Test
    void theClientsUserIsAskedAndTheRetryWithTheAnswerResumesAndWrites() throws Exception {
        JsonObject t = WriteApprovalIT.tenant();
        int before = WriteApprovalIT.ordersOf(8);
        JsonObject asked = call(t.getString("askerKey"), 8, "asked in the client", true, null).getJsonObject("result");
        assertEquals("input_required", asked.getString("resultType"), asked.toString());
        JsonObject request = asked.getJsonObject("inputRequests").getJsonObject("approve_write");
        assertEquals("elicitation/create", request.getString("method"));
        JsonObject params = request.getJsonObject("params");
        assertEquals("form", params.getString("mode"));
        assertTrue(params.getString("message").contains("order_create") && params.getString("message").contains("asked in the client"), params.toString());
        assertEquals("boolean", params.getJsonObject("requestedSchema").getJsonObject("properties").getJsonObject("approve").getString("type"));
        JsonObject planned = asked.getJsonObject("_meta").getJsonObject("amcp/approval").getJsonObject("plannedWrite");
        assertEquals("order_create", planned.getString("tool"));
        assertEquals(8, planned.getJsonObject("args").getInt("customerId"));
        String state = asked.getString("requestState");
        assertEquals(before, WriteApprovalIT.ordersOf(8), "nothing is written before the answer");

        // A retry without the answer is asked again; one with a tampered state, or by someone else, is refused.
        JsonObject again = call(t.getString("askerKey"), 8, "asked in the client", true, "\"requestState\":\"" + state + "\"").getJsonObject("result");
        assertEquals("input_required", again.getString("resultType"));
        assertEquals(state, again.getString("requestState"));
        JsonObject tampered = call(t.getString("askerKey"), 8, "asked in the client", true, answer(state + "-TAMPERED", "accept", true));
        assertEquals(-32602, tampered.getJsonObject("error").getInt("code"), tampered.toString());
        JsonObject foreign = call(t.getString("otherKey"), 8, "asked in the client", true, answer(state, "accept", true));
        assertEquals(-32602, foreign.getJsonObject("error").getInt("code"), foreign.toString());
        JsonObject otherArgs = call(t.getString("askerKey"), 8, "something else", true, answer(state, "accept", true));
        assertTrue(otherArgs.getJsonObject("error").getString("message").contains("arguments differ"), otherArgs.toString());
        assertEquals(before, WriteApprovalIT.ordersOf(8));

        JsonObject done = call(t.getString("askerKey"), 8, "asked in the client", true, answer(state, "accept", true)).getJsonObject("result");
        assertEquals("complete", done.getString("resultType"), done.toString());
        assertFalse(done.getBoolean("isError"), done.toString());
        assertEquals(8, done.getJsonObject("structuredContent").getInt("customer"));
        assertEquals(before + 1, WriteApprovalIT.ordersOf(8), "the approved write was made once");

        JsonObject approval = CodeReplayIT.send("GET", "/api/approvals/" + state, t.getString("askerKey"), null);
        assertEquals("APPROVED", approval.getString("status"));
        assertEquals("client:" + t.getString("slug") + "-asker", approval.getString("decidedBy"), approval.toString());
        JsonObject row = CodeReplayIT.send("GET", "/api/code-runs/" + approval.getString("resumeRunId"), t.getString("adminKey"), null);
        assertEquals("resume", row.getString("kind"));
        assertEquals(approval.getString("decidedBy"), row.getJsonObject("approval").getString("decidedBy"));
    }

    @Test
    void eachWriteOfARunIsAskedInItsOwnRound() throws Exception {
        JsonObject t = WriteApprovalIT.tenant();
        int before = WriteApprovalIT.ordersOf(15);
        JsonObject first = call(t.getString("askerKey"), "two_orders", 15, "rounds", true, null).getJsonObject("result");
        assertEquals("input_required", first.getString("resultType"), first.toString());
        String state = first.getString("requestState");
        JsonObject second = call(t.getString("askerKey"), "two_orders", 15, "rounds", true, answer(state, "accept", true)).getJsonObject("result");
        assertEquals("input_required", second.getString("resultType"), "the second write is asked again: " + second);
        assertEquals(before + 1, WriteApprovalIT.ordersOf(15), "the first write was made once, the second waits");
        String nextState = second.getString("requestState");
        assertNotEquals(state, nextState);
        JsonObject message = second.getJsonObject("inputRequests").getJsonObject("approve_write").getJsonObject("params");
        assertTrue(message.getString("message").contains("rounds #2"), message.toString());
        // The first answer cannot be replayed to approve the second write: it names the first, already decided.
        JsonObject stale = call(t.getString("askerKey"), "two_orders", 15, "rounds", true, answer(state, "accept", true)).getJsonObject("result");
        assertEquals(nextState, stale.getString("requestState"), stale.toString());
        assertEquals(before + 1, WriteApprovalIT.ordersOf(15));

        JsonObject done = call(t.getString("askerKey"), "two_orders", 15, "rounds", true, answer(nextState, "accept", true)).getJsonObject("result");
        assertEquals("complete", done.getString("resultType"), done.toString());
        assertFalse(done.getBoolean("isError"), done.toString());
        assertEquals(2, done.getJsonObject("structuredContent").getJsonArray("orders").size());
        assertEquals(before + 2, WriteApprovalIT.ordersOf(15), "the second write was made, the first not again");
    }

    @Test
    void aDeclinedWriteIsNeverMade() throws Exception {
        JsonObject t = WriteApprovalIT.tenant();
        int before = WriteApprovalIT.ordersOf(9);
        String state = call(t.getString("askerKey"), 9, "decline me", true, null).getJsonObject("result").getString("requestState");
        JsonObject declined = call(t.getString("askerKey"), 9, "decline me", true, answer(state, "decline", null)).getJsonObject("result");
        assertEquals("complete", declined.getString("resultType"), declined.toString());
        assertTrue(declined.getBoolean("isError"));
        assertTrue(declined.getJsonArray("content").getJsonObject(0).getString("text").contains("refused by client:"), declined.toString());
        assertEquals(before, WriteApprovalIT.ordersOf(9));
        assertEquals("REFUSED", CodeReplayIT.send("GET", "/api/approvals/" + state, t.getString("adminKey"), null).getString("status"));
    }

    @Test
    void aClientWithoutElicitationGetsThePendingApprovalInstead() throws Exception {
        JsonObject t = WriteApprovalIT.tenant();
        JsonObject result = call(t.getString("askerKey"), 10, "no elicitation", false, null).getJsonObject("result");
        assertEquals("complete", result.getString("resultType"), result.toString());
        assertFalse(result.getBoolean("isError"));
        JsonObject approval = result.getJsonObject("_meta").getJsonObject("amcp/approval");
        assertEquals("PENDING", approval.getString("status"));
        assertTrue(result.getJsonArray("content").getJsonObject(0).getString("text").contains(approval.getString("id")), result.toString());
    }
}
