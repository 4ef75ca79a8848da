package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bridge's own rules, with the catalog and executor standing in for the database and upstreams. */
class BridgeDispatcherTest {

    static final Caller CALLER = new Caller(1, 1L, 1L, "u", new RoleGrant(1, "viewer", Set.of(), true, Set.of()), CallScope.server(1));

    final BridgeDispatcher dispatcher = new BridgeDispatcher();

    BridgeDispatcherTest() {
        dispatcher.catalog = new ToolCatalog() {
            @Override
            public List<ToolDescriptor> list(Caller caller) {
                return List.of(new ToolDescriptor("orders_list", "List orders", "Orders by status", ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, true, false, true, false),
                        new ToolDescriptor("customer_get", "Get a customer", "One customer", ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, true, false, true, false));
            }
        };
        dispatcher.executor = new ToolExecutor() {
            @Override
            public ToolResult call(Caller caller, String toolName, JsonObject args) {
                return switch (toolName) {
                    case "orders_list" -> ToolResult.json(Json.createObjectBuilder().add("count", 2).build());
                    case "customer_get" -> ToolResult.error("Upstream answered HTTP 404");
                    default -> throw new ToolNotAvailableException(toolName);
                };
            }
        };
    }

    static JsonObject args(String json) {
        return dev.amcp.gateway.platform.control.JsonSupport.parseObject(json);
    }

    @Test
    void searchMatchesEveryTermAndHonoursTheLimit() {
        var found = (JsonArray) dispatcher.handle(CALLER, "search", args("{\"query\":\"orders status\"}")).value();
        assertEquals(1, found.size());
        assertEquals("orders_list", found.getJsonObject(0).getString("name"));
        assertTrue(found.getJsonObject(0).getString("signature").startsWith("run(name: \"orders_list\", args: {"),
                found.getJsonObject(0).toString());
        assertEquals(1, ((JsonArray) dispatcher.handle(CALLER, "search", args("{\"limit\":1}")).value()).size());
    }

    @Test
    void runReturnsStructuredContentOrATypedError() {
        var ok = dispatcher.handle(CALLER, "run", args("{\"name\":\"orders_list\",\"args\":{}}"));
        assertEquals(2, ok.value().asJsonObject().getInt("count"));
        var failed = dispatcher.handle(CALLER, "run", args("{\"name\":\"customer_get\",\"args\":{}}"));
        assertEquals("tool_error", failed.errorCode());
        var missing = dispatcher.handle(CALLER, "run", args("{\"name\":\"secret\"}"));
        assertEquals("not_available", missing.errorCode());
        var described = dispatcher.handle(CALLER, "describe", args("{\"name\":\"secret\"}"));
        assertEquals(missing.errorCode(), described.errorCode());
        assertEquals(missing.message(), described.message(), "describe and run deny alike");
    }

    @Test
    void identityFieldsAndBadShapesAreRefused() {
        for (String key : List.of("workspaceId", "role", "runAs")) {
            var answer = dispatcher.handle(CALLER, "run", args("{\"name\":\"orders_list\",\"" + key + "\":1}"));
            assertFalse(answer.ok());
            assertEquals("identity_rejected", answer.errorCode(), key);
        }
        assertEquals("bad_request", dispatcher.handle(CALLER, "run", args("{\"name\":\"orders_list\",\"args\":[1]}")).errorCode());
        assertEquals("bad_request", dispatcher.handle(CALLER, "describe", args("{}")).errorCode());
        var described = dispatcher.handle(CALLER, "describe", args("{\"name\":\"orders_list\"}")).value().asJsonObject();
        assertTrue(described.containsKey("inputSchema"));
        assertTrue(described.getString("ts").contains("function run(name: \"orders_list\", args: {"), described.toString());
    }
}
