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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runner fails under the gateway. It dies in the middle of a run: the run ends at once with ERROR, its audit row
 * is written, and once a runner is back the next run works. It hangs (its supervisor stopped with SIGSTOP): runs end
 * within their wall time, new runs are refused within the connect timeout, a client that goes away cancels its run at
 * once, and the run slots come back. Each test owns its runner (a supervisor on a port of its own) so it can kill or
 * stop it without disturbing the other tests.
 */
@ExtendWith(ArquillianExtension.class)
class RunnerCrashIT {

    static final String NAME = "amcp-crash";
    static final String STUCK = "amcp-stuck";
    static final String TOKEN = "crash-test-token-" + Long.toHexString(System.nanoTime());
    static final int PORT = freePort();
    static final int STUCK_PORT = freePort();
    static final long STUCK_TIMEOUT_MS = 5000;
    static final long STUCK_CONNECT_MS = 2000;
    static Process runner;
    static Process stuckRunner;

    @Deployment(name = "crash", testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner(); // the shared runner proves Deno is installed; this test starts its own
        return Deployments.gateway(NAME, false, Map.of("CODE_RUNNER_URL", "ws://127.0.0.1:" + PORT, "CODE_RUNNER_TOKEN", TOKEN,
                "AMCP_CODE_TIMEOUT_MS", "30000"));
    }

    @Deployment(name = "stuck", testable = false)
    static WebArchive stuckDeployment() {
        Deployments.requireRunner();
        return Deployments.gateway(STUCK, false, Map.of("CODE_RUNNER_URL", "ws://127.0.0.1:" + STUCK_PORT, "CODE_RUNNER_TOKEN", TOKEN,
                "AMCP_CODE_TIMEOUT_MS", String.valueOf(STUCK_TIMEOUT_MS), "AMCP_CODE_RUNNER_CONNECT_TIMEOUT_MS", String.valueOf(STUCK_CONNECT_MS),
                "AMCP_CODE_MAX_CONCURRENT_RUNS", "2"));
    }

    @AfterAll
    static void stopRunner() {
        for (Process p : new Process[]{runner, stuckRunner}) {
            if (p != null) {
                signal(p, "CONT");
                p.destroyForcibly();
            }
        }
    }

    static void signal(Process p, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        runner = startRunner(PORT, "target/crash-runner.log");
    }

