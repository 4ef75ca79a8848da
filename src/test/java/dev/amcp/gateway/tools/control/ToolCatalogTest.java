package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@link ToolCatalog#findStored} keeps between calls, with the database standing in as a map that counts its reads. */
class ToolCatalogTest {

    static final Caller CALLER = new Caller(1, 1L, 1L, "u", new RoleGrant(1, "admin", Set.of(), true, Set.of()), CallScope.server(1));

    final List<String> reads = new ArrayList<>();

    ToolCatalog catalog(Map<String, McpTool> stored) {
        ToolCatalog catalog = new ToolCatalog();
        catalog.settings = new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.empty(); // the default: answers kept for 5 s
            }
        };
        catalog.self = new ToolCatalog() {
            @Override
            Optional<McpTool> load(StoredName key) {
                reads.add(key.name());
                return Optional.ofNullable(stored.get(key.name()));
            }
        };
        catalog.configure();
        return catalog;
    }

    static McpTool tool(String name, String method) {
        McpTool tool = new McpTool(1L, 1L, name);
        tool.setEndpointMapping(Json.createObjectBuilder().add("method", method).add("url", "http://upstream/x").build());
        return tool;
    }

    @Test
    void aNameNoStoredToolHasIsAskedForOnceLikeAnHttpTool() {
        ToolCatalog catalog = catalog(Map.of("customer_get", tool("customer_get", "GET")));
        for (int i = 0; i < 3; i++) {
            assertTrue(catalog.findStored(CALLER, "code_execute").isEmpty());
            assertTrue(catalog.findStored(CALLER, "customer_get").isPresent());
        }
        assertEquals(List.of("code_execute", "customer_get"), reads, "one read each, then kept");
    }

    @Test
    void codeToolsAreReadEveryTime() {
        ToolCatalog catalog = catalog(Map.of("report", tool("report", "code")));
        catalog.findStored(CALLER, "report");
        catalog.findStored(CALLER, "report");
        assertEquals(List.of("report", "report"), reads);
    }

    @Test
    void manyUnknownNamesNeverPushAKeptToolOut() {
        ToolCatalog catalog = catalog(Map.of("customer_get", tool("customer_get", "GET")));
        catalog.findStored(CALLER, "customer_get");
        for (int i = 0; i <= 10_000; i++) { // past the cache's 10,000 entries, where it starts over
            catalog.findStored(CALLER, "unknown-" + i);
        }
        reads.clear();
        assertTrue(catalog.findStored(CALLER, "customer_get").isPresent());
        assertEquals(List.of(), reads, "the HTTP tool is still kept");
    }
}
