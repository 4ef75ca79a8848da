package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Human approval of writes for clients before 2026-07-28, against the real gateway, the live runner and PostgreSQL,
 * driven by the official MCP Java SDK client: a paused write answers a pending approval and writes nothing; an admin
 * approves over REST, the run resumes by replay and the caller collects the result with the id; a refusal and a replay
 * that diverges write nothing; nobody else collects or sees it; the run rows say who decided. A run that writes twice
 * pauses again after its approved first write, and its second write needs an approval of its own; no write is made twice.
 */
@ExtendWith(ArquillianExtension.class)
class WriteApprovalIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static JsonObject tenant() throws Exception {
        return CodeReplayIT.send("POST", "/it-approval-setup/tenant", null, "");
    }

    static int ordersOf(int customer) throws Exception {
        return CodeReplayIT.send("GET", "/demo-api/orders?customerId=" + customer + "&limit=500", null, null).getInt("count");
    }

    static McpSchema.CallToolResult call(String key, String tool, Map<String, Object> args, String approvalId) {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            return client.callTool(approvalId == null ? new McpSchema.CallToolRequest(tool, args)
                    : new McpSchema.CallToolRequest(tool, args, Map.of("amcp/approvalId", approvalId)));
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> approval(McpSchema.CallToolResult result) {
        assertFalse(result.isError(), result.toString());
        assertTrue(result.meta() != null && result.meta().get("amcp/approval") instanceof Map, result.toString());
        return (Map<String, Object>) result.meta().get("amcp/approval");
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAdminApprovesAndTheCallerCollectsTheResultWithTheId() throws Exception {
        JsonObject t = tenant();
        int customer = 2;
        Map<String, Object> args = Map.of("customerId", customer, "note", "approve me");
        int before = ordersOf(customer);

        Map<String, Object> pending = approval(call(t.getString("askerKey"), "order_for", args, null));
        String id = (String) pending.get("id");
        assertEquals("PENDING", pending.get("status"));
        Map<String, Object> write = (Map<String, Object>) pending.get("plannedWrite");
        assertEquals("order_create", write.get("tool"));
        assertEquals("approve me", ((Map<String, Object>) write.get("args")).get("note"));
        assertTrue(((String) write.get("summary")).contains("order_create") && ((String) write.get("summary")).contains("approve me"), write.toString());
        assertEquals(before, ordersOf(customer), "nothing is written before the approval");

        // Bound to the caller: another member cannot collect it, nor see it; another workspace's admin gets 404 too.
        McpError foreign = assertThrows(McpError.class, () -> call(t.getString("otherKey"), "order_for", args, id));
        assertTrue(foreign.getMessage().contains("No paused write"), foreign.getMessage());
        assertEquals(404, CodeReplayIT.sendRaw("GET", "/api/approvals/" + id, t.getString("otherKey"), null).statusCode());
        JsonObject elsewhere = tenant();
        HttpResponse<String> crossTenant = CodeReplayIT.sendRaw("POST", "/api/approvals/" + id + "/approve", elsewhere.getString("adminKey"), "");
        assertEquals(404, crossTenant.statusCode(), crossTenant.body());
        assertTrue(crossTenant.body().contains("No approval"), crossTenant.body());
        HttpResponse<String> notAdmin = CodeReplayIT.sendRaw("POST", "/api/approvals/" + id + "/approve", t.getString("askerKey"), "");
        assertEquals(403, notAdmin.statusCode(), notAdmin.body());
        assertEquals("PENDING", CodeReplayIT.send("GET", "/api/approvals/" + id, t.getString("askerKey"), null).getString("status"),
                "the caller may look at its own approval");

        // Collecting before the decision answers the pending approval again.
        assertEquals(id, approval(call(t.getString("askerKey"), "order_for", args, id)).get("id"));

        JsonObject inbox = CodeReplayIT.send("GET", "/api/approvals", t.getString("adminKey"), null);
        assertEquals(1, inbox.getJsonArray("approvals").size(), inbox.toString());
        assertEquals("order_create", inbox.getJsonArray("approvals").getJsonObject(0).getJsonObject("plannedWrite").getString("tool"));

        JsonObject approved = CodeReplayIT.send("POST", "/api/approvals/" + id + "/approve", t.getString("adminKey"), "");
        assertEquals("APPROVED", approved.getString("status"), approved.toString());
        assertTrue(approved.getString("decidedBy").startsWith("admin:"), approved.toString());
        assertEquals(before + 1, ordersOf(customer), "the approved write was made once");
        HttpResponse<String> again = CodeReplayIT.sendRaw("POST", "/api/approvals/" + id + "/approve", t.getString("adminKey"), "");
        assertEquals(409, again.statusCode(), again.body());
        assertTrue(again.body().contains("already approved"), again.body());

        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "order_for", args, id);
        assertFalse(collected.isError(), collected.toString());
        Map<String, Object> value = (Map<String, Object>) collected.structuredContent();
        assertEquals(customer, ((Number) value.get("customer")).intValue(), collected.toString());
        assertTrue(value.get("order") != null, collected.toString());
        assertEquals(before + 1, ordersOf(customer), "collecting writes nothing more");

        JsonObject paused = CodeReplayIT.send("GET", "/api/code-runs/" + approved.getString("runId"), t.getString("adminKey"), null);
        assertEquals("PAUSED", paused.getString("status"), paused.toString());
        assertEquals("APPROVED", paused.getJsonObject("approval").getString("status"));
        assertEquals(approved.getString("decidedBy"), paused.getJsonObject("approval").getString("decidedBy"));
        JsonObject resumed = CodeReplayIT.send("GET", "/api/code-runs/" + approved.getString("resumeRunId"), t.getString("adminKey"), null);
        assertEquals("resume", resumed.getString("kind"), resumed.toString());
        assertEquals("SUCCESS", resumed.getString("status"));
        assertEquals(approved.getString("runId"), resumed.getString("replayOf"));
        assertEquals(approved.getString("decidedBy"), resumed.getJsonObject("approval").getString("decidedBy"));
    }

    /** An admin saves new code for one of the set-up's code tools (approval always), as the editor would. */
    static void saveCode(JsonObject t, String idKey, String name, String code) throws Exception {
        HttpResponse<String> saved = CodeReplayIT.sendRaw("PUT", "/api/code-tools/" + t.getInt(idKey), t.getString("adminKey"),
                Json.createObjectBuilder().add("server", "demo").add("name", name).add("description", "Reads a customer and orders")
                        .add("inputSchema", McpHttp.parse(ApprovalItSetup.INPUT_SCHEMA)).add("code", code)
                        .add("uses", Json.createArrayBuilder().add("customer_get").add("order_create")).add("runAs", "invoker")
                        .add("allowWrites", true).add("approval", "always").build().toString());
        assertEquals(200, saved.statusCode(), saved.body());
    }

    @SuppressWarnings("unchecked")
    static String plannedNote(Map<String, Object> approval) {
        return (String) ((Map<String, Object>) ((Map<String, Object>) approval.get("plannedWrite")).get("args")).get("note");
    }

    /** Approves the first write of {@code two_orders}; answers the second write's pending approval, as collected with the first id. */
    static Map<String, Object> approveFirstOfTwo(JsonObject t, Map<String, Object> args, int customer, int before) throws Exception {
        Map<String, Object> first = approval(call(t.getString("askerKey"), "two_orders", args, null));
        assertEquals(args.get("note") + " #1", plannedNote(first));
        JsonObject approved = CodeReplayIT.send("POST", "/api/approvals/" + first.get("id") + "/approve", t.getString("adminKey"), "");
        assertEquals("APPROVED", approved.getString("status"), approved.toString());
        assertEquals(before + 1, ordersOf(customer), "the first write was made once");
        Map<String, Object> second = approval(call(t.getString("askerKey"), "two_orders", args, (String) first.get("id")));
        assertNotEquals(first.get("id"), second.get("id"), "the second write has an approval of its own");
        assertEquals("PENDING", second.get("status"));
        assertEquals(args.get("note") + " #2", plannedNote(second));
        JsonObject shown = CodeReplayIT.send("GET", "/api/approvals/" + second.get("id"), t.getString("askerKey"), null);
        assertEquals(approved.getString("resumeRunId"), shown.getString("runId"), "chained: it paused in the first one's resumed run");
        JsonObject pausedAgain = CodeReplayIT.send("GET", "/api/code-runs/" + shown.getString("runId"), t.getString("adminKey"), null);
        assertEquals("PAUSED", pausedAgain.getString("status"), pausedAgain.toString());
        assertEquals(before + 1, ordersOf(customer), "the second write waits");
        return second;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyWriteOfARunWaitsForItsOwnApprovalAndNoneIsMadeTwice() throws Exception {
        JsonObject t = tenant();
        int customer = 12;
        Map<String, Object> args = Map.of("customerId", customer, "note", "two");
        int before = ordersOf(customer);
        String second = (String) approveFirstOfTwo(t, args, customer, before).get("id");

        JsonObject inbox = CodeReplayIT.send("GET", "/api/approvals", t.getString("adminKey"), null);
        assertEquals(1, inbox.getJsonArray("approvals").size(), inbox.toString());
        assertEquals(second, inbox.getJsonArray("approvals").getJsonObject(0).getString("id"));
        McpError foreign = assertThrows(McpError.class, () -> call(t.getString("otherKey"), "two_orders", args, second));
        assertTrue(foreign.getMessage().contains("No paused write"), foreign.getMessage());

        JsonObject approved = CodeReplayIT.send("POST", "/api/approvals/" + second + "/approve", t.getString("adminKey"), "");
        assertEquals("APPROVED", approved.getString("status"), approved.toString());
        assertEquals(before + 2, ordersOf(customer), "the second write was made, the first not again");
        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "two_orders", args, second);
        assertFalse(collected.isError(), collected.toString());
        assertEquals(2, ((java.util.List<Object>) ((Map<String, Object>) collected.structuredContent()).get("orders")).size(), collected.toString());
        assertEquals(before + 2, ordersOf(customer), "collecting writes nothing more");
        JsonObject resumed = CodeReplayIT.send("GET", "/api/code-runs/" + approved.getString("resumeRunId"), t.getString("adminKey"), null);
        assertEquals("SUCCESS", resumed.getString("status"), resumed.toString());
        assertEquals(approved.getString("runId"), resumed.getString("replayOf"));
    }

    @Test
    void refusingTheSecondWriteLeavesOnlyTheFirst() throws Exception {
        JsonObject t = tenant();
        int customer = 13;
        Map<String, Object> args = Map.of("customerId", customer, "note", "refuse the second");
        int before = ordersOf(customer);
        String second = (String) approveFirstOfTwo(t, args, customer, before).get("id");
        JsonObject refused = CodeReplayIT.send("POST", "/api/approvals/" + second + "/refuse", t.getString("adminKey"), "");
        assertEquals("REFUSED", refused.getString("status"), refused.toString());
        assertEquals(before + 1, ordersOf(customer), "only the first write was made");
        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "two_orders", args, second);
        assertTrue(collected.isError(), collected.toString());
        assertTrue(text(collected).contains("refused by admin:") && text(collected).contains("nothing more was written"), text(collected));
    }

    @Test
    void aChainedResumeThatDivergesMakesNeitherWriteAgain() throws Exception {
        JsonObject t = tenant();
        int customer = 14;
        Map<String, Object> args = Map.of("customerId", customer, "note", "diverge later");
        int before = ordersOf(customer);
        String second = (String) approveFirstOfTwo(t, args, customer, before).get("id");
        // Meanwhile an admin changes the first write: the recording does not have it, and it is not the one approved.
        String edited = ApprovalItSetup.TWO_ORDERS_CODE.replace("input.note + ' #1'", "input.note + ' #one'");
        saveCode(t, "twoTool", "two_orders", edited);
        JsonObject approved = CodeReplayIT.send("POST", "/api/approvals/" + second + "/approve", t.getString("adminKey"), "");
        assertEquals("DIVERGED", approved.getString("status"), approved.toString());
        assertEquals(before + 1, ordersOf(customer), "neither the edited first write nor the approved second one was made");
        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "two_orders", args, second);
        assertTrue(text(collected).contains("diverged") && text(collected).contains("nothing more was written"), text(collected));
        JsonObject resumed = CodeReplayIT.send("GET", "/api/code-runs/" + approved.getString("resumeRunId"), t.getString("adminKey"), null);
        assertEquals("DIVERGED", resumed.getString("status"), resumed.toString());
        assertTrue(resumed.getString("error").contains("order_create"), resumed.toString());
    }

    @Test
    void aRefusedWriteIsNeverMadeAndTheCallerLearnsWhoRefused() throws Exception {
        JsonObject t = tenant();
        Map<String, Object> args = Map.of("customerId", 3, "note", "refuse me");
        int before = ordersOf(3);
        String id = (String) approval(call(t.getString("askerKey"), "order_for", args, null)).get("id");
        JsonObject refused = CodeReplayIT.send("POST", "/api/approvals/" + id + "/refuse", t.getString("adminKey"), "");
        assertEquals("REFUSED", refused.getString("status"), refused.toString());
        assertEquals(before, ordersOf(3));
        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "order_for", args, id);
        assertTrue(collected.isError(), collected.toString());
        assertTrue(text(collected).contains("refused by admin:") && text(collected).contains("nothing was written"), text(collected));
        JsonObject row = CodeReplayIT.send("GET", "/api/code-runs/" + refused.getString("runId"), t.getString("adminKey"), null);
        assertEquals("REFUSED", row.getJsonObject("approval").getString("status"), row.toString());
        assertEquals(refused.getString("decidedBy"), row.getJsonObject("approval").getString("decidedBy"));
        assertEquals(0, CodeReplayIT.send("GET", "/api/approvals", t.getString("adminKey"), null).getJsonArray("approvals").size());
    }

    @Test
    void aResumeThatDivergesWritesNothingAndSaysWhy() throws Exception {
        JsonObject t = tenant();
        Map<String, Object> args = Map.of("customerId", 4, "note", "diverge");
        int before = ordersOf(4);
        int neighbour = ordersOf(5);
        String id = (String) approval(call(t.getString("askerKey"), "order_for", args, null)).get("id");
        // Meanwhile an admin changes the code: it now reads another customer, which the recording does not have.
        String edited = ApprovalItSetup.ORDER_CODE.replace("{customerId: input.customerId}", "{customerId: input.customerId + 1}");
        saveCode(t, "alwaysTool", "order_for", edited);
        JsonObject approved = CodeReplayIT.send("POST", "/api/approvals/" + id + "/approve", t.getString("adminKey"), "");
        assertEquals("DIVERGED", approved.getString("status"), approved.toString());
        assertEquals(before, ordersOf(4), "a diverged resume writes nothing");
        assertEquals(neighbour, ordersOf(5), "nor for the customer the edited code read");
        McpSchema.CallToolResult collected = call(t.getString("askerKey"), "order_for", args, id);
        assertTrue(collected.isError(), collected.toString());
        assertTrue(text(collected).contains("diverged") && text(collected).contains("nothing was written"), text(collected));
        JsonObject resumed = CodeReplayIT.send("GET", "/api/code-runs/" + approved.getString("resumeRunId"), t.getString("adminKey"), null);
        assertEquals("DIVERGED", resumed.getString("status"), resumed.toString());
        assertTrue(resumed.getString("error").contains("customer_get"), resumed.toString());
    }

    @Test
    void aToolThatFollowsTheRolePausesOnlyWhenTheRoleSaysSo() throws Exception {
        JsonObject t = tenant();
        Map<String, Object> args = Map.of("customerId", 6, "note", "by role");
        int before = ordersOf(6);
        McpSchema.CallToolResult direct = call(t.getString("askerKey"), "order_by_role", args, null);
        assertFalse(direct.isError(), direct.toString());
        assertTrue(direct.meta() == null || !direct.meta().containsKey("amcp/approval"), direct.toString());
        assertEquals(before + 1, ordersOf(6));

        JsonObject role = CodeReplayIT.send("PUT", "/api/roles/member", t.getString("adminKey"), "{\"approveWrites\": true}");
        assertTrue(role.getBoolean("approveWrites"), role.toString());
        assertEquals("PENDING", approval(call(t.getString("askerKey"), "order_by_role", args, null)).get("status"));
        assertEquals(before + 1, ordersOf(6));
        HttpResponse<String> bad = CodeReplayIT.sendRaw("PUT", "/api/roles/member", t.getString("adminKey"), "{\"approveWrites\": \"yes\"}");
        assertEquals(400, bad.statusCode(), bad.body());
    }

    @Test
    void badApprovalSettingsAndUnknownIdsAreRefusedWithAMessage() throws Exception {
        JsonObject t = tenant();
        String base = "{\"server\":\"demo\",\"name\":\"approving\",\"code\":\"return 1\",\"uses\":[],";
        HttpResponse<String> unknown = CodeReplayIT.sendRaw("POST", "/api/code-tools", t.getString("adminKey"),
                base + "\"allowWrites\":true,\"approval\":\"sometimes\"}");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("approval is 'always', 'never' or 'role'"), unknown.body());
        HttpResponse<String> withoutWrites = CodeReplayIT.sendRaw("POST", "/api/code-tools", t.getString("adminKey"), base + "\"approval\":\"always\"}");
        assertEquals(400, withoutWrites.statusCode(), withoutWrites.body());
        assertTrue(withoutWrites.body().contains("set allowWrites"), withoutWrites.body());
        HttpResponse<String> wrongType = CodeReplayIT.sendRaw("POST", "/api/code-tools", t.getString("adminKey"), base + "\"approval\":true}");
        assertEquals(400, wrongType.statusCode(), wrongType.body());
        HttpResponse<String> missing = CodeReplayIT.sendRaw("POST", "/api/approvals/no-such-id/approve", t.getString("adminKey"), "");
        assertEquals(404, missing.statusCode(), missing.body());
        assertTrue(missing.body().contains("No approval no-such-id"), missing.body());
        assertEquals(404, CodeReplayIT.sendRaw("GET", "/api/approvals/" + "x".repeat(300), t.getString("adminKey"), null).statusCode());
    }
}
