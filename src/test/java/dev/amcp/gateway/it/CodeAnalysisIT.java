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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Save-time analysis of code tools by the runner's parser, over REST, and progress of code runs reaching an MCP client
 * (the official SDK client, and the raw event stream for the order on the wire): the real gateway, the live runner
 * and the demo tools.
 */
@ExtendWith(ArquillianExtension.class)
class CodeAnalysisIT {

    /** Three bridge calls, then the code's own report. */
    static final String THREE_CALLS = """
            const found = await amcp.run('customers_search', {q: 'Milano', limit: 5});
            const stock = await amcp.run('inventory_list', {lowStock: true});
            const orders = await amcp.run('orders_list', {status: 'open', limit: 5});
            amcp.progress(4, 4, 'summing up');
            return {n: found.count + stock.count + orders.count};
            """;

    /** The runs here are about what they report, not their wall time: a loaded machine must not time them out. */
    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static HttpResponse<String> saveCodeTool(String key, String name, String code, List<String> uses, String runAs) throws Exception {
        var usesJson = Json.createArrayBuilder();
        uses.forEach(usesJson::add);
        String body = Json.createObjectBuilder().add("server", "demo").add("name", name).add("code", code).add("uses", usesJson)
                .add("runAs", runAs).build().toString();
        return McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/code-tools")).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String tools(String key) throws Exception {
        return McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/tools")).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void savingChecksToolNamesAndSyntaxWithTheRunnersParser() throws Exception {
        String key = CodeModeMcpIT.tenant().getString("key"); // has one code tool; the community license allows 3

        var outside = saveCodeTool(key, "outside", "const c = await amcp.run('customers_search', {q: 'a'});\n"
                + "// amcp.run('in_a_comment') is no call\nconst o = await amcp.run(\"orders_list\", {});\nreturn o;", List.of("customers_search"), "invoker");
        assertEquals(400, outside.statusCode(), outside.body());
        assertTrue(outside.body().contains("Line 3 calls 'orders_list', which is not in uses (missing: orders_list)"), outside.body());

        String computed = "const name = 'customers_search';\nreturn await amcp.run(name, {q: 'a'});";
        var definer = saveCodeTool(key, "computed_definer", computed, List.of("customers_search"), "definer");
        assertEquals(400, definer.statusCode(), definer.body());
        assertTrue(definer.body().contains("Line 2, column 23: the tool name passed to amcp.run is computed; a tool that runs as its definer"
                + " must name every tool it calls literally"), definer.body());

        var syntax = saveCodeTool(key, "broken", "const a = 1;\nreturn (a;", List.of(), "invoker");
        assertEquals(400, syntax.statusCode(), syntax.body());
        assertTrue(syntax.body().contains("Line 2, column 10: Unexpected token"), syntax.body());

        var invoker = saveCodeTool(key, "computed_invoker", computed, List.of("customers_search"), "invoker");
        assertEquals(201, invoker.statusCode(), invoker.body());
        assertEquals(List.of("Line 2, column 23: the tool name passed to amcp.run is computed; this call is checked against uses only when it runs"),
                McpHttp.parse(invoker.body()).asJsonObject().getJsonArray("warnings").getValuesAs(jakarta.json.JsonString.class).stream()
                        .map(jakarta.json.JsonString::getString).toList());

        var bulkImport = saveCodeTool(key, "bulk-import", "// import the customers of Milano\nconst r = await amcp.run('customers_search', "
                + "{q: 'Milano'});\nreturn {note: 'import done', n: r.count};", List.of("customers_search"), "definer");
        assertEquals(201, bulkImport.statusCode(), bulkImport.body());
        assertEquals(0, McpHttp.parse(bulkImport.body()).asJsonObject().getJsonArray("warnings").size(), bulkImport.body());

        String saved = tools(key);
        assertTrue(saved.contains("\"computed_invoker\"") && saved.contains("\"bulk-import\""), saved);
        assertFalse(saved.contains("\"outside\"") || saved.contains("\"computed_definer\"") || saved.contains("\"broken\""), "refused ones are not saved: " + saved);
    }

    static HttpResponse<String> saveWithoutUses(String key, String name, String code, String runAs) throws Exception {
        String body = Json.createObjectBuilder().add("server", "demo").add("name", name).add("code", code).add("runAs", runAs)
                .build().toString();
        return McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/code-tools")).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<String> strings(jakarta.json.JsonArray array) {
        return array.getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList();
    }

