package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tool schemas against the real thing (Liberty, the database, the official MCP SDK client, the real runner): output
 * schemas are checked over REST, advertised on {@code tools/list} and followed by {@code structuredContent} (a result
 * that does not is a tool error); a change to a used tool's schemas (an edit, an OpenAPI re-import) puts a code tool
 * into review and refuses its definer runs until it is saved again; the demo's tools come from the demo API's OpenAPI
 * document, and the gateway's own {@code /openapi} imports.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ToolSchemasIT {

    static final String APP = "/amcp-schemas";

    @Deployment(testable = false)
    static WebArchive gateway() {
        // the server's root, where Liberty serves the gateway's own /openapi
        return Deployments.gateway("amcp-schemas", false, Map.of("AMCP_UPSTREAM_SELF", "http://127.0.0.1:" + System.getProperty("it.http.port", "9180")));
    }

    /** A fresh demo workspace: its admin's key. */
    static String tenant() throws Exception {
        HttpResponse<String> r = send("POST", "/it-schemas-setup/tenant", null, "");
        assertEquals(200, r.statusCode(), r.body());
        return OperatorIT.json(r).getString("key");
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }

    static String customerTool(String name, String outputSchema) {
        return "{\"server\":\"demo\",\"name\":\"" + name + "\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"customerId\":{\"type\":\"integer\"}},"
                + "\"required\":[\"customerId\"]},\"outputSchema\":" + outputSchema
                + ",\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_DEMO}/customers/{customerId}\"}}";
    }

    @Test
    void outputSchemasAreCheckedStoredAdvertisedAndFollowed() throws Exception {
        String key = tenant();
        HttpResponse<String> notObject = send("POST", "/api/tools", key, customerTool("customer_bad", "{\"type\":\"array\"}"));
        assertEquals(400, notObject.statusCode(), notObject.body());
        assertTrue(notObject.body().contains("outputSchema") && notObject.body().contains("\\\"type\\\": \\\"object\\\""), notObject.body());
        HttpResponse<String> invalid = send("POST", "/api/tools", key,
                customerTool("customer_bad", "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"nonsense\"}}}"));
        assertEquals(400, invalid.statusCode(), invalid.body());
        assertTrue(invalid.body().contains("outputSchema") && invalid.body().contains("not valid JSON Schema"), invalid.body());
        HttpResponse<String> notJson = send("POST", "/api/tools", key, customerTool("customer_bad", "\"text\""));
        assertEquals(400, notJson.statusCode(), notJson.body());
        assertTrue(notJson.body().contains("outputSchema must be a JSON object"), notJson.body());

        String strict = "{\"type\":\"object\",\"required\":[\"id\",\"vat\"],\"properties\":{\"id\":{\"type\":\"integer\"},\"vat\":{\"type\":\"string\"}}}";
        HttpResponse<String> created = send("POST", "/api/tools", key, customerTool("customer_strict", strict));
        assertEquals(201, created.statusCode(), created.body());
        long strictId = OperatorIT.json(created).getJsonNumber("id").longValue();

        JsonObject listed = OperatorIT.json(send("GET", "/api/tools", key, null)).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .filter(t -> t.getString("name").equals("customer_strict")).findFirst().orElseThrow();
        assertEquals(McpHttp.parse(strict), listed.getJsonObject("outputSchema"), "stored as given");

        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/demo", key)) {
            client.initialize();
            Map<String, McpSchema.Tool> tools = new java.util.HashMap<>();
            client.listTools().tools().forEach(t -> tools.put(t.name(), t));
            assertTrue(tools.get("customer_get").outputSchema().toString().contains("tier"), "the demo tool's output schema is advertised");
            assertTrue(tools.get("customer_strict").outputSchema().toString().contains("vat"));

            McpSchema.CallToolResult ok = client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", 7)));
            assertFalse(Boolean.TRUE.equals(ok.isError()), ok.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> customer = (Map<String, Object>) ok.structuredContent();
            assertEquals(7, ((Number) customer.get("id")).intValue(), "structuredContent follows the advertised schema");

            McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest("customer_strict", Map.of("customerId", 7)));
            assertTrue(Boolean.TRUE.equals(refused.isError()), refused.toString());
            String text = ((McpSchema.TextContent) refused.content().get(0)).text();
            assertTrue(text.contains("does not follow its outputSchema") && text.contains("vat"), text);

            // the admin fixes the schema: the same call now answers structured content
            HttpResponse<String> fixed = send("PUT", "/api/tools/" + strictId, key,
                    customerTool("customer_strict", "{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"integer\"}}}"));
            assertEquals(200, fixed.statusCode(), fixed.body());
            McpSchema.CallToolResult now = client.callTool(new McpSchema.CallToolRequest("customer_strict", Map.of("customerId", 7)));
            assertFalse(Boolean.TRUE.equals(now.isError()), now.toString());
        }
    }

    static final String STOCK_OUTPUT = "{\"type\":\"object\",\"required\":[\"products\",\"count\"],\"properties\":{\"products\":{\"type\":\"array\"},"
            + "\"count\":{\"type\":\"integer\"}}}";
    static final String STOCK_OUTPUT_2 = "{\"type\":\"object\",\"required\":[\"products\",\"count\"],\"properties\":{\"products\":{\"type\":\"array\"},"
            + "\"count\":{\"type\":\"integer\"},\"warehouse\":{\"type\":\"string\"}}}";

    static String stockTool(String outputSchema) {
        return "{\"server\":\"demo\",\"name\":\"stock_list\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"lowStock\":{\"type\":\"boolean\"}}},"
                + "\"outputSchema\":" + outputSchema + ",\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_DEMO}/inventory\","
                + "\"query\":{\"lowStock\":\"lowStock\"}}}";
    }

    /** A pasted OpenAPI document whose one operation is the stock_list tool, with a given response schema. */
    static String stockDocument(String responseSchema) {
        return "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Stock\",\"version\":\"1\"},\"paths\":{\"/inventory\":{\"get\":{"
                + "\"operationId\":\"stock_list\",\"parameters\":[{\"name\":\"lowStock\",\"in\":\"query\",\"schema\":{\"type\":\"boolean\"}}],"
                + "\"responses\":{\"200\":{\"description\":\"ok\",\"content\":{\"application/json\":{\"schema\":" + responseSchema + "}}}}}}}}";
    }

    static JsonObject codeTool(String key, long id) throws Exception {
        HttpResponse<String> r = send("GET", "/api/code-tools/" + id, key, null);
        assertEquals(200, r.statusCode(), r.body());
        return OperatorIT.json(r);
    }

    static McpSchema.CallToolResult lowStock(String key) {
        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/demo", key)) {
            client.initialize();
            return client.callTool(new McpSchema.CallToolRequest("low_stock", Map.of()));
        }
    }

    @Test
    void aChangedUsedToolPutsItsCodeToolsIntoReviewAndDefinerRunsAreRefusedUntilResaved() throws Exception {
        Deployments.requireRunner();
        String key = tenant();
        HttpResponse<String> stock = send("POST", "/api/tools", key, stockTool(STOCK_OUTPUT));
        assertEquals(201, stock.statusCode(), stock.body());
        long stockId = OperatorIT.json(stock).getJsonNumber("id").longValue();
        String codeTool = "{\"server\":\"demo\",\"name\":\"low_stock\",\"runAs\":\"definer\",\"uses\":[\"stock_list\",\"orders_list\"],"
                + "\"code\":\"const s = await amcp.run('stock_list', {lowStock: true}); return {low: s.count};\"}";
        HttpResponse<String> saved = send("POST", "/api/code-tools", key, codeTool);
        assertEquals(201, saved.statusCode(), saved.body());
        long codeId = OperatorIT.json(saved).getJsonNumber("id").longValue();
        JsonObject fresh = codeTool(key, codeId);
        assertFalse(fresh.getBoolean("needsReview"), fresh.toString());
        assertEquals(0, fresh.getJsonArray("drift").size());
        McpSchema.CallToolResult runs = lowStock(key);
        assertFalse(Boolean.TRUE.equals(runs.isError()), runs.toString());

        // an edit of a used tool's output schema: the code tool needs review, and its definer run is refused and audited
        assertEquals(200, send("PUT", "/api/tools/" + stockId, key, stockTool(STOCK_OUTPUT_2)).statusCode());
        JsonObject flagged = codeTool(key, codeId);
        assertTrue(flagged.getBoolean("needsReview"), flagged.toString());
        assertEquals(1, flagged.getJsonArray("drift").size(), "orders_list did not change: " + flagged);
        JsonObject drift = flagged.getJsonArray("drift").getJsonObject(0);
        assertEquals("stock_list", drift.getString("tool"));
        assertEquals("changed", drift.getString("status"));
        assertTrue(drift.getJsonArray("changes").toString().contains("outputSchema: property 'warehouse' added"), drift.toString());
        McpSchema.CallToolResult refused = lowStock(key);
        assertTrue(Boolean.TRUE.equals(refused.isError()), refused.toString());
        String text = ((McpSchema.TextContent) refused.content().get(0)).text();
        assertTrue(text.contains("needs review") && text.contains("stock_list"), text);
        JsonObject run = OperatorIT.json(send("GET", "/api/code-runs?tool=low_stock&limit=1", key, null)).getJsonArray("runs").getJsonObject(0);
        assertEquals("REFUSED", run.getString("status").toUpperCase(java.util.Locale.ROOT), run.toString());
        assertTrue(OperatorIT.json(send("GET", "/api/audit?kind=codeTool", key, null)).getJsonArray("changes").getValuesAs(JsonObject.class)
                .stream().anyMatch(c -> c.getString("action").equals("needsReview") && c.getString("subject").startsWith("low_stock")),
                "the flag is in the admin audit log");

        // an admin saves it again: reviewed, it runs
        assertEquals(200, send("PUT", "/api/code-tools/" + codeId, key, codeTool).statusCode());
        assertFalse(codeTool(key, codeId).getBoolean("needsReview"));
        McpSchema.CallToolResult again = lowStock(key);
        assertFalse(Boolean.TRUE.equals(again.isError()), again.toString());

        // an OpenAPI re-import that changes the used tool flags it too
        JsonObject preview = OperatorIT.json(send("POST", "/api/openapi-imports", key, "{\"server\":\"demo\",\"base\":\"${AMCP_UPSTREAM_DEMO}\",\"document\":"
                + jakarta.json.Json.createValue(stockDocument(STOCK_OUTPUT)) + "}"));
        assertEquals("changed", preview.getJsonArray("operations").getJsonObject(0).getString("status"), preview.toString());
        HttpResponse<String> applied = send("POST", "/api/openapi-imports/" + preview.getJsonNumber("id") + "/apply", key, "{\"operations\":[]}");
        assertEquals(200, applied.statusCode(), applied.body());
        JsonObject reimported = codeTool(key, codeId);
        assertTrue(reimported.getBoolean("needsReview"), reimported.toString());
        assertTrue(reimported.getJsonArray("drift").toString().contains("outputSchema: property 'warehouse' removed"), reimported.toString());
        assertTrue(Boolean.TRUE.equals(lowStock(key).isError()));
    }

    static final java.util.Set<String> DEMO_TOOLS = java.util.Set.of("customers_search", "customer_get", "customers_in_city", "orders_list", "order_get",
            "order_create", "order_set_status", "inventory_list", "inventory_adjust");

    @Test
    void theDemoIsSeededThroughTheImporterAndTheGatewaysOwnDocumentsImport() throws Exception {
        String key = tenant();
        Map<String, JsonObject> tools = OperatorIT.json(send("GET", "/api/tools", key, null)).getJsonArray("tools").getValuesAs(JsonObject.class)
                .stream().collect(java.util.stream.Collectors.toMap(t -> t.getString("name"), t -> t));
        assertEquals(DEMO_TOOLS, tools.keySet());
        tools.values().forEach(t -> assertTrue(t.containsKey("outputSchema"), t.toString()));
        assertTrue(tools.get("customer_get").getBoolean("readOnly"));
        assertFalse(tools.get("order_create").getBoolean("readOnly"));

        // the demo API's own document, fetched over HTTP, is what the tools came from: every operation unchanged
        HttpResponse<String> again = send("POST", "/api/openapi-imports", key,
                "{\"server\":\"demo\",\"url\":\"${AMCP_UPSTREAM_DEMO}/openapi.json\",\"base\":\"${AMCP_UPSTREAM_DEMO}\"}");
        assertEquals(200, again.statusCode(), again.body());
        JsonObject preview = OperatorIT.json(again);
        assertEquals(DEMO_TOOLS.size(), preview.getJsonArray("operations").size());
        preview.getJsonArray("operations").getValuesAs(JsonObject.class).forEach(op -> {
            assertTrue(DEMO_TOOLS.contains(op.getString("name")), op.getString("name"));
            assertEquals("unchanged", op.getString("status"), op.toString());
        });

        // the gateway's own /openapi (its REST API, generated by MicroProfile OpenAPI 3.1, YAML) imports too
        HttpResponse<String> own = send("POST", "/api/openapi-imports", key,
                "{\"server\":\"demo\",\"url\":\"${AMCP_UPSTREAM_SELF}/openapi\",\"base\":\"${AMCP_UPSTREAM_SELF}\",\"prefix\":\"gw_\"}");
        assertEquals(200, own.statusCode(), own.body());
        Map<String, JsonObject> ops = OperatorIT.json(own).getJsonArray("operations").getValuesAs(JsonObject.class).stream()
                .collect(java.util.stream.Collectors.toMap(o -> o.getString("method") + " " + o.getString("path"), o -> o, (a, b) -> a));
        assertTrue(ops.size() > 30, ops.keySet().toString());
        assertTrue(ops.get("GET /api/code-runs").getBoolean("readOnly"));
        assertFalse(ops.get("POST /api/openapi-imports").getBoolean("readOnly"));
        assertTrue(ops.get("GET /api/code-runs").getString("name").startsWith("gw_"), ops.get("GET /api/code-runs").toString());
        assertTrue(ops.get("GET /api/code-runs").getJsonObject("inputSchema").getJsonObject("properties").containsKey("status"),
                "query parameters become arguments: " + ops.get("GET /api/code-runs"));
        assertEquals("${AMCP_UPSTREAM_SELF}/api/audit", ops.get("GET /api/audit").getJsonObject("endpointMapping").getString("url"));
    }
}
