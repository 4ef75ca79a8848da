package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateway nodes sharing one database (two deployments on one Liberty, each with its own beans): a
 * {@code notifications/cancelled} that a load balancer sends to node B stops the run that node A is executing.
 */
@ExtendWith(ArquillianExtension.class)
class ClusterCancellationIT {

    static final String A = "/amcp-node-a";
    static final String B = "/amcp-node-b";

    @Deployment(name = "a", testable = false)
    static WebArchive nodeA() {
        Deployments.requireRunner();
        return Deployments.gateway("amcp-node-a", false, Map.of());
    }

    @Deployment(name = "b", testable = false)
    static WebArchive nodeB() {
        return Deployments.gateway("amcp-node-b", false, Map.of());
    }

    @Test
    void aCancellationThatReachesAnotherNodeStopsTheRun() throws Exception {
        HttpResponse<String> setup = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + A + "/it-code-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, setup.statusCode(), setup.body());
        String key = McpHttp.parse(setup.body()).asJsonObject().getString("key");
        HttpResponse<String> init = McpHttp.post(A + "/mcp/demo", key, McpHttp.initialize(McpHttp.LATEST));
        assertEquals(200, init.statusCode(), init.body());
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();

        long start = System.nanoTime();
        CompletableFuture<HttpResponse<String>> running = McpHttp.HTTP.sendAsync(HttpRequest.newBuilder(URI.create(McpHttp.base() + A + "/mcp/demo"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + key).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", McpHttp.LATEST)
                .POST(HttpRequest.BodyPublishers.ofString(McpHttp.request(42, "tools/call",
                        "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"while (true) {}\"}}"))).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(500); // the run is busy on node A
        HttpResponse<String> cancel = McpHttp.post(B + "/mcp/demo", key,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":42,\"reason\":\"user pressed stop\"}}",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", McpHttp.LATEST);
        assertEquals(202, cancel.statusCode(), cancel.body());

        HttpResponse<String> answer = running.get(30, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"isError\":true"), answer.body());
        JsonObject run = lastRun(key);
        assertEquals("CANCELLED", run.getString("status"), run.toString());
        assertTrue(millis < 2500, "stopped by the forwarded cancellation, not by the 3 s timeout: " + millis + " ms, " + run);
    }

    static JsonObject lastRun(String key) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + B + "/api/code-runs?limit=1"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getJsonArray("runs").getJsonObject(0);
    }
}
