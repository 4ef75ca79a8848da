package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.demo.control.DemoStore;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readiness reports the migrated database; the demo seeds eight tools that really call the demo API, which caps what
 * an anonymous write may add (the test server runs with {@code AMCP_DEMO=true}; {@code InstallSnippetIT} checks that
 * a production start answers 404).
 */
@ExtendWith(ArquillianExtension.class)
class HealthAndDemoIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    @Inject
    DemoSeeder seeder;

    @Inject
    ToolService tools;

    @Test
    void readinessIncludesTheMigratedDatabase() throws Exception {
        String base = fixtures.baseUrl();
        var response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/health/ready")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonObject health = JsonSupport.parseObject(response.body());
        assertEquals("UP", health.getString("status"));
        JsonObject db = health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("name").equals("database")).findFirst().orElseThrow();
        assertTrue(db.getJsonObject("data").getBoolean("migrated"));
        Object applied = fixtures.<Object>inTx(em -> em.createNativeQuery("select version from flyway_schema_history"
                + " where installed_rank = (select max(installed_rank) from flyway_schema_history)").getSingleResult());
        String latest = applied.toString();
        assertEquals(latest, db.getJsonObject("data").getString("schemaVersion"), "readiness reports the newest applied migration");
    }

    @Test
    void theDemoApiCapsWhatAnAnonymousWriteMayAdd() throws Exception {
        String orders = "/demo-api/orders?customerId=11&limit=500";
        int before = JsonSupport.parseObject(fixtures.get(orders, null).body()).getInt("count");

        String eightMegabytes = "{\"customerId\": 11, \"sku\": \"SKU-001\", \"note\": \"" + "x".repeat(8 * 1024 * 1024) + "\"}";
        var huge = fixtures.post("/demo-api/orders", null, eightMegabytes);
        assertEquals(413, huge.statusCode(), huge.body().length() > 300 ? huge.body().substring(0, 300) : huge.body());
        assertTrue(huge.body().contains("AMCP_MAX_BODY_BYTES"), huge.body());

        var longNote = fixtures.post("/demo-api/orders", null,
                "{\"customerId\": 11, \"sku\": \"SKU-001\", \"note\": \"" + "x".repeat(DemoStore.MAX_NOTE_CHARS + 1) + "\"}");
        assertEquals(400, longNote.statusCode(), longNote.body());
        assertTrue(longNote.body().contains("note is longer than 1000 characters"), longNote.body());
        assertEquals(before, JsonSupport.parseObject(fixtures.get(orders, null).body()).getInt("count"), "nothing was added");

        var fine = fixtures.post("/demo-api/orders", null, "{\"customerId\": 11, \"sku\": \"SKU-001\", \"note\": \"ring twice\"}");
        assertEquals(201, fine.statusCode(), fine.body());
    }

    @Test
    void demoToolsCallTheDemoApiThroughTheRestTestSurface() throws Exception {
        var seeded = seeder.seed("demo-" + UUID.randomUUID().toString().substring(0, 8));
        var demoTools = tools.tools(seeded.workspace().getId());
        assertEquals(9, demoTools.size());
        assertEquals(6, demoTools.stream().filter(t -> t.isReadOnly()).count(), "six reads, three writes");
        String bearer = "Bearer " + seeded.apiKey();

        var customer = fixtures.post("/api/tools/customer_get/call", bearer, "{\"customerId\": 7}");
        assertEquals(200, customer.statusCode(), customer.body());
        JsonObject result = JsonSupport.parseObject(customer.body());
        assertFalse(result.getBoolean("isError"), customer.body());
        assertEquals(7, result.getJsonObject("structuredContent").getInt("id"));
        String city = result.getJsonObject("structuredContent").getString("city");

        var inCity = fixtures.post("/api/tools/customers_in_city/call", bearer, "{\"city\": \"" + city.toUpperCase() + "\"}");
        JsonObject neighbours = JsonSupport.parseObject(inCity.body());
        assertFalse(neighbours.getBoolean("isError"), inCity.body());
        assertTrue(neighbours.getJsonObject("structuredContent").getJsonArray("customers").getValuesAs(JsonObject.class).stream()
                .anyMatch(c -> c.getInt("id") == 7 && c.getString("city").equals(city)), inCity.body());

        var order = fixtures.post("/api/tools/order_create/call", bearer, "{\"customerId\": 7, \"sku\": \"SKU-001\", \"quantity\": 2}");
        JsonObject created = JsonSupport.parseObject(order.body());
        assertFalse(created.getBoolean("isError"), order.body());
        assertEquals("open", created.getJsonObject("structuredContent").getString("status"));

        var invalid = fixtures.post("/api/tools/order_create/call", bearer, "{\"customerId\": 7, \"sku\": \"nope\"}");
        assertTrue(JsonSupport.parseObject(invalid.body()).getBoolean("isError"), invalid.body());

        var unknown = fixtures.post("/api/tools/not_a_tool/call", bearer, "{}");
        assertEquals(404, unknown.statusCode());
    }
}
