package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateway nodes sharing one database (two deployments on one Liberty, each with its own beans and its own
 * in-memory state): an admin's change made on node A reaches a {@code subscriptions/listen} stream held by node B.
 */
@ExtendWith(ArquillianExtension.class)
class McpListenClusterIT {

    static final String A = "/amcp-listen-a";
    static final String B = "/amcp-listen-b";

    @Deployment(name = "a", testable = false)
    static WebArchive nodeA() {
        return Deployments.gateway("amcp-listen-a", false, Map.of());
    }

    @Deployment(name = "b", testable = false)
    static WebArchive nodeB() {
        return Deployments.gateway("amcp-listen-b", false, Map.of());
    }

    @Test
    void aChangeOnOneNodeReachesAListenerOnAnother() throws Exception {
        HttpResponse<String> setup = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + A + "/it-setup/mcp-tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, setup.statusCode(), setup.body());
        String key = McpHttp.parse(setup.body()).asJsonObject().getString("adminKey");
        try (McpStatelessIT.Listener listener = McpStatelessIT.Listener.open(B, "/mcp/main", key, 7)) {
            assertEquals("notifications/subscriptions/acknowledged", listener.next().getString("method"));
            McpStatelessIT.createTool(A, key, "main", "made_on_node_a");
            JsonObject changed = listener.next();
            assertEquals("notifications/tools/list_changed", changed.getString("method"), changed.toString());
            assertEquals(7, changed.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
        }
    }
}
