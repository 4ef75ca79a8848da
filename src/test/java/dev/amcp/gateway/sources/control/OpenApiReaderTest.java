package dev.amcp.gateway.sources.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.sources.entity.ImportedOperation;
import dev.amcp.gateway.tools.control.SchemaValidator;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The import's reading of real published documents (src/test/resources/openapi/NOTICE.md) and of hostile ones. */
class OpenApiReaderTest {

    private static final String BASE = "${AMCP_UPSTREAM_PETS}";
    private final SchemaValidator validator = new SchemaValidator();

    static String resource(String name) {
        try (InputStream in = OpenApiReaderTest.class.getResourceAsStream("/openapi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, ImportedOperation> read(String text) {
        return OpenApiReader.operations(OpenApiReader.parse(text), BASE, null, "", n -> false).stream()
                .collect(Collectors.toMap(ImportedOperation::operationId, Function.identity()));
    }

    private static Set<String> properties(JsonObject schema) {
        return schema.getJsonObject("properties").keySet();
    }

    private static List<String> required(JsonObject schema) {
        return schema.containsKey("required") ? schema.getJsonArray("required").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList() : List.of();
    }

    @Test
    void petstoreInEveryVersionGivesTheSameTools() {
        for (String file : List.of("petstore-3.0.json", "petstore-3.0.yaml", "petstore-3.1.json", "petstore-2.0.json")) {
            Map<String, ImportedOperation> ops = read(resource(file));
            assertEquals(20, ops.size(), file);
            ImportedOperation get = ops.get("getPetById");
            assertEquals("getPetById", get.name(), file);
            assertEquals("GET", get.method());
            assertTrue(get.readOnly());
            assertEquals(BASE + "/pet/{petId}", get.endpointMapping().getString("url"), file);
            assertEquals(List.of("petId"), required(get.inputSchema()), file);
            assertEquals("integer", get.inputSchema().getJsonObject("properties").getJsonObject("petId").getString("type"));
            assertNotNull(get.outputSchema(), file + ": the Pet response is the output schema");
            assertTrue(properties(get.outputSchema()).containsAll(Set.of("id", "name", "category", "photoUrls", "tags", "status")), file);
            assertEquals("object", get.outputSchema().getJsonObject("properties").getJsonObject("category").getString("type"),
                    file + ": $ref to Category put in place");
            assertTrue(get.description().startsWith("Find pet by ID"), file);

            ImportedOperation add = ops.get("addPet");
            assertFalse(add.readOnly(), file);
            assertEquals("POST", add.endpointMapping().getString("method"));
            assertTrue(properties(add.inputSchema()).containsAll(Set.of("name", "photoUrls", "status")), file);
            assertTrue(required(add.inputSchema()).containsAll(List.of("name", "photoUrls")), file);
            assertEquals(properties(add.inputSchema()), Set.copyOf(add.endpointMapping().getJsonArray("body").getValuesAs(JsonString.class)
                    .stream().map(JsonString::getString).toList()), file);

            ImportedOperation find = ops.get("findPetsByStatus");
            assertEquals("status", find.endpointMapping().getJsonObject("query").getString("status"), file);
            assertNull(find.outputSchema(), file + ": an array response has no MCP output schema");
            assertTrue(find.notes().stream().anyMatch(n -> n.contains("array")), file);

            ImportedOperation delete = ops.get("deletePet");
            assertEquals("api_key", delete.endpointMapping().getJsonObject("headerArgs").getString("api_key"), file);
            assertNotNull(ops.get("uploadFile").unsupported(), file + ": an octet-stream body cannot be sent");

            for (ImportedOperation op : ops.values()) {
                assertNull(validator.checkSchema(op.inputSchema()), file + " " + op.operationId() + " input " + op.inputSchema());
                assertNull(validator.checkSchema(op.outputSchema()), file + " " + op.operationId() + " output " + op.outputSchema());
                HttpEndpointMapping.from(op.endpointMapping()); // the invoker accepts every mapping
            }
        }
    }

    @Test
    void aPublishedApiWithServerVariablesAndFormBodies() {
        OpenApiReader.Parsed parsed = OpenApiReader.parse(resource("uspto-3.0.json"));
        assertEquals("https://developer.uspto.gov/ds-api", parsed.serverUrl());
        Map<String, ImportedOperation> ops = read(resource("uspto-3.0.json"));
        assertEquals(3, ops.size());
        ImportedOperation search = ops.get("perform-search");
        assertNotNull(search.unsupported(), "a form body is listed, not created");
        assertTrue(search.unsupported().contains("application/x-www-form-urlencoded"), search.unsupported());
        ImportedOperation fields = ops.get("list-searchable-fields");
        assertEquals(BASE + "/{dataset}/{version}/fields", fields.endpointMapping().getString("url"));
    }

    @Test
    void cyclesAreCutAndSaySo() {
        Map<String, ImportedOperation> ops = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> read(resource("schema-circular-3.0.json")));
        assertFalse(ops.isEmpty());
        String all = ops.values().stream().map(o -> o.inputSchema() + " " + o.outputSchema()).collect(Collectors.joining());
        assertTrue(all.contains("recursive reference to #/components/schemas/"), all);
        for (ImportedOperation op : ops.values()) {
            assertNull(validator.checkSchema(op.inputSchema()), op.operationId());
            assertTrue(op.inputSchema().toString().length() < 200_000, "bounded: " + op.operationId());
        }
    }

    @Test
    void clashesAreRenamedVisibly() {
        String doc = """
                {"openapi": "3.0.3", "info": {"title": "Clashes", "version": "1"},
                 "paths": {
                   "/items/{id}": {"put": {"operationId": "save item!", "parameters": [
                        {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                        {"name": "id", "in": "query", "schema": {"type": "integer"}},
                        {"name": "page.size", "in": "query", "schema": {"type": "integer"}}],
                      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
                        "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}}}},
                      "responses": {"200": {"description": "ok"}}}},
                   "/items": {"get": {"operationId": "save item!", "responses": {"200": {"description": "ok"}}},
                              "post": {"operationId": "taken", "responses": {"201": {"description": "ok"}}}},
                   "/other/{x}": {"delete": {"responses": {"204": {"description": "gone"}}}}
                 }}""";
        List<ImportedOperation> ops = OpenApiReader.operations(OpenApiReader.parse(doc), "https://api.example.com/v1", null, "ex_",
                "ex_taken"::equals);
        Map<String, ImportedOperation> byName = ops.stream().collect(Collectors.toMap(ImportedOperation::name, Function.identity()));
        assertEquals(Set.of("ex_save_item", "ex_save_item_2", "ex_taken_2", "ex_delete_other_x"), byName.keySet());
        ImportedOperation put = byName.get("ex_save_item");
        assertEquals(Set.of("id", "query_id", "page_size", "body_id", "note"), properties(put.inputSchema()));
        assertEquals("https://api.example.com/v1/items/{id}", put.endpointMapping().getString("url"));
        assertEquals("query_id", put.endpointMapping().getJsonObject("query").getString("id"));
        assertEquals("page_size", put.endpointMapping().getJsonObject("query").getString("page.size"));
        assertEquals("id", put.endpointMapping().getJsonObject("bodyNames").getString("body_id"));
        assertTrue(required(put.inputSchema()).containsAll(List.of("id", "body_id")));
        assertTrue(put.inputSchema().getJsonObject("properties").getJsonObject("body_id").getString("description").contains("body property 'id'"));
        assertTrue(put.notes().stream().anyMatch(n -> n.contains("'body_id'")), put.notes().toString());
        assertTrue(byName.get("ex_taken_2").notes().stream().anyMatch(n -> n.contains("taken")));
        assertTrue(byName.get("ex_save_item_2").notes().stream().anyMatch(n -> n.contains("taken")));
    }

    @Test
    void aParametersXMcpHeaderReachesItsArgumentAndAMalformedOneIsLeftOutWithANote() {
        String doc = """
                {"openapi": "3.0.3", "info": {"title": "Headers", "version": "1"},
                 "paths": {"/stock/{region}": {"get": {"operationId": "stock", "parameters": [
                      {"name": "region", "in": "path", "required": true, "x-mcp-header": "Region", "schema": {"type": "string"}},
                      {"name": "shelf", "in": "query", "x-mcp-header": "Shelf Number", "schema": {"type": "string"}},
                      {"name": "aisle", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "ok"}}}}}}
                """;
        ImportedOperation stock = read(doc).get("stock");
        JsonObject properties = stock.inputSchema().getJsonObject("properties");
        assertEquals("Region", properties.getJsonObject("region").getString("x-mcp-header"));
        assertFalse(properties.getJsonObject("shelf").containsKey("x-mcp-header"));
        assertFalse(properties.getJsonObject("aisle").containsKey("x-mcp-header"));
        assertEquals(List.of("x-mcp-header of parameter 'shelf' is left out: it is not a header name (letters, digits, '-')"), stock.notes());
    }

    @Test
    void notADocumentIsAClearProblem() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> OpenApiReader.parse("{\"hello\": \"world\"}"));
        assertTrue(e.getMessage().contains("OpenAPI"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> OpenApiReader.parse("not: [valid"));
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        StringBuilder yaml = new StringBuilder("openapi: 3.0.3\ninfo: {title: lol, version: '1'}\nx-a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            char prev = (char) (c - 1);
            yaml.append("x-").append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                yaml.append(i == 0 ? "" : ",").append('*').append(prev);
            }
            yaml.append("]\n");
        }
        yaml.append("paths: {}\n");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(InvalidInputException.class, () -> OpenApiReader.parse(yaml.toString())));
    }

    @Test
    void remoteReferencesAreNeverFetched() throws Exception {
        try (ServerSocket trap = new ServerSocket(0)) {
            AtomicInteger connections = new AtomicInteger();
            Thread accept = new Thread(() -> {
                try {
                    while (true) {
                        trap.accept().close();
                        connections.incrementAndGet();
                    }
                } catch (IOException e) {
                    // closed
                }
            });
            accept.setDaemon(true);
            accept.start();
            String remote = "http://127.0.0.1:" + trap.getLocalPort() + "/secret.json";
            String v3 = """
                    {"openapi": "3.0.3", "info": {"title": "Remote", "version": "1"}, "paths": {"/a": {"get": {"operationId": "a",
                      "parameters": [{"$ref": "%1$s#/p"}],
                      "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "%1$s#/Pet"}}}}}}}}}
                    """.formatted(remote);
            String v2 = """
                    {"swagger": "2.0", "info": {"title": "Remote", "version": "1"}, "paths": {"/a": {"get": {"operationId": "a",
                      "responses": {"200": {"description": "ok", "schema": {"$ref": "%1$s#/Pet"}}}}}}}
                    """.formatted(remote);
            for (String doc : List.of(v3, v2)) {
                List<ImportedOperation> ops = OpenApiReader.operations(OpenApiReader.parse(doc), BASE, null, "", n -> false);
                assertEquals(1, ops.size());
            }
            Thread.sleep(200);
            assertEquals(0, connections.get(), "the import fetched a remote $ref");
        }
    }

    /**
     * A 500-operation document with shared, cyclic models: every operation is proposed, each under its own name. The
     * time is printed for docs/benchmarks.md, never asserted (speed comes from benchmarks, not timed tests).
     */
    @Test
    void fiveHundredOperationsWithCyclicModelsAreAllProposed() {
        StringBuilder paths = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            if (i > 0) paths.append(',');
            paths.append("\"/things").append(i).append("/{id}\": {\"get\": {\"operationId\": \"getThing").append(i)
                    .append("\", \"summary\": \"Get thing ").append(i).append("\", \"parameters\": [{\"name\": \"id\", \"in\": \"path\", \"required\": true, \"schema\": {\"type\": \"integer\"}}, {\"name\": \"expand\", \"in\": \"query\", \"schema\": {\"type\": \"boolean\"}}],")
                    .append("\"responses\": {\"200\": {\"description\": \"ok\", \"content\": {\"application/json\": {\"schema\": {\"$ref\": \"#/components/schemas/Thing\"}}}}}},")
                    .append("\"put\": {\"operationId\": \"putThing").append(i).append("\", \"parameters\": [{\"name\": \"id\", \"in\": \"path\", \"required\": true, \"schema\": {\"type\": \"integer\"}}],")
                    .append("\"requestBody\": {\"required\": true, \"content\": {\"application/json\": {\"schema\": {\"$ref\": \"#/components/schemas/Thing\"}}}},")
                    .append("\"responses\": {\"200\": {\"description\": \"ok\", \"content\": {\"application/json\": {\"schema\": {\"$ref\": \"#/components/schemas/Thing\"}}}}}}}");
        }
        String doc = "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"Big\", \"version\": \"1\"}, \"servers\": [{\"url\": \"https://api.example.com\"}], \"paths\": {" + paths
            + "}, \"components\": {\"schemas\": {\"Thing\": {\"type\": \"object\", \"required\": [\"name\"], \"properties\": {\"id\": {\"type\": \"integer\"}, \"name\": {\"type\": \"string\"}, \"owner\": {\"$ref\": \"#/components/schemas/Owner\"}, \"tags\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}}, \"Owner\": {\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\"}, \"things\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/components/schemas/Thing\"}}}}}}}";
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 3; run++) {
            long started = System.nanoTime();
            List<ImportedOperation> ops = OpenApiReader.operations(OpenApiReader.parse(doc), "https://api.example.com", null, "", n -> false);
            best = Math.min(best, (System.nanoTime() - started) / 1_000_000);
            assertEquals(500, ops.size());
            assertEquals(500, ops.stream().map(ImportedOperation::name).distinct().count(), "names are unique");
        }
        System.out.println("500-operation preview, best of 3: " + best + " ms");
    }
}
