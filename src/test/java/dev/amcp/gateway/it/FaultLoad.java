package dev.amcp.gateway.it;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Load that goes on while a part fails, every call timed: official SDK clients calling {@code tools/call} and
 * {@code code_execute}, an admin creating roles over REST, a caller of a code tool whose writes wait for approval, and
 * a watcher of each node's readiness. What each saw is kept, so a test can say what failed, how fast, and what the
 * database must hold afterwards (every acknowledged role and approval).
 */
final class FaultLoad implements AutoCloseable {

    /** One call: when it started ({@link System#nanoTime()}), how long it took, and why it failed (null: it succeeded). */
    record Call(long startedAt, long millis, String what, String failure) {
        boolean failed() {
            return failure != null;
        }
    }

    /** A node's readiness status code at a time ({@link System#nanoTime()}); 0 when it did not answer. */
    record Readiness(long at, String node, int status) {}

    static final long PAUSE_MS = 500;

    private final String balancer;
    private final String key;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    final List<Readiness> readiness = Collections.synchronizedList(new ArrayList<>());
    /** The roles whose creation was answered 201. */
    final Set<String> rolesCreated = ConcurrentHashMap.newKeySet();
    /** The approval ids that callers were given. */
    final Set<String> approvalsGiven = ConcurrentHashMap.newKeySet();

    FaultLoad(String balancer, String key) {
        this.balancer = balancer;
        this.key = key;
    }

    /** SDK clients each calling a tool, then a code run that calls it, with a pause after each; a new client after a failure. */
    void mcpClients(int count) {
        for (int c = 1; c <= count; c++) {
            int customer = c;
            String code = "const c = await amcp.run('customer_get', {customerId: " + customer + "}); return {id: c.id};";
            pool.submit(() -> withClients(client -> {
                timed("customer_get", () -> failureOf(client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", customer)))));
                pause();
                timed("code_execute", () -> failureOf(client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", code)))));
                pause();
            }));
        }
    }

    /** An SDK client calling a code tool whose write waits for approval: each call pauses its run and is given an approval. */
    void approvalCaller(String tool) {
        pool.submit(() -> withClients(client -> {
            timed("approval " + tool, () -> {
                McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, Map.of("customerId", 3, "note", "fault load")));
                if (result.meta() != null && result.meta().get("amcp/approval") instanceof Map<?, ?> approval) {
                    approvalsGiven.add(String.valueOf(approval.get("id")));
                    return null;
                }
                return failureOf(result);
            });
            pause();
        }));
    }

    /** An admin creating roles named {@code prefix-1}, {@code prefix-2}, ... over REST, one per pause. */
    void roleCreator(String prefix) {
        pool.submit(() -> {
            for (int n = 1; !stop.get(); n++) {
                String name = prefix + "-" + n;
                timed("POST /api/roles", () -> {
                    HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(balancer + "/api/roles"))
                            .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\",\"capabilities\":[]}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 201) {
                        rolesCreated.add(name);
                        return null;
                    }
                    return "HTTP " + r.statusCode() + " " + r.headers().firstValue("Retry-After").map(s -> "(Retry-After " + s + ") ").orElse("")
                            + clip(r.body());
                });
                pause();
            }
            return null;
        });
    }

    /** Asks each node's {@code /health/ready} every 250 ms. */
    void watchReadiness(Map<String, String> nodes) {
        pool.submit(() -> {
            while (!stop.get()) {
                for (var node : nodes.entrySet()) {
                    int status;
                    try {
                        status = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(node.getValue() + "/health/ready")).timeout(Duration.ofSeconds(5)).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (Exception e) {
                        status = 0;
                    }
                    readiness.add(new Readiness(System.nanoTime(), node.getKey(), status));
                }
                Thread.sleep(250);
            }
            return null;
        });
    }

    /** The calls that started in [from, to) ({@link System#nanoTime()}). */
    List<Call> startedBetween(long from, long to) {
        synchronized (calls) {
            return calls.stream().filter(c -> c.startedAt() >= from && c.startedAt() < to).toList();
        }
    }

    long succeeded() {
        synchronized (calls) {
            return calls.stream().filter(c -> !c.failed()).count();
        }
    }

    /** When a node's readiness first answered {@code status} at or after {@code since}, or -1. */
    long firstReadiness(String node, java.util.function.IntPredicate status, long since) {
        synchronized (readiness) {
            return readiness.stream().filter(r -> r.node().equals(node) && r.at() >= since && status.test(r.status()))
                    .mapToLong(Readiness::at).findFirst().orElse(-1);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        pool.shutdown();
        if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the load's clients did not stop within 2 minutes");
        }
    }

    private interface Round {
        void run(McpSyncClient client) throws Exception;
    }

    private void withClients(Round round) {
        while (!stop.get()) {
            try (McpSyncClient client = McpHttp.sdkClientAt(balancer, "/mcp/demo", r -> r.setHeader("Authorization", "Bearer " + key))) {
                timed("initialize", () -> {
                    client.initialize();
                    return null;
                });
                while (!stop.get()) {
                    round.run(client);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception failed) {
                pause(); // recorded by timed(); a new client after the pause
            }
        }
    }

    private interface Timed {
        String call() throws Exception;
    }

    /** Runs one call and records it; a call that throws is recorded as failed and the exception passes on. */
    private void timed(String what, Timed call) throws Exception {
        long started = System.nanoTime();
        try {
            String failure = call.call();
            calls.add(new Call(started, (System.nanoTime() - started) / 1_000_000, what, failure));
        } catch (Exception e) {
            calls.add(new Call(started, (System.nanoTime() - started) / 1_000_000, what, clip(described(e))));
            throw e;
        }
    }

    private static String failureOf(McpSchema.CallToolResult result) {
        return Boolean.TRUE.equals(result.isError()) ? clip(String.valueOf(result.content())) : null;
    }

    private void pause() {
        try {
            Thread.sleep(PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.set(true);
        }
    }

    /** An exception and its causes, innermost last: the SDK says "failed to initialize" and its cause says why. */
    private static String described(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(" <- ").append(cause);
        }
        return text.toString();
    }

    /** Failures are kept short: their first 600 characters say what failed. */
    private static String clip(String text) {
        return text == null || text.length() <= 600 ? text : text.substring(0, 600) + "…";
    }
}