    /**
     * An agent saves a code tool without {@code uses}: the save takes the names the runner reads (the word import in a
     * comment is no import), says so, and the tool then runs, is recorded, and replays against that recording.
     */
    @Test
    void aCodeToolSavedWithoutUsesTakesTheNamesTheCodeCallsAndReplays() throws Exception {
        String key = CodeModeMcpIT.tenant().getString("key");
        String code = """
                // import nothing: the customers of Milano, then the open orders
                const found = await amcp.run('customers_search', {q: 'Milano', limit: 5});
                const orders = await amcp.run("orders_list", {status: 'open', limit: 5});
                return {customers: found.count, orders: orders.count};
                """;
        var saved = saveWithoutUses(key, "milano_report", code, "invoker");
        assertEquals(201, saved.statusCode(), saved.body());
        JsonObject answer = McpHttp.parse(saved.body()).asJsonObject();
        assertEquals(List.of("customers_search", "orders_list"), strings(answer.getJsonArray("uses")), saved.body());
        assertEquals(List.of("uses was read from the code: customers_search, orders_list"), strings(answer.getJsonArray("warnings")));
        JsonObject stored = CodeReplayIT.send("GET", "/api/code-tools/" + answer.getInt("id"), key, null);
        assertEquals(List.of("customers_search", "orders_list"), strings(stored.getJsonArray("uses")), stored.toString());

        Number customers;
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            var called = client.callTool(new McpSchema.CallToolRequest("milano_report", Map.of()));
            assertFalse(Boolean.TRUE.equals(called.isError()), String.valueOf(called.content()));
            customers = (Number) ((Map<?, ?>) called.structuredContent()).get("customers");
        }
        JsonObject run = CodeReplayIT.send("GET", "/api/code-runs?limit=1", key, null).getJsonArray("runs").getJsonObject(0);
        assertEquals("SUCCESS", run.getString("status"), run.toString());
        JsonObject replay = CodeReplayIT.send("POST", "/api/code-tools/" + answer.getInt("id") + "/replay", key,
                CodeReplayIT.replayBody(run.getString("runId"), null));
        assertEquals("SUCCESS", replay.getString("status"), replay.toString());
        assertTrue(replay.getBoolean("same"), replay.toString());
        assertEquals(customers.intValue(), replay.getJsonObject("newValue").getInt("customers"), replay.toString());

        // An explicit uses keeps today's check; a computed name keeps today's rule for each runAs.
        var explicit = saveCodeTool(key, "explicit_empty", code, List.of(), "invoker");
        assertEquals(400, explicit.statusCode(), explicit.body());
        assertTrue(explicit.body().contains("Line 2 calls 'customers_search', which is not in uses"), explicit.body());
        String computed = "const name = 'customers_search';\nconst c = await amcp.run(name, {q: 'a'});\nreturn amcp.run('orders_list', {});";
        var definer = saveWithoutUses(key, "computed_definer", computed, "definer");
        assertEquals(400, definer.statusCode(), definer.body());
        assertTrue(definer.body().contains("a tool that runs as its definer must name every tool it calls literally"), definer.body());
        var invoker = saveWithoutUses(key, "computed_invoker", computed, "invoker");
        assertEquals(201, invoker.statusCode(), invoker.body());
        JsonObject invokerAnswer = McpHttp.parse(invoker.body()).asJsonObject();
        assertEquals(List.of("orders_list"), strings(invokerAnswer.getJsonArray("uses")), invoker.body());
        assertEquals(List.of("Line 2, column 26: the tool name passed to amcp.run is computed; this call is checked against uses only when it runs",
                "uses was read from the code: orders_list"), strings(invokerAnswer.getJsonArray("warnings")));
    }

    @Test
    void aCodeRunReportsEachFinishedBridgeCallAndItsOwnProgressToTheSdkClient() throws Exception {
        String key = CodeModeMcpIT.tenant().getString("key");
        List<McpSchema.ProgressNotification> progress = Collections.synchronizedList(new ArrayList<>());
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key, progress::add)) {
            client.initialize();
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("code_execute",
                    Map.of("code", THREE_CALLS), Map.of("progressToken", "run-1")));
            assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
            McpHttp.awaitNotifications(progress, 4);
            // The SDK may reorder notifications that arrive together; progress grows, so sorting by it restores the wire order
            // (which the event-stream test below asserts directly).
            List<String> seen = progress.stream().sorted(Comparator.comparingDouble(McpSchema.ProgressNotification::progress))
                    .map(p -> p.progressToken() + " " + p.progress() + "/" + p.total() + " " + p.message()).toList();
            assertEquals(List.of("run-1 1.0/null customers_search done", "run-1 2.0/null inventory_list done",
                    "run-1 3.0/null orders_list done", "run-1 4.0/4.0 summing up"), seen);
        }
    }

    @Test
    void progressIsOnTheEventStreamInOrderBeforeTheResultAndOnlyWhenAskedFor() throws Exception {
        String key = CodeModeMcpIT.tenant().getString("key");
        String arguments = Json.createObjectBuilder().add("code", THREE_CALLS).build().toString();
        HttpResponse<String> sse = McpHttp.post("/mcp/demo", key, McpHttp.request(5, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":" + arguments + ",\"_meta\":{\"progressToken\":\"p\"}}"));
        assertEquals(200, sse.statusCode(), sse.body());
        List<JsonObject> events = Arrays.stream(sse.body().split("\n\n")).filter(e -> e.startsWith("event:"))
                .map(e -> McpHttp.parse(e.substring(e.indexOf("data: ") + 6)).asJsonObject()).toList();
        List<String> progress = events.stream().filter(e -> "notifications/progress".equals(e.getString("method", "")))
                .map(e -> e.getJsonObject("params")).map(p -> p.getJsonNumber("progress").intValue() + " " + p.getString("message")).toList();
        assertEquals(List.of("1 customers_search done", "2 inventory_list done", "3 orders_list done", "4 summing up"), progress, sse.body());
        assertEquals(5, events.size(), sse.body());
        assertEquals(5, events.get(4).getInt("id"), "the result comes last: " + sse.body());

        HttpResponse<String> plain = McpHttp.post("/mcp/demo", key, McpHttp.request(6, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":" + arguments + "}"));
        assertEquals(200, plain.statusCode(), plain.body());
        assertFalse(plain.body().contains("notifications/progress"), "no progressToken, no progress: " + plain.body());
        assertTrue(plain.body().contains("\"result\"") && plain.body().contains("\"id\":6"), plain.body());
    }
}
