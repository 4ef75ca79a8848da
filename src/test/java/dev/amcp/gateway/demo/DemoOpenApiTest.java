package dev.amcp.gateway.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.sources.control.OpenApiReader;
import dev.amcp.gateway.sources.entity.ImportedOperation;
import dev.amcp.gateway.tools.control.SchemaValidator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The demo's eight tools as the importer makes them from the demo API's OpenAPI document: the names, read/write and
 * URLs the hand-written list had (checked equal to it, output schemas too, when the list was replaced), and schemas a
 * tool may save.
 */
public class DemoOpenApiTest {

    public static List<ImportedOperation> tools() {
        return OpenApiReader.operations(OpenApiReader.parse(DemoSeeder.resource(DemoSeeder.OPENAPI)), "${AMCP_UPSTREAM_DEMO}", null, "",
                n -> false);
    }

    @Test
    void theDocumentGivesTheNineDemoTools() {
        Map<String, ImportedOperation> tools = tools().stream().collect(Collectors.toMap(ImportedOperation::name, Function.identity()));
        Map<String, String> expected = Map.of("customers_search", "GET /customers", "customer_get", "GET /customers/{customerId}",
                "customers_in_city", "GET /customers/in-city/{city}",
                "orders_list", "GET /orders", "order_get", "GET /orders/{orderId}", "order_create", "POST /orders",
                "order_set_status", "PATCH /orders/{orderId}", "inventory_list", "GET /inventory",
                "inventory_adjust", "POST /inventory/{sku}/adjust");
        assertEquals(expected.keySet(), tools.keySet());
        SchemaValidator validator = new SchemaValidator();
        expected.forEach((name, call) -> {
            ImportedOperation tool = tools.get(name);
            String[] methodAndPath = call.split(" ");
            assertNull(tool.unsupported(), name);
            assertEquals(methodAndPath[0], tool.method(), name);
            assertEquals("${AMCP_UPSTREAM_DEMO}" + methodAndPath[1], tool.endpointMapping().getString("url"), name);
            assertEquals("GET".equals(tool.method()), tool.readOnly(), name);
            assertNotNull(tool.title(), name);
            assertNotNull(tool.outputSchema(), name);
            assertNull(validator.checkSchema(tool.inputSchema()), name);
            assertNull(validator.checkSchema(tool.outputSchema()), name);
            assertTrue(tool.notes().isEmpty(), name + ": " + tool.notes());
        });
        assertEquals(JsonSupport.parseArray("[\"gold\",\"standard\"]"), tools.get("customer_get").outputSchema().getJsonObject("properties")
                .getJsonObject("tier").getJsonArray("enum"));
        assertEquals(List.of("customerId", "quantity", "sku"), tools.get("order_create").inputSchema().getJsonArray("required")
                .getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).sorted().toList());
        assertEquals("City", tools.get("customers_in_city").inputSchema().getJsonObject("properties").getJsonObject("city").getString("x-mcp-header"),
                "the parameter's x-mcp-header reaches the argument's schema");
        assertEquals("^SKU-[0-9]{3}$", tools.get("inventory_adjust").inputSchema().getJsonObject("properties").getJsonObject("sku").getString("pattern"));
    }
}
