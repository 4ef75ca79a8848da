package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replay and dry run against the real gateway, the live runner and PostgreSQL, driven as a client: recorded runs replayed
 * with the same and with edited code (no tool called: the counting upstream proves it), divergence, results withheld from
 * a caller without scope, {@code requireReplay} refusing a bad save, and a dry run through the official MCP Java SDK
 * client that plans the demo's {@code order_create} and creates nothing.
 */
@ExtendWith(ArquillianExtension.class)
class CodeReplayIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        // Room for a cold runner on a loaded machine: these tests are about answers, not speed.
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static JsonObject tenant() throws Exception {
        return send("POST", "/it-replay-setup/tenant", null, "");
    }

    static JsonObject send(String method, String path, String key, String body) throws Exception {
        HttpResponse<String> r = sendRaw(method, path, key, body);
        assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
        return McpHttp.parse(r.body()).asJsonObject();
    }

    static HttpResponse<String> sendRaw(String method, String path, String key, String body) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(McpHttp.base() + path)).header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static int upstreamCalls() throws Exception {
        return send("GET", "/it-upstream/counted-calls", null, null).getInt("calls");
    }

    /** Runs items_total once through MCP and returns the run's id. */
    static String recordedRun(JsonObject t) throws Exception {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            var result = client.callTool(new McpSchema.CallToolRequest("items_total", Map.of("first", "a")));
            assertFalse(result.isError(), result.toString());
            assertEquals(List.of("a", "b"), ((Map<?, ?>) result.structuredContent()).get("ids"));
        }
        JsonObject run = send("GET", "/api/code-runs?limit=1", t.getString("key"), null).getJsonArray("runs").getJsonObject(0);
        assertEquals("live", run.getString("kind"));
        assertEquals("SUCCESS", run.getString("status"));
        return run.getString("runId");
    }

    static String replayBody(String runId, String code) {
        var b = Json.createObjectBuilder().add("runId", runId);
        if (code != null) {
            b.add("code", code);
        }
        return b.build().toString();
    }

    @Test
    void aRecordedRunReplaysWithTheSameAndWithEditedCodeWithoutCallingTools() throws Exception {
        JsonObject t = tenant();
        String key = t.getString("key");
        String replayPath = "/api/code-tools/" + t.getInt("itemsTool") + "/replay";
        String runId = recordedRun(t);
        int before = upstreamCalls();

        JsonObject same = send("POST", replayPath, key, replayBody(runId, null));
        assertEquals("SUCCESS", same.getString("status"), same.toString());
        assertTrue(same.getBoolean("same"), same.toString());
        assertEquals(same.get("oldValue"), same.get("newValue"));
        assertEquals(List.of("a", "b"), same.getJsonObject("newValue").getJsonArray("ids").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());

        // Edited: the same calls in the other order (Promise.all), a different return value.
        JsonObject edited = send("POST", replayPath, key, replayBody(runId, """
                const [b, a] = await Promise.all([amcp.run('count_item', {id: 'b'}), amcp.run('count_item', {id: input.first})]);
                return {first: a.id, calls: [a.call, b.call]};
                """));
        assertEquals("SUCCESS", edited.getString("status"), edited.toString());
        assertFalse(edited.getBoolean("same"));
        assertEquals("a", edited.getJsonObject("newValue").getString("first"));
        assertEquals(same.get("oldValue"), edited.get("oldValue"));

        JsonObject diverged = send("POST", replayPath, key, replayBody(runId, """
                const a = await amcp.run('count_item', {id: 'a'});
                const z = await amcp.run('count_item', {id: 'zzz'});
                return {a, z};
                """));
        assertEquals("DIVERGED", diverged.getString("status"), diverged.toString());
        JsonObject where = diverged.getJsonObject("diverged");
        assertEquals(1, where.getInt("callIndex"));
        assertEquals("count_item", where.getString("tool"));
        assertEquals("zzz", where.getJsonObject("args").getString("id"));
        assertEquals("not_recorded", where.getString("reason"));

        assertEquals(before, upstreamCalls(), "a replay never calls a tool");
        JsonObject row = send("GET", "/api/code-runs/" + diverged.getString("runId"), key, null);
        assertEquals("replay", row.getString("kind"));
        assertEquals(runId, row.getString("replayOf"));
        assertEquals("DIVERGED", row.getString("status"));
    }

    @Test
    void resultsOfToolsOutsideTheViewersScopeAreWithheld() throws Exception {
        JsonObject t = tenant();
        String runId = recordedRun(t);
        String tool = "/api/code-tools/" + t.getInt("itemsTool");

        JsonObject asAdmin = send("GET", tool + "/recordings/" + runId, t.getString("key"), null);
        assertEquals("a", asAdmin.getJsonArray("calls").getJsonObject(0).getJsonObject("value").getString("id"), asAdmin.toString());
        JsonObject shown = send("GET", tool + "/recordings/" + runId, t.getString("memberKey"), null);
        assertTrue(shown.getJsonArray("calls").getJsonObject(0).getBoolean("withheld"), shown.toString());
        assertFalse(shown.getJsonArray("calls").getJsonObject(0).containsKey("value"), shown.toString());
        assertFalse(shown.containsKey("result"), shown.toString());

        int before = upstreamCalls();
        JsonObject replay = send("POST", tool + "/replay", t.getString("memberKey"), replayBody(runId, null));
        assertEquals("DIVERGED", replay.getString("status"), replay.toString());
        assertEquals("withheld", replay.getJsonObject("diverged").getString("reason"));
        assertTrue(replay.getBoolean("oldValueWithheld"));
        assertEquals(jakarta.json.JsonValue.NULL, replay.get("oldValue"));
        assertEquals(before, upstreamCalls());
    }

    @Test
    void requireReplayRefusesASaveThatFailsARecordedRun() throws Exception {
        JsonObject t = tenant();
        recordedRun(t);
        String path = "/api/code-tools/" + t.getInt("itemsTool");
        int before = upstreamCalls();
        String bad = """
                const a = await amcp.run('count_item', {id: input.first});
                const c = await amcp.run('count_item', {id: 'c'});
                return {ids: [a.id, c.id]};
                """;
        HttpResponse<String> refused = sendRaw("PUT", path, t.getString("key"), save(bad));
        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("DIVERGED") && refused.body().contains("requireReplay"), refused.body());

        String good = """
                const a = await amcp.run('count_item', {id: input.first});
                const b = await amcp.run('count_item', {id: 'b'});
                return {ids: [a.id, b.id], count: 2};
                """;
        HttpResponse<String> saved = sendRaw("PUT", path, t.getString("key"), save(good));
        assertEquals(200, saved.statusCode(), saved.body());
        assertEquals(before, upstreamCalls(), "the save-time replays called no tool");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            var result = client.callTool(new McpSchema.CallToolRequest("items_total", Map.of("first", "a")));
            assertEquals(2, ((Number) ((Map<?, ?>) result.structuredContent()).get("count")).intValue(), result.toString());
        }
    }

    static String save(String code) {
        return Json.createObjectBuilder().add("server", "demo").add("name", "items_total").add("description", "Reads two items")
                .add("inputSchema", McpHttp.parse(ReplayItSetup.ITEMS_SCHEMA)).add("code", code)
                .add("uses", Json.createArrayBuilder().add("count_item")).add("runAs", "invoker").add("requireReplay", true)
                .build().toString();
    }

    static int ordersOfCustomerOne() throws Exception {
        return send("GET", "/demo-api/orders?customerId=1&limit=500", null, null).getInt("count");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDryRunPlansTheDemosWritesAndCreatesNothing() throws Exception {
        JsonObject t = tenant();
        int orders = ordersOfCustomerOne();
        Map<String, Object> dry = Map.of("amcp/dryRun", true);
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            var result = client.callTool(new McpSchema.CallToolRequest("plan_order", Map.of(), dry));
            assertFalse(result.isError(), result.toString());
            var value = (Map<String, Object>) result.structuredContent();
            assertEquals(1, ((Number) value.get("customer")).intValue(), "reads run live");
            assertEquals(Map.of("dryRun", true), value.get("order"));
            assertEquals(true, result.meta().get("amcp/dryRun"));
            var planned = (List<Map<String, Object>>) result.meta().get("amcp/plannedWrites");
            assertEquals(1, planned.size(), result.toString());
            assertEquals("order_create", planned.get(0).get("tool"));
            assertEquals("SKU-001", ((Map<String, Object>) planned.get(0).get("args")).get("sku"));
            assertEquals("dry_run", send("GET", "/api/code-runs?limit=1", t.getString("key"), null).getJsonArray("runs")
                    .getJsonObject(0).getString("kind"));

            // The flag holds on a plain call of a write tool too.
            var direct = client.callTool(new McpSchema.CallToolRequest("order_create", Map.of("customerId", 1, "sku", "SKU-002", "quantity", 1), dry));
            assertFalse(direct.isError(), direct.toString());
            assertEquals("order_create", ((List<Map<String, Object>>) direct.meta().get("amcp/plannedWrites")).get(0).get("tool"));
            assertEquals(orders, ordersOfCustomerOne(), "a dry run creates nothing");

            var live = client.callTool(new McpSchema.CallToolRequest("plan_order", Map.of()));
            assertFalse(live.isError(), live.toString());
            assertEquals(orders + 1, ordersOfCustomerOne(), "without the flag the same tool writes");
        }
    }
}
