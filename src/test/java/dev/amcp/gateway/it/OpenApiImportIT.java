package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * OpenAPI import against the real thing: the published Swagger Petstore documents (3.0, 3.1, Swagger 2.0; see
 * src/test/resources/openapi/NOTICE.md) fetched over HTTP through the upstream rules from a test upstream that also
 * runs a stub of that API; preview, apply, then {@code tools/call} of an imported tool through MCP with the official
 * SDK client, the bound credential reaching the upstream. Also: a re-import's diff applied in part, removals, one bad
 * tool rolling the whole apply back, audit rows, refused URLs naming the setting, and the size cap.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class OpenApiImportIT {

    static final String APP = "/amcp-openapi";
    static final String DOC = "${AMCP_UPSTREAM_PETSTORE}/openapi/";
    static final String BASE = "${AMCP_UPSTREAM_PETSTORE}/v2";

    @Deployment(testable = false)
    static WebArchive gateway() {
        String port = System.getProperty("it.http.port", "9180");
        WebArchive war = Deployments.gateway("amcp-openapi", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_UPSTREAM_PETSTORE", "http://127.0.0.1:" + port + APP + "/it-petstore",
                "AMCP_CREDENTIAL_PETSTORE_VALUE", PetstoreUpstream.CREDENTIAL,
                "AMCP_OPENAPI_MAX_BYTES", "200000"));
        for (String file : List.of("petstore-3.0.json", "petstore-3.0.yaml", "petstore-3.1.json", "petstore-2.0.json")) {
            war.addAsResource("openapi/" + file);
        }
        return war;
    }

    record Ws(String slug, String adminKey) {}

    static Ws workspace() throws Exception {
        String slug = "oas-" + OperatorIT.suffix();
        HttpResponse<String> created = send("POST", "/api/workspaces", Operators.API_KEY,
                "{\"slug\":\"" + slug + "\",\"name\":\"OpenAPI\",\"admin\":{\"username\":\"" + slug + "-admin\",\"password\":\"openapi-secret-pw-1\"}}");
        assertEquals(201, created.statusCode(), created.body());
        Ws ws = new Ws(slug, OperatorIT.json(created).getJsonObject("admin").getString("apiKey"));
        for (String server : List.of("main", "other")) {
            assertEquals(201, send("POST", "/api/servers", ws.adminKey(), "{\"slug\":\"" + server + "\",\"name\":\"" + server + "\"}").statusCode());
        }
        return ws;
    }

    static JsonObject preview(Ws ws, String body, int status) throws Exception {
        HttpResponse<String> r = send("POST", "/api/openapi-imports", ws.adminKey(), body);
        assertEquals(status, r.statusCode(), r.body());
        return OperatorIT.json(r);
    }

    static JsonObject apply(Ws ws, long id, String body, int status) throws Exception {
        HttpResponse<String> r = send("POST", "/api/openapi-imports/" + id + "/apply", ws.adminKey(), body);
        assertEquals(status, r.statusCode(), r.body());
        return OperatorIT.json(r);
    }

    static Map<String, JsonObject> byOperation(JsonObject preview) {
        return preview.getJsonArray("operations").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(o -> o.getString("operationId"), Function.identity()));
    }

    static List<String> names(JsonObject json, String key) {
        return json.getJsonArray(key).getValuesAs(JsonString.class).stream().map(JsonString::getString).sorted().toList();
    }

    static String quote(String text) {
        return Json.createValue(text).toString();
    }

    static String resource(String name) throws IOException {
        try (InputStream in = OpenApiImportIT.class.getResourceAsStream("/openapi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The same published document imported for a workspace upstream: the upstream's base stands for the document's
     * server, its own credential (set by the workspace admin, no operator setting) goes with the imported tools.
     */
    @Test
    void importsForAWorkspaceUpstreamWhoseCredentialTheToolsSend() throws Exception {
        Ws ws = workspace();
        String port = System.getProperty("it.http.port", "9180");
        WorkspaceUpstreamsIT.egressRule(APP, "127.0.0.1:" + port);
        HttpResponse<String> created = send("POST", "/api/upstreams", ws.adminKey(), Json.createObjectBuilder().add("name", "petstore")
                .add("baseUrl", "http://127.0.0.1:" + port + APP + "/it-petstore/v2").build().toString());
        assertEquals(201, created.statusCode(), created.body());
        long upstream = OperatorIT.json(created).getJsonNumber("id").longValue();
        assertEquals(200, send("PUT", "/api/upstreams/" + upstream + "/credential", ws.adminKey(), Json.createObjectBuilder()
                .add("kind", "header").add("value", PetstoreUpstream.CREDENTIAL).build().toString()).statusCode());

        JsonObject refused = preview(ws, Json.createObjectBuilder().add("server", "main").add("upstream", "petstore")
                .add("credential", "PETSTORE").add("document", resource("petstore-3.0.json")).build().toString(), 400);
        assertTrue(refused.getString("message").contains("with upstream, leave base and credential out"), refused.toString());
        JsonObject preview = preview(ws, Json.createObjectBuilder().add("server", "main").add("upstream", "petstore")
                .add("document", resource("petstore-3.0.json")).build().toString(), 200);
        JsonObject mapping = byOperation(preview).get("getPetById").getJsonObject("endpointMapping");
        assertEquals("petstore", mapping.getString("upstream"), mapping.toString());
        assertEquals("/pet/{petId}", mapping.getString("url"));
        assertFalse(mapping.containsKey("credential"), mapping.toString());
        apply(ws, preview.getJsonNumber("id").longValue(), "{\"operations\":[\"getPetById\"]}", 200);

        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/main", ws.adminKey())) {
            client.initialize();
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("getPetById", Map.of("petId", 7)));
            assertFalse(Boolean.TRUE.equals(result.isError()), "the stub insists on the credential: " + result);
            assertEquals("doggie", ((Map<?, ?>) result.structuredContent()).get("name"));
        }
        assertEquals(204, send("DELETE", "/api/upstreams/" + upstream + "/credential", ws.adminKey(), null).statusCode());
        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/main", ws.adminKey())) {
            client.initialize();
            McpSchema.CallToolResult without = client.callTool(new McpSchema.CallToolRequest("getPetById", Map.of("petId", 7)));
            assertTrue(Boolean.TRUE.equals(without.isError()), "without the upstream's credential the stub refuses: " + without);
        }
    }

    @Test
    void importsThePublishedPetstoreAndCallsAnImportedToolThroughMcp() throws Exception {
        Ws ws = workspace();
        JsonObject preview = preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + "petstore-3.0.json") + ",\"base\":" + quote(BASE) + "}", 200);
        Map<String, JsonObject> ops = byOperation(preview);
        assertEquals(20, ops.size());
        assertEquals("PETSTORE", preview.getString("credential"), "the credential bound to AMCP_UPSTREAM_PETSTORE");
        JsonObject get = ops.get("getPetById");
        assertEquals("getPetById", get.getString("name"));
        assertEquals("GET", get.getString("method"));
        assertEquals("/pet/{petId}", get.getString("path"));
        assertTrue(get.getBoolean("readOnly"));
        assertEquals("added", get.getString("status"));
        assertTrue(get.getJsonObject("outputSchema").getJsonObject("properties").containsKey("category"));
        assertFalse(ops.get("addPet").getBoolean("readOnly"));
        assertTrue(ops.get("uploadFile").containsKey("unsupported"));
        assertEquals(0, OperatorIT.json(send("GET", "/api/tools", ws.adminKey(), null)).getJsonArray("tools").size(), "a preview creates nothing");

        JsonObject applied = apply(ws, preview.getJsonNumber("id").longValue(),
                "{\"operations\":[\"getPetById\",\"addPet\",\"findPetsByStatus\",\"uploadFile\"]}", 200);
        assertEquals(List.of("addPet", "findPetsByStatus", "getPetById"), names(applied, "created"));
        assertTrue(names(applied, "skipped").contains("uploadFile"), "unsupported operations are skipped: " + applied);
        assertEquals(17, applied.getJsonArray("skipped").size());
        assertEquals(404, send("POST", "/api/openapi-imports/" + preview.getJsonNumber("id") + "/apply", ws.adminKey(), "{}").statusCode(),
                "a preview is applied once");

        // audit rows for the created tools, by the admin
        HttpResponse<String> audit = send("GET", "/api/audit?kind=tool", ws.adminKey(), null);
        assertEquals(200, audit.statusCode(), audit.body());
        Set<String> audited = OperatorIT.json(audit).getJsonArray("changes").getValuesAs(JsonObject.class).stream()
                .filter(r -> r.getString("action").equals("create")).map(r -> r.getString("subject").split(" ")[0]).collect(Collectors.toSet());
        assertEquals(Set.of("getPetById", "addPet", "findPetsByStatus"), audited);

        // tools/list advertises the output schema; tools/call reaches the upstream with the bound credential
        try (McpSyncClient client = McpHttp.sdkClient(APP + "/mcp/main", ws.adminKey())) {
            client.initialize();
            McpSchema.Tool tool = client.listTools().tools().stream().filter(t -> t.name().equals("getPetById")).findFirst().orElseThrow();
            assertNotNull(tool.outputSchema(), "outputSchema on tools/list");
            assertTrue(tool.outputSchema().toString().contains("photoUrls"), tool.outputSchema().toString());
            assertTrue(tool.annotations().readOnlyHint());
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("getPetById", Map.of("petId", 7)));
            assertFalse(Boolean.TRUE.equals(result.isError()), result.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> pet = (Map<String, Object>) result.structuredContent();
            assertEquals("doggie", pet.get("name"));
            assertEquals(7, ((Number) pet.get("id")).intValue());

            McpSchema.CallToolResult added = client.callTool(new McpSchema.CallToolRequest("addPet",
                    Map.of("name", "rex", "photoUrls", List.of("http://x/rex.png"), "status", "pending")));
            assertFalse(Boolean.TRUE.equals(added.isError()), added.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> rex = (Map<String, Object>) added.structuredContent();
            assertEquals("rex", rex.get("name"), "the body reached the upstream as JSON");

            McpSchema.CallToolResult found = client.callTool(new McpSchema.CallToolRequest("findPetsByStatus", Map.of("status", List.of("sold"))));
            assertFalse(Boolean.TRUE.equals(found.isError()), found.toString());
            String text = ((McpSchema.TextContent) found.content().get(0)).text();
            assertTrue(text.contains("\"status\":\"sold\""), "an array query argument is sent as status=sold: " + text);
        }
    }

    @Test
    void swagger2And31AndYamlReadTheSameOverTheUrl() throws Exception {
        Ws ws = workspace();
        for (String file : List.of("petstore-2.0.json", "petstore-3.1.json", "petstore-3.0.yaml")) {
            Map<String, JsonObject> ops = byOperation(preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + file) + ",\"base\":" + quote(BASE) + "}", 200));
            assertEquals(20, ops.size(), file);
            assertEquals(BASE + "/pet/{petId}", ops.get("getPetById").getJsonObject("endpointMapping").getString("url"), file);
        }
    }

    @Test
    void reimportShowsTheDiffAndAppliesOnlyWhatIsAccepted() throws Exception {
        Ws ws = workspace();
        JsonObject first = preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + "petstore-3.0.json") + ",\"base\":" + quote(BASE) + "}", 200);
        apply(ws, first.getJsonNumber("id").longValue(), "{\"operations\":[\"getPetById\",\"addPet\",\"findPetsByStatus\",\"getInventory\"]}", 200);

        // the next version of the document: Pet gains a property, findPetsByStatus is gone
        JsonObject doc = Json.createReader(new java.io.StringReader(resource("petstore-3.0.json"))).readObject();
        JsonObject pet = doc.getJsonObject("components").getJsonObject("schemas").getJsonObject("Pet");
        JsonObject newPet = Json.createObjectBuilder(pet).add("properties", Json.createObjectBuilder(pet.getJsonObject("properties"))
                .add("nickname", Json.createObjectBuilder().add("type", "string"))).build();
        JsonObject next = Json.createObjectBuilder(doc)
                .add("components", Json.createObjectBuilder(doc.getJsonObject("components")).add("schemas",
                        Json.createObjectBuilder(doc.getJsonObject("components").getJsonObject("schemas")).add("Pet", newPet)))
                .add("paths", Json.createObjectBuilder(doc.getJsonObject("paths")).remove("/pet/findByStatus")).build();
        JsonObject second = preview(ws, "{\"server\":\"main\",\"document\":" + quote(next.toString()) + ",\"base\":" + quote(BASE) + "}", 200);
        Map<String, JsonObject> ops = byOperation(second);
        assertEquals("changed", ops.get("getPetById").getString("status"));
        assertTrue(ops.get("getPetById").getJsonArray("changes").toString().contains("outputSchema: property 'nickname' added"),
                ops.get("getPetById").getJsonArray("changes").toString());
        assertEquals("changed", ops.get("addPet").getString("status"));
        assertTrue(ops.get("addPet").getJsonArray("changes").toString().contains("inputSchema: property 'nickname' added"));
        assertEquals("unchanged", ops.get("getInventory").getString("status"));
        assertEquals("added", ops.get("deletePet").getString("status"));
        assertEquals(List.of("findPetsByStatus"), second.getJsonArray("removed").getValuesAs(JsonObject.class).stream().map(r -> r.getString("name")).toList());

        JsonObject applied = apply(ws, second.getJsonNumber("id").longValue(),
                "{\"operations\":[\"getPetById\"],\"remove\":[\"findPetsByStatus\"]}", 200);
        assertEquals(List.of("getPetById"), names(applied, "updated"));
        assertEquals(List.of(), names(applied, "created"));
        assertEquals(List.of("findPetsByStatus"), names(applied, "removed"));
        assertTrue(names(applied, "skipped").contains("addPet"));

        String tools = send("GET", "/api/tools", ws.adminKey(), null).body();
        assertFalse(tools.contains("findPetsByStatus"), tools);
        JsonObject third = preview(ws, "{\"server\":\"main\",\"document\":" + quote(next.toString()) + ",\"base\":" + quote(BASE) + "}", 200);
        assertEquals("unchanged", byOperation(third).get("getPetById").getString("status"), "the accepted change was applied");
        assertEquals("changed", byOperation(third).get("addPet").getString("status"), "the refused change was not");
    }

    @Test
    void oneInvalidToolRollsTheWholeApplyBackAndReadWriteIsOverridable() throws Exception {
        Ws ws = workspace();
        JsonObject preview = preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + "petstore-3.0.json") + ",\"base\":" + quote(BASE) + "}", 200);
        // after the preview, another server takes one of the names
        HttpResponse<String> clash = send("POST", "/api/tools", ws.adminKey(), "{\"server\":\"other\",\"name\":\"logoutUser\","
                + "\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_PETSTORE}/v2/x\"}}");
        assertEquals(201, clash.statusCode(), clash.body());
        HttpResponse<String> refused = send("POST", "/api/openapi-imports/" + preview.getJsonNumber("id") + "/apply", ws.adminKey(),
                "{\"operations\":[\"getPetById\",\"logoutUser\"]}");
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("logoutUser.name"), refused.body());
        assertFalse(send("GET", "/api/tools", ws.adminKey(), null).body().contains("getPetById"), "nothing half-written");

        // a fresh preview renames the clash visibly; a POST may be marked read-only
        JsonObject again = preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + "petstore-3.0.json") + ",\"base\":" + quote(BASE) + "}", 200);
        JsonObject logout = byOperation(again).get("logoutUser");
        assertEquals("logoutUser_2", logout.getString("name"));
        assertTrue(logout.getJsonArray("notes").toString().contains("taken"), logout.toString());
        apply(ws, again.getJsonNumber("id").longValue(), "{\"operations\":[{\"operationId\":\"placeOrder\",\"readOnly\":true}]}", 200);
        JsonObject listed = OperatorIT.json(send("GET", "/api/tools", ws.adminKey(), null)).getJsonArray("tools").getValuesAs(JsonObject.class)
                .stream().filter(t -> t.getString("name").equals("placeOrder")).findFirst().orElseThrow();
        assertTrue(listed.getBoolean("readOnly"), listed.toString());
    }

    @Test
    void urlsOutsideTheUpstreamRulesAndOversizedDocumentsAreRefusedClearly() throws Exception {
        Ws ws = workspace();
        JsonObject outside = preview(ws, "{\"server\":\"main\",\"url\":\"http://specs.example.com/openapi.json\"}", 400);
        assertTrue(outside.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), outside.toString());
        JsonObject metadata = preview(ws, "{\"server\":\"main\",\"url\":\"http://169.254.169.254/latest/meta-data\"}", 400);
        assertTrue(metadata.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), metadata.toString());
        // the document's own server (petstore.swagger.io) is no allowed upstream: the base must be given
        JsonObject server = preview(ws, "{\"server\":\"main\",\"url\":" + quote(DOC + "petstore-3.0.json") + "}", 400);
        assertTrue(server.getString("message").contains("petstore.swagger.io") && server.getString("message").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"),
                server.toString());

        JsonObject big = preview(ws, "{\"server\":\"main\",\"url\":\"${AMCP_UPSTREAM_PETSTORE}/openapi-big.json\"}", 400);
        assertTrue(big.getString("message").contains("AMCP_OPENAPI_MAX_BYTES"), big.toString());
        HttpResponse<String> pasted = send("POST", "/api/openapi-imports", ws.adminKey(),
                "{\"server\":\"main\",\"document\":\"" + "x".repeat(300_000) + "\"}");
        assertEquals(413, pasted.statusCode(), pasted.body());
        assertTrue(pasted.body().contains("AMCP_OPENAPI_MAX_BYTES"), pasted.body());
        JsonObject notOpenApi = preview(ws, "{\"server\":\"main\",\"document\":\"{\\\"hello\\\":1}\",\"base\":" + quote(BASE) + "}", 400);
        assertTrue(notOpenApi.getString("message").contains("OpenAPI"), notOpenApi.toString());
        assertNull(notOpenApi.get("id"));
        assertEquals(404, send("POST", "/api/openapi-imports/999999/apply", ws.adminKey(), "{}").statusCode());
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
