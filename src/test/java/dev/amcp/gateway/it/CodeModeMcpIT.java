package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code mode driven through MCP by the official Java SDK client, against the real gateway and the live runner, over
 * the demo tools: what an AI client actually sees.
 */
@ExtendWith(ArquillianExtension.class)
class CodeModeMcpIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway();
    }

    static JsonObject tenant() throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/it-code-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject();
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    @SuppressWarnings("unchecked")
    /** The admin audit log as this admin sees it. */
    static List<JsonObject> auditRows(String key, String query) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/audit" + query))
                .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getJsonArray("changes").getValuesAs(JsonObject.class);
    }

    static Map<String, Object> structured(McpSchema.CallToolResult result) {
        return (Map<String, Object>) result.structuredContent();
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static JsonObject lastRun(String key) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/code-runs?limit=1"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getJsonArray("runs").getJsonObject(0);
    }

    @Test
    void aCodeToolOrchestratesTwoToolsAndReturnsTheirSum() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            var orders = structured(call(client, "orders_list", Map.of("status", "open", "limit", 500)));
            var stock = structured(call(client, "inventory_list", Map.of("lowStock", true)));
            int expected = ((Number) orders.get("count")).intValue() + ((Number) stock.get("count")).intValue();
            McpSchema.CallToolResult result = call(client, "sum_two", Map.of());
            assertFalse(result.isError(), text(result));
            assertEquals(expected, ((Number) structured(result).get("sum")).intValue());
            assertEquals("SUCCESS", lastRun(t.getString("key")).getString("status"));
        }
    }

    @Test
    void inlineCodeExecuteOverTheDemoToolsFiltersData() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            Set<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
            assertTrue(names.containsAll(Set.of("code_execute", "propose_code_tool", "sum_two", "customer_get")), names.toString());
            McpSchema.CallToolResult result = call(client, "code_execute", Map.of("code", """
                    const {customers} = await amcp.run('customers_search', {q: 'Milano', limit: 500});
                    const gold = customers.filter(c => c.tier === 'gold');
                    return {milano: customers.length, gold: gold.map(c => c.id)};
                    """));
            assertFalse(result.isError(), text(result));
            int milano = ((Number) structured(result).get("milano")).intValue();
            assertTrue(milano > 0);
            var direct = structured(call(client, "customers_search", Map.of("q", "Milano", "limit", 500)));
            assertEquals(((Number) direct.get("count")).intValue(), milano);
        }
    }

    @Test
    void codeExecuteDeclaresTheToolsItsCodeMayCallMostUsedFirst() throws Exception {
        JsonObject t = tenant();
        // Before the first listing (the usage order is counted then): code on this server uses inventory_list most.
        // A plain POST, not the SDK client: its event stream would take the list's digest at initialize, a listing.
        String code = """
                await amcp.run('inventory_list', {lowStock: true});
                const d = await amcp.describe('customer_get');
                const found = await amcp.search('customer');
                return {ts: d.ts, signatures: found.map(f => f.signature)};
                """;
        HttpResponse<String> run = McpHttp.post("/mcp/demo", t.getString("key"), McpHttp.request(1, "tools/call",
                jakarta.json.Json.createObjectBuilder().add("name", "code_execute")
                        .add("arguments", jakarta.json.Json.createObjectBuilder().add("code", code)).build().toString()),
                "MCP-Protocol-Version", McpHttp.LATEST); // a revision with structured results
        JsonObject used = McpHttp.parse(run.body()).asJsonObject().getJsonObject("result");
        assertFalse(used.getBoolean("isError"), run.body());
        JsonObject structured = used.getJsonObject("structuredContent");
        assertTrue(structured.getString("ts").contains("function run(name: \"customer_get\", args: {"), run.body());
        assertTrue(structured.getJsonArray("signatures").getValuesAs(jakarta.json.JsonString.class).stream()
                .anyMatch(sig -> sig.getString().startsWith("run(name: \"customers_search\", args: {")), run.body());
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            String description = client.listTools().tools().stream().filter(tool -> tool.name().equals("code_execute"))
                    .findFirst().orElseThrow().description();
            assertTrue(description.contains("declare namespace amcp {"), description);
            int inventory = description.indexOf("\"inventory_list\": { args:");
            int customer = description.indexOf("\"customer_get\": { args:");
            assertTrue(inventory > 0 && customer > 0 && inventory < customer, description);
            assertFalse(description.contains("\"order_create\""), "inline code cannot write, so no write tool is declared");
        }
    }

    @Test
    void inlineWritesAreDeniedAndFetchIsContained() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            McpSchema.CallToolResult write = call(client, "code_execute", Map.of("code",
                    "try { await amcp.run('order_create', {customerId: 1, sku: 'SKU-001', quantity: 1}); return 'wrote'; } catch (e) { return e.code; }"));
            assertEquals("\"not_available\"", text(write));
            McpSchema.CallToolResult fetch = call(client, "code_execute", Map.of("code",
                    "const r = await fetch('" + McpHttp.base() + "/health'); return r.status;"));
            assertTrue(fetch.isError(), text(fetch));
            assertEquals("ERROR", lastRun(t.getString("key")).getString("status"));
        }
    }

    @Test
    void aTimeoutIsReportedAsTimeout() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            McpSchema.CallToolResult spin = call(client, "code_execute", Map.of("code", "while (true) {}"));
            assertTrue(spin.isError());
            assertEquals("TIMEOUT", lastRun(t.getString("key")).getString("status"));
        }
    }

    /** A client that hangs up without notifications/cancelled: the next heartbeat write fails and the run stops. */
    @Test
    void aClientThatGoesAwayCancelsItsRun() throws Exception {
        JsonObject t = tenant();
        String key = t.getString("key");
        long start = System.nanoTime();
        McpHttp.callAndHangUp("/mcp/demo", key, "while (true) {}", 400); // the run has started; now the client goes away
        JsonObject run = lastRun(key);
        while (("RUNNING".equals(run.getString("status")) || !run.containsKey("wallMs")) && System.nanoTime() - start < 10_000_000_000L) {
            Thread.sleep(100);
            run = lastRun(key);
        }
        assertEquals("CANCELLED", run.getString("status"), run.toString());
        assertTrue(run.getJsonNumber("wallMs").longValue() < 2500, "stopped well before the 3 s timeout: " + run);
    }

    @Test
    void theSharedEndpointNeverListsCodeTools() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp", t.getString("key"))) {
            client.initialize();
            Set<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
            assertTrue(names.contains("customer_get"));
            assertTrue(names.stream().noneMatch(n -> Set.of("code_execute", "propose_code_tool", "sum_two").contains(n)), names.toString());
        }
    }

    @Test
    void codeOfWorkspaceACannotReachWorkspaceB() throws Exception {
        JsonObject t = tenant();
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", t.getString("key"))) {
            client.initialize();
            McpSchema.CallToolResult result = call(client, "code_execute", Map.of("code", """
                    let run;
                    try { await amcp.run('secret_b', {}); run = 'ran'; } catch (e) { run = e.code; }
                    const found = (await amcp.search('secret')).length;
                    return {run, found};
                    """));
            assertEquals("not_available", structured(result).get("run"));
            assertEquals(0, ((Number) structured(result).get("found")).intValue());
        }
    }

    @Test
    void anAgentProposalBecomesACodeToolWhenAnAdminAcceptsIt() throws Exception {
        JsonObject t = tenant();
        String key = t.getString("key");
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            McpSchema.CallToolResult proposed = call(client, "propose_code_tool", Map.of("name", "gold_count",
                    "description", "Counts gold customers", "uses", java.util.List.of("customers_search"),
                    "code", "const r = await amcp.run('customers_search', {limit: 500}); return r.customers.filter(c => c.tier === 'gold').length;"));
            assertFalse(proposed.isError(), text(proposed));
            long id = ((Number) structured(proposed).get("proposalId")).longValue();
            HttpResponse<String> longNote = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + id + "/reject"))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"" + "n".repeat(2001) + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, longNote.statusCode(), longNote.body());
            assertTrue(longNote.body().contains("A review note is limited to 2000 characters; this one has 2001"), longNote.body());
            HttpResponse<String> accepted = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + id + "/accept"))
                    .header("Authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, accepted.statusCode(), accepted.body());
            List<JsonObject> audited = auditRows(key, "");
            assertEquals(List.of("codeTool create"), audited.stream().filter(r -> r.getString("subject").startsWith("gold_count"))
                    .map(r -> r.getString("kind") + " " + r.getString("action")).toList(), "accepting writes one audit row; the refused note none");
            McpSchema.CallToolResult second = call(client, "propose_code_tool", Map.of("name", "silver_count",
                    "description", "Counts silver customers", "uses", List.of("customers_search"),
                    "code", "const r = await amcp.run('customers_search', {limit: 500}); return r.customers.filter(c => c.tier === 'silver').length;"));
            assertFalse(second.isError(), text(second));
            long secondId = ((Number) structured(second).get("proposalId")).longValue();
            HttpResponse<String> rejected = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + secondId + "/reject"))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"not now\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, rejected.statusCode(), rejected.body());
            JsonObject rejection = auditRows(key, "?kind=proposal").get(0);
            assertEquals("silver_count (" + secondId + ") reject not now", rejection.getString("subject") + " " + rejection.getString("action")
                    + " " + rejection.getJsonObject("after").getString("note"));
            HttpResponse<String> again = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + id + "/accept"))
                    .header("Authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, again.statusCode(), "a proposal is accepted once");
            HttpResponse<String> bogus = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals?status=bogus"))
                    .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, bogus.statusCode(), bogus.body());
            assertTrue(bogus.body().contains("status must be one of pending, accepted, rejected, not 'bogus'"), bogus.body());
            HttpResponse<String> missing = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + (id + 100000) + "/reject"))
                    .header("Authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, missing.statusCode(), missing.body());
            HttpResponse<String> numericNote = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/api/proposals/" + id + "/reject"))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"note\":5}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, numericNote.statusCode(), numericNote.body());
            assertTrue(numericNote.body().contains("note must be a string"), numericNote.body());
            McpSchema.CallToolResult gold = call(client, "gold_count", Map.of());
            assertFalse(gold.isError(), text(gold));
            @SuppressWarnings("unchecked")
            var customers = (java.util.List<Map<String, Object>>) structured(call(client, "customers_search", Map.of("limit", 500))).get("customers");
            long expected = customers.stream().filter(c -> "gold".equals(c.get("tier"))).count();
            assertTrue(expected > 0, "the demo data has gold customers");
            assertEquals(expected, Long.parseLong(text(gold)), "the accepted tool counts exactly the gold customers");
        }
    }
}
