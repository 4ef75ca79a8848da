import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The gateway's upstream MCP client on its own: the official SDK's async client configured as McpUpstreamInvoker
 * configures it (HTTP/1.1, one client shared by all callers, callTool(...).toFuture().get()), 8 threads calling
 * server-everything's echo. Modes: "shared" (one client, as the gateway), "separate" (one client per thread), "poolN".
 * Run it twice side by side to compare JVM options, e.g. the common pool's parallelism (docs/benchmarks.md):
 *   mvn -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   PORT=19306 npx -y @modelcontextprotocol/server-everything@2026.8.31 streamableHttp &
 *   for p in 1 4 1 4; do java -Djava.util.concurrent.ForkJoinPool.common.parallelism=$p -cp "$(cat target/cp.txt)" \
 *     bench/UpstreamMcpClientBench.java 19306 150 shared,separate,shared,separate; done
 * Arguments: port, calls per thread, modes. Prints p50 and p90 per mode (the first fifth of each thread's calls is
 * left out as warm-up).
 */
public class UpstreamMcpClientBench {

    static McpAsyncClient client(String base) {
        McpAsyncClient c = McpClient.async(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp")
                .clientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)).build())
                .requestTimeout(Duration.ofSeconds(30)).build();
        c.initialize().block();
        return c;
    }

    public static void main(String[] args) throws Exception {
        String base = "http://127.0.0.1:" + args[0];
        int calls = Integer.parseInt(args[1]);
        int threads = 8;
        for (String mode : args[2].split(",")) {
            List<McpAsyncClient> clients = new ArrayList<>();
            int pool = mode.equals("shared") ? 1 : mode.startsWith("pool") ? Integer.parseInt(mode.substring(4)) : threads;
            for (int i = 0; i < threads; i++) {
                clients.add(i < pool ? client(base) : clients.get(i % pool));
            }
            List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (McpAsyncClient c : clients) {
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < calls; i++) {
                        long t0 = System.nanoTime();
                        c.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "hi"))).toFuture().get();
                        if (i >= calls / 5) {
                            nanos.add(System.nanoTime() - t0);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            executor.shutdown();
            clients.stream().distinct().forEach(McpAsyncClient::close);
            List<Long> sorted = new ArrayList<>(nanos);
            Collections.sort(sorted);
            System.out.printf("%s p50 %.3f ms p90 %.3f ms%n", mode, sorted.get(sorted.size() / 2) / 1e6, sorted.get(sorted.size() * 9 / 10) / 1e6);
        }
        System.exit(0);
    }
}
