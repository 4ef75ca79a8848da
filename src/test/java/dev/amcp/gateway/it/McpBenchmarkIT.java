package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * tools/call of a GET tool through the gateway against the same upstream called directly, concurrency 8 on
 * loopback. Opt-in (-Dit.benchmark=true) so the normal test run stays short; results go to target/benchmark.txt.
 */
@ExtendWith(ArquillianExtension.class)
class McpBenchmarkIT {

    static final int CONCURRENCY = 8;
    static final int WARMUP = 400;
    static final int REQUESTS = 4000;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Test
    void gatewayOverheadOfAGetTool() throws Exception {
        assumeTrue(Boolean.getBoolean("it.benchmark"), "benchmark not requested (-Dit.benchmark=true)");
        String key = McpHttp.tenant("mcp-tenant").getString("adminKey");
        HttpRequest direct = HttpRequest.newBuilder(URI.create(McpHttp.base() + "/it-upstream/echo/42?q=x"))
                .header("Accept", "application/json").GET().build();
        HttpRequest gateway = HttpRequest.newBuilder(URI.create(McpHttp.base() + "/mcp/main"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(McpHttp.request(1, "tools/call",
                        "{\"name\":\"echo_get\",\"arguments\":{\"id\":\"42\",\"q\":\"x\"}}"))).build();
        // the same call as a stateless 2026-07-28 request: revision and client capabilities in _meta, the method and tool
        // name repeated in headers
        HttpRequest stateless = HttpRequest.newBuilder(URI.create(McpHttp.base() + "/mcp/main"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "echo_get")
                .header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(McpHttp.request(1, "tools/call", "{\"name\":\"echo_get\",\"arguments\":"
                        + "{\"id\":\"42\",\"q\":\"x\"}," + McpStatelessIT.META + "}"))).build();
        run(direct, WARMUP);
        run(gateway, WARMUP);
        run(stateless, WARMUP);
        Result d = run(direct, REQUESTS);
        Result g = run(gateway, REQUESTS);
        Result s = run(stateless, REQUESTS);
        String report = String.format(Locale.ROOT, "direct:             p50 %.3f ms  p99 %.3f ms  %.0f req/s%n"
                        + "gateway 2025-11-25: p50 %.3f ms  p99 %.3f ms  %.0f req/s%n"
                        + "gateway 2026-07-28: p50 %.3f ms  p99 %.3f ms  %.0f req/s%n"
                        + "added 2025-11-25:   p50 %.3f ms  p99 %.3f ms%n"
                        + "added 2026-07-28:   p50 %.3f ms  p99 %.3f ms  (concurrency %d, %d requests each)%n",
                d.p50, d.p99, d.rps, g.p50, g.p99, g.rps, s.p50, s.p99, s.rps, g.p50 - d.p50, g.p99 - d.p99,
                s.p50 - d.p50, s.p99 - d.p99, CONCURRENCY, REQUESTS);
        System.out.println(report);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "benchmark.txt"), report);
    }

    record Result(double p50, double p99, double rps) {}

    static Result run(HttpRequest request, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
        List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < CONCURRENCY; w++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < count / CONCURRENCY; i++) {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = McpHttp.HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                    nanos.add(System.nanoTime() - t0);
                    assertEquals(200, r.statusCode());
                    if (r.body().contains("\"isError\":true")) {
                        throw new IllegalStateException(r.body());
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return new Result(sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) (sorted.size() * 0.99)) / 1e6, sorted.size() / seconds);
    }
}
