package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runner dies in the middle of a run: the run ends at once with ERROR, its audit row is written, and once a
 * runner is back the next run works. This test owns its runner (a second supervisor on a port of its own) so it
 * can kill it without disturbing the other tests.
 */
@ExtendWith(ArquillianExtension.class)
class RunnerCrashIT {

    static final String NAME = "amcp-crash";
    static final String TOKEN = "crash-test-token-" + Long.toHexString(System.nanoTime());
    static final int PORT = freePort();
    static Process runner;

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner(); // the shared runner proves Deno is installed; this test starts its own
        return Deployments.gateway(NAME, false, Map.of("CODE_RUNNER_URL", "ws://127.0.0.1:" + PORT, "CODE_RUNNER_TOKEN", TOKEN,
                "AMCP_CODE_TIMEOUT_MS", "30000"));
    }

    @AfterAll
    static void stopRunner() {
        if (runner != null) {
            runner.destroyForcibly();
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void startRunner() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("runner-image/run-local.sh")
                .redirectErrorStream(true).redirectOutput(new File("target/crash-runner.log"));
        builder.environment().put("CODE_RUNNER_TOKEN", TOKEN);
        builder.environment().put("CODE_RUNNER_PORT", String.valueOf(PORT));
        builder.environment().put("CODE_RUNNER_POOL_SIZE", "1");
        runner = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", PORT)) {
                return;
            } catch (IOException notYet) {
                if (!runner.isAlive()) {
                    throw new IllegalStateException("the test runner exited; see target/crash-runner.log");
                }
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the test runner did not listen within 60 s; see target/crash-runner.log");
    }

    static String base() {
        return McpHttp.base() + "/" + NAME;
    }

    static JsonObject lastRun(String key) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/api/code-runs?limit=1"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getJsonArray("runs").getJsonObject(0);
    }

    @Test
    void aRunnerKilledMidRunEndsTheRunWithErrorAndTheNextRunWorksAfterARestart() throws Exception {
        startRunner();
        HttpResponse<String> setup = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/it-code-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, setup.statusCode(), setup.body());
        String key = McpHttp.parse(setup.body()).asJsonObject().getString("key");
        try (McpSyncClient client = McpHttp.sdkClient("/" + NAME + "/mcp/demo", key)) {
            client.initialize();
            // The sandbox waits (it does not spin), so the orphan left by the kill ends by itself.
            CompletableFuture<McpSchema.CallToolResult> running = CompletableFuture.supplyAsync(() -> client.callTool(
                    new McpSchema.CallToolRequest("code_execute", Map.of("code", "await new Promise(r => setTimeout(r, 20000)); return 1;"))));
            Thread.sleep(2000);
            assertFalse(running.isDone(), "the run is still going when the runner dies");
            long killedAt = System.nanoTime();
            runner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            McpSchema.CallToolResult result = running.get(10, TimeUnit.SECONDS);
            long endedAfterMs = (System.nanoTime() - killedAt) / 1_000_000;
            assertTrue(result.isError());
            assertTrue(endedAfterMs <= 2000, "the run ended " + endedAfterMs + " ms after the kill");
            JsonObject audited = lastRun(key);
            assertEquals("ERROR", audited.getString("status"));
            assertTrue(audited.getString("error").contains("closed the connection"), audited.toString());

            startRunner();
            McpSchema.CallToolResult next = client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", "return 41 + 1;")));
            assertFalse(next.isError(), next.toString());
            assertEquals("SUCCESS", lastRun(key).getString("status"));
        }
    }

}