    static Process startRunner(int port, String logFile) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("runner-image/run-local.sh")
                .redirectErrorStream(true).redirectOutput(new File(logFile));
        builder.environment().put("CODE_RUNNER_TOKEN", TOKEN);
        builder.environment().put("CODE_RUNNER_PORT", String.valueOf(port));
        builder.environment().put("CODE_RUNNER_POOL_SIZE", "1");
        Process started = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return started;
            } catch (IOException notYet) {
                if (!started.isAlive()) {
                    throw new IllegalStateException("the test runner exited; see " + logFile);
                }
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the test runner did not listen within 60 s; see " + logFile);
    }

    static String base() {
        return McpHttp.base() + "/" + NAME;
    }

    static JsonObject lastRun(String key) throws Exception {
        return runs(NAME, key, 1).getJsonObject(0);
    }

    static jakarta.json.JsonArray runs(String deployment, String key, int limit) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/" + deployment + "/api/code-runs?limit=" + limit))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getJsonArray("runs");
    }

    static String tenantKey(String deployment) throws Exception {
        HttpResponse<String> setup = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + "/" + deployment + "/it-code-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, setup.statusCode(), setup.body());
        return McpHttp.parse(setup.body()).asJsonObject().getString("key");
    }

    static McpSchema.CallToolResult codeExecute(McpSyncClient client, String code) {
        return client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", code)));
    }

    /** The crash deployment's threads: {@code total} and {@code inRuns} (see {@link CodeModeItSetup#threads}). */
    static JsonObject threads() throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/it-code-setup/threads")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject();
    }

    static final int IN_FLIGHT = 4;

    /**
     * Four runs are in flight when the runner is killed (SIGKILL): each ends with an ERROR saying the runner closed the
     * connection within a second of the kill, each has its audit row, and every request thread that waited on a run
     * is given back. Once a runner is back the next run works.
     */
    @Test
    @OperateOnDeployment("crash")
    void aRunnerKilledMidRunEndsTheRunWithErrorAndTheNextRunWorksAfterARestart() throws Exception {
        startRunner();
        String key = tenantKey(NAME);
        JsonObject before = threads();
        List<McpSyncClient> clients = new ArrayList<>();
        try {
            List<CompletableFuture<Long>> running = new ArrayList<>();
            AtomicLong killedAt = new AtomicLong();
            List<McpSchema.CallToolResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < IN_FLIGHT; i++) {
                McpSyncClient client = McpHttp.sdkClient("/" + NAME + "/mcp/demo", key);
                clients.add(client);
                client.initialize();
                // The sandbox waits (it does not spin), so the orphan left by the kill ends by itself.
                running.add(CompletableFuture.supplyAsync(() -> {
                    results.add(codeExecute(client, "await new Promise(r => setTimeout(r, 20000)); return 1;"));
                    return (System.nanoTime() - killedAt.get()) / 1_000_000;
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (threads().getInt("inRuns") < IN_FLIGHT + before.getInt("inRuns") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            JsonObject during = threads();
            assertTrue(during.getInt("inRuns") >= IN_FLIGHT, "each run holds a request thread: " + during);
            Thread.sleep(1000); // the sandboxes are in their wait
            assertTrue(running.stream().noneMatch(CompletableFuture::isDone), "the runs are still going when the runner dies");
            killedAt.set(System.nanoTime());
            runner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            List<Long> endedAfterMs = new ArrayList<>();
            for (var run : running) {
                endedAfterMs.add(run.get(10, TimeUnit.SECONDS));
            }
            System.out.println("[runner-crash-it] runs ended after the kill (ms): " + endedAfterMs + "; threads before " + before
                    + ", during " + during);
            for (McpSchema.CallToolResult result : results) {
                assertTrue(result.isError(), result.toString());
                assertTrue(String.valueOf(result.content()).contains("closed the connection"), result.toString());
            }
            assertTrue(endedAfterMs.stream().allMatch(ms -> ms <= 1000), "each run ended within 1 s of the kill: " + endedAfterMs);
            for (JsonObject audited : runs(NAME, key, IN_FLIGHT).getValuesAs(JsonObject.class)) {
                assertEquals("ERROR", audited.getString("status"));
                assertTrue(audited.getString("error").contains("closed the connection"), audited.toString());
            }
            long given = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (threads().getInt("inRuns") > before.getInt("inRuns") && System.nanoTime() < given) {
                Thread.sleep(100);
            }
            JsonObject after = threads();
            System.out.println("[runner-crash-it] threads after " + after);
            assertEquals(before.getInt("inRuns"), after.getInt("inRuns"), "no request thread is left waiting on a run: " + after);

            startRunner();
            McpSchema.CallToolResult next = codeExecute(clients.get(0), "return 41 + 1;");
            assertFalse(next.isError(), next.toString());
            assertEquals("SUCCESS", lastRun(key).getString("status"));
        } finally {
            clients.forEach(McpSyncClient::close);
        }
    }


    @Test
    @OperateOnDeployment("stuck")
    void aStoppedRunnerEndsRunsWithinTheirWallTimeAndFreesTheirSlots() throws Exception {
        stuckRunner = startRunner(STUCK_PORT, "target/stuck-runner.log");
        String key = tenantKey(STUCK);
        long limitMs = STUCK_TIMEOUT_MS + 1500 + 1000; // wall time, the gateway's grace, and slack for this machine
        try (McpSyncClient client = McpHttp.sdkClient("/" + STUCK + "/mcp/demo", key)) {
            client.initialize();
            assertFalse(codeExecute(client, "return 1;").isError(), "the runner works before it is stopped");

            // 1. The supervisor stops in the middle of a run: the run ends by its wall time, as ERROR.
            long start = System.nanoTime();
            CompletableFuture<McpSchema.CallToolResult> running = CompletableFuture.supplyAsync(() ->
                    codeExecute(client, "await new Promise(r => setTimeout(r, 20000)); return 1;"));
            Thread.sleep(1500);
            signal(stuckRunner, "STOP");
            McpSchema.CallToolResult midRun = running.get(30, TimeUnit.SECONDS);
            long midRunMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(midRun.isError());
            JsonObject audited = runs(STUCK, key, 1).getJsonObject(0);
            assertEquals("ERROR", audited.getString("status"), audited.toString());
            assertTrue(audited.getString("error").contains("did not end the run within its wall time"), audited.toString());
            assertTrue(midRunMs < limitMs, "a run on a stopped runner took " + midRunMs + " ms");

            // 2. New runs while it is stopped, twice as many as the node's 2 slots: each is refused within its wall time.
            List<CompletableFuture<Long>> burst = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                burst.add(CompletableFuture.supplyAsync(() -> {
                    try (McpSyncClient own = McpHttp.sdkClient("/" + STUCK + "/mcp/demo", key)) {
                        own.initialize();
                        long t0 = System.nanoTime();
                        assertTrue(codeExecute(own, "return 2;").isError());
                        return (System.nanoTime() - t0) / 1_000_000;
                    }
                }));
            }
            List<Long> burstMs = new ArrayList<>();
            for (CompletableFuture<Long> run : burst) {
                burstMs.add(run.get(60, TimeUnit.SECONDS));
            }
            var refused = runs(STUCK, key, 4);
            for (int i = 0; i < 4; i++) {
                JsonObject run = refused.getJsonObject(i);
                assertEquals("REFUSED", run.getString("status"), run.toString());
                assertTrue(run.getString("error").contains("did not accept the connection within"), run.toString());
            }
            assertTrue(burstMs.stream().allMatch(ms -> ms < limitMs), "runs against a stopped runner took " + burstMs + " ms");

            // 3. A client that goes away while the runner is stopped cancels its run at once, not at the connect timeout.
            McpHttp.callAndHangUp("/" + STUCK + "/mcp/demo", key, "return 3;", 300);
            JsonObject abandoned = runs(STUCK, key, 1).getJsonObject(0);
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (("RUNNING".equals(abandoned.getString("status")) || !abandoned.containsKey("wallMs")) && System.nanoTime() < waitUntil) {
                Thread.sleep(100);
                abandoned = runs(STUCK, key, 1).getJsonObject(0);
            }
            assertEquals("CANCELLED", abandoned.getString("status"), abandoned.toString());
            assertTrue(abandoned.getJsonNumber("wallMs").longValue() < STUCK_CONNECT_MS, "cancelled before the runner answered: " + abandoned);
            System.out.printf("RunnerCrashIT: stopped runner: mid-run ended after %d ms (wall time %d ms); new runs refused after %s ms "
                    + "(connect timeout %d ms, 2 slots, 4 runs); abandoned run cancelled after %d ms%n", midRunMs, STUCK_TIMEOUT_MS, burstMs,
                    STUCK_CONNECT_MS, abandoned.getJsonNumber("wallMs").longValue());

            // 4. Resumed: the slots came back, so runs beyond the two slots still succeed.
            signal(stuckRunner, "CONT");
            for (int i = 0; i < 3; i++) {
                McpSchema.CallToolResult ok = codeExecute(client, "return 40 + " + i + ";");
                assertFalse(ok.isError(), ok.toString());
            }
            assertEquals("SUCCESS", runs(STUCK, key, 1).getJsonObject(0).getString("status"));
        } finally {
            signal(stuckRunner, "CONT");
        }
    }
}
