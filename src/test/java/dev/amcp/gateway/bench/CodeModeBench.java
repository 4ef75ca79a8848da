package dev.amcp.gateway.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark of code mode and MCP against a running gateway with the demo workspace and a live runner, driven over
 * MCP Streamable HTTP with keep-alive connections: a plain socket client (HTTP/1.1, or the JDK {@link HttpClient}
 * with {@code --client jdk}) and the official MCP Java SDK client. It runs with the single-file launcher on the test
 * classpath; {@code bench/code-mode.sh} starts the gateway, the runner and an OpenID provider and calls it:
 *
 * <pre>
 * java -cp TEST_CLASSPATH src/test/java/dev/amcp/gateway/bench/CodeModeBench.java --base http://127.0.0.1:9780 --key KEY \
 *     [--only users,latency,bridge,mcp,revisions,upstream,load] [--oauth-token-url http://127.0.0.1:9782/default/token]
 * </pre>
 *
 * With {@code --oauth-token-url} the {@code mcp} section also measures {@code tools/call} with an OAuth access token
 * from that provider, beside the API key in the same rounds. Knobs: {@code --warmup-seconds 90 --latency-runs 300
 * --latency-warmup 150 --bridge-reps 10 --load 200 --mcp-requests 20000 --mcp-rounds 3 --mcp-clients 8
 * --revisions-requests 10000 --revisions-rounds 3 --revisions-runs 100}. Prints a table per section; exit status 1
 * when a check fails (a lost or unfinished run, an error result where none is expected).
 */
public final class CodeModeBench {

    static final String PROTOCOL = "2025-11-25";
    /** The stateless revision: no initialize, revision and client capabilities in every request's {@code _meta}. */
    static final String STATELESS = "2026-07-28";
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + STATELESS + "\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"amcp-bench\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    final String base;
    final String key;
    final Map<String, String> opts;
    final Set<String> only;
    /** An OAuth access token for the demo admin on /mcp/demo, when {@code --oauth-token-url} names a provider. */
    final String token;
    final List<String> failures = new ArrayList<>();

    CodeModeBench(String base, String key, Map<String, String> opts) throws Exception {
        this.base = base;
        this.key = key;
        this.opts = opts;
        this.only = Set.of(opts.getOrDefault("only", "users,mcp,revisions,load").split(","));
        this.token = opts.containsKey("oauth-token-url") ? fetchToken(opts.get("oauth-token-url")) : null;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String base = opts.getOrDefault("base", "http://127.0.0.1:9780");
        String key = opts.get("key");
        if (key == null) {
            System.err.println("usage: CodeModeBench --base URL --key API_KEY [--only users,latency,bridge,mcp,revisions,upstream,load] [--client socket|jdk] [--oauth-token-url URL]");
            System.exit(2);
        }
        Mcp.useJdk = "jdk".equals(opts.getOrDefault("client", "socket"));
        CodeModeBench bench = new CodeModeBench(base, key, opts);
        Set<String> only = bench.only;
        System.out.printf(Locale.ROOT, "# AMCP Gateway benchmark, %s, gateway %s, %d cores, load average %s, client %s%n",
                Instant.now(), base, Runtime.getRuntime().availableProcessors(), loadAverage(), Mcp.useJdk ? "JDK HttpClient" : "socket");
        if (only.contains("users")) {
            bench.users();
        }
        if (only.contains("latency") || only.contains("mcp") || only.contains("revisions")) {
            bench.warmUp();
        }
        if (only.contains("latency")) {
            bench.latency();
        }
        if (only.contains("bridge")) {
            bench.bridge();
        }
        if (only.contains("mcp")) {
            bench.mcp();
        }
        if (only.contains("revisions")) {
            bench.revisions();
        }
        if (only.contains("upstream")) {
            bench.upstream();
        }
        if (only.contains("load")) {
            bench.load();
        }
        System.out.printf(Locale.ROOT, "%nload average at the end: %s%n", loadAverage());
        if (!bench.failures.isEmpty()) {
            System.out.println("FAILED: " + bench.failures);
            System.exit(1);
        }
    }

    int opt(String name, int def) {
        return Integer.parseInt(opts.getOrDefault(name, String.valueOf(def)));
    }

    // ---------------------------------------------------------------------------------------------- sections

    /**
     * End-to-end tools/call code_execute of {@code return 1}, one client, sequential calls, measured twice: paced (one
     * call every {@code latency-gap-ms}, so the runner's pool has refilled, as at any rate below its sustained
     * throughput) and back to back (each call starts when the last one returns, so the replacement sandbox each run
     * spawns competes with the next run for the two cores; this measures throughput as much as latency).
     */
    void latency() throws Exception {
        int warmup = opt("latency-warmup", 150);
        int runs = opt("latency-runs", 300);
        int backToBack = opt("latency-back-to-back", 200);
        int gapMs = opt("latency-gap-ms", 100);
        Mcp client = new Mcp(base + "/mcp/demo", key);
        client.initialize();
        String call = toolCall("code_execute", "{\"code\":\"return 1\"}");
        for (int i = 0; i < warmup; i++) {
            expectOk(client.post(call), "code_execute return 1");
            Thread.sleep(gapMs);
        }
        long[] paced = new long[runs];
        for (int i = 0; i < runs; i++) {
            Thread.sleep(gapMs);
            Reply r = client.post(call);
            paced[i] = r.nanos;
            expectOk(r, "code_execute return 1");
        }
        long[] chained = new long[backToBack];
        for (int i = 0; i < backToBack; i++) {
            Reply r = client.post(call);
            chained[i] = r.nanos;
            expectOk(r, "code_execute return 1");
        }
        System.out.printf(Locale.ROOT, "%n## Code mode: end-to-end tools/call code_execute `return 1` (one client, keep-alive, after %d warm-up calls)%n", warmup);
        System.out.println("| calls | n | p50 | p90 | p99 | mean | min | max | target |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        Stats s = Stats.of(paced);
        System.out.printf(Locale.ROOT, "| paced, one every %d ms | %d | %s | %s | %s | %s | %s | %s | p50 ≤ 25 ms: %s |%n", gapMs, runs, ms(s.p50),
                ms(s.p90), ms(s.p99), ms(s.mean), ms(s.min), ms(s.max), s.p50 <= 25e6 ? "met" : "NOT met");
        if (backToBack > 0) {
            Stats b = Stats.of(chained);
            System.out.printf(Locale.ROOT, "| back to back | %d | %s | %s | %s | %s | %s | %s | — |%n", backToBack, ms(b.p50), ms(b.p90),
                    ms(b.p99), ms(b.mean), ms(b.min), ms(b.max));
        }
        // For comparison: a plain MCP round trip on the same connection (no code run).
        long[] ping = new long[Math.min(runs, 200)];
        for (int i = 0; i < ping.length; i++) {
            ping[i] = client.post(McpText.request(1, "ping", null)).nanos;
        }
        System.out.printf(Locale.ROOT, "MCP `ping` on the same connection, p50 %s (what the HTTP + MCP layer alone costs)%n", ms(Stats.of(ping).p50));
    }

    /** 100 sequential amcp.run calls in one code_execute versus the same 100 calls as separate MCP tools/call. */
    void bridge() throws Exception {
        int reps = opt("bridge-reps", 10);
        int calls = 100;
        Mcp client = new Mcp(base + "/mcp/demo", key);
        client.initialize();
        String code = "let gold = []; for (let i = 1; i <= " + calls + "; i++) { const c = await amcp.run('customer_get', {customerId: i});"
                + " if (c.tier === 'gold') gold.push(c.id); } return {calls: " + calls + ", gold: gold.length, first: gold.slice(0, 3)};";
        String codeCall = toolCall("code_execute", "{\"code\":" + McpText.quote(code) + "}");
        long[] codeNanos = new long[reps];
        long[] codeBytes = new long[reps];
        long[] directNanos = new long[reps];
        long[] directBytes = new long[reps];
        String sample = null;
        for (int rep = -2; rep < reps; rep++) { // two warm-up repetitions
            Reply r = client.post(codeCall);
            expectOk(r, "code_execute of " + calls + " bridge calls");
            sample = r.body;
            long t0 = System.nanoTime();
            long bytes = 0;
            for (int i = 1; i <= calls; i++) {
                Reply d = client.post(toolCall("customer_get", "{\"customerId\":" + i + "}"));
                expectOk(d, "customer_get");
                bytes += d.bytes;
            }
            long elapsed = System.nanoTime() - t0;
            if (rep >= 0) {
                codeNanos[rep] = r.nanos;
                codeBytes[rep] = r.bytes;
                directNanos[rep] = elapsed;
                directBytes[rep] = bytes;
            }
        }
        Stats ct = Stats.of(codeNanos);
        Stats dt = Stats.of(directNanos);
        long cb = Stats.median(codeBytes);
        long db = Stats.median(directBytes);
        double fewer = 100.0 * (db - cb) / db;
        System.out.printf(Locale.ROOT, "%n## Code mode: bridge overhead, %d sequential calls of customer_get (%d repetitions after 2 warm-up, medians)%n", calls, reps);
        System.out.println("| way | time p50 | time min..max | bytes the client receives | per call |");
        System.out.println("|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| one code_execute, %d amcp.run, returns a count and 3 ids | %s | %s..%s | %d | %s |%n", calls, ms(ct.p50),
                ms(ct.min), ms(ct.max), cb, ms(ct.p50 / calls));
        System.out.printf(Locale.ROOT, "| %d MCP tools/call customer_get from the client | %s | %s..%s | %d | %s |%n", calls, ms(dt.p50),
                ms(dt.min), ms(dt.max), db, ms(dt.p50 / calls));
        System.out.printf(Locale.ROOT, "bytes: code mode returns %.2f %% fewer bytes (target ≥ 95 %%: %s); time ratio code/direct %.2f%n",
                fewer, fewer >= 95 ? "met" : "NOT met", ct.p50 / dt.p50);
        System.out.println("code-mode reply: " + sample.strip());
        if (fewer < 95) {
            failures.add("bridge bytes reduction " + fewer + " % < 95 %");
        }
    }

    // ---------------------------------------------------------------------------------------------- users

    /**
     * What a user's MCP client gets, measured with two clients side by side: the official MCP Java SDK client
     * ({@code McpSyncClient} over its Streamable HTTP transport, one client reused for every call, so its HTTP
     * connection is kept alive as every SDK keeps it) and the plain socket client (one kept-alive socket, TCP_NODELAY).
     * For each: a warm-up (reported), {@code code_execute return 1} back to back and paced, {@code tools/call
     * customer_get}, and one {@code code_execute} making 100 sequential {@code amcp.run} against 100 sequential client
     * calls; for the socket client also back to back and paced with a new connection per call. The warm-up gives each
     * path as many calls as the others get: 2,000 client {@code tools/call}, 20 bridge runs of 100 calls (2,000 bridge
     * calls) and 1,000 code runs. With 300 runs and 5 bridge runs, the JIT was still compiling the run and bridge paths
     * while they were measured (its compiler threads spent 4 ms of CPU per run), and the bridge ratio compared a cold
     * path with a warm one. About 2,700 code runs per gateway in all: more than the community terms allow a month,
     * which the benchmark's own license (bench/code-mode.sh) allows. Prints one table with the targets beside
     * the figures.
     */
    void users() throws Exception {
        int warmCalls = opt("users-warmup-calls", 2000);
        int warmRuns = opt("users-warmup-runs", 1000); // the code-run path, which no other warm-up exercises (the bench license allows it)
        int warmBridgeRuns = opt("users-warmup-bridge-runs", 20); // as many bridge calls as client calls
        int runs = opt("users-runs", 150);
        int paced = opt("users-paced-runs", 100);
        int gapMs = opt("latency-gap-ms", 100);
        int calls = opt("users-calls", 1000);
        int reps = opt("bridge-reps", 10);
        String label = opts.getOrDefault("label", "gateway");
        String bridgeCode = "for (let i = 1; i <= 100; i++) { await amcp.run('customer_get', {customerId: i}); } return 100;";
        List<String[]> rows = new ArrayList<>();
        List<String> warm = new ArrayList<>();
        for (String kind : List.of("sdk", "socket")) {
            try (UserClient c = "sdk".equals(kind) ? new SdkUserClient(base, key) : new SocketUserClient(base + "/mcp/demo", key)) {
                long w0 = System.nanoTime();
                for (int i = 0; i < warmCalls; i++) {
                    c.call("customer_get", Map.of("customerId", 1 + i % 200));
                }
                for (int i = 0; i < warmRuns; i++) {
                    c.call("code_execute", Map.of("code", "return 1"));
                    Thread.sleep(20);
                }
                for (int i = 0; i < warmBridgeRuns; i++) {
                    c.call("code_execute", Map.of("code", bridgeCode));
                }
                warm.add(String.format(Locale.ROOT, "%s: %d tools/call customer_get, %d code_execute `return 1` and %d bridge runs of 100 calls (%.1f s)",
                        c.name(), warmCalls, warmRuns, warmBridgeRuns, (System.nanoTime() - w0) / 1e9));
                long[] b2b = new long[runs];
                for (int i = 0; i < runs; i++) {
                    b2b[i] = c.call("code_execute", Map.of("code", "return 1"));
                }
                long[] spaced = new long[paced];
                for (int i = 0; i < paced; i++) {
                    Thread.sleep(gapMs);
                    spaced[i] = c.call("code_execute", Map.of("code", "return 1"));
                }
                long[] direct = new long[calls];
                for (int i = 0; i < calls; i++) {
                    direct[i] = c.call("customer_get", Map.of("customerId", 1 + i % 200));
                }
                // The same pacing as the paced code_execute, so that its ratio compares like with like: on an idle machine
                // every call pays the wake-ups of its threads, which back-to-back calls do not.
                long[] directPaced = new long[paced];
                for (int i = 0; i < paced; i++) {
                    Thread.sleep(gapMs);
                    directPaced[i] = c.call("customer_get", Map.of("customerId", 1 + i % 200));
                }
                long[] bridgeRun = new long[reps];
                long[] clientCalls = new long[reps];
                for (int r = 0; r < reps; r++) {
                    bridgeRun[r] = c.call("code_execute", Map.of("code", bridgeCode));
                    long t0 = System.nanoTime();
                    for (int i = 1; i <= 100; i++) {
                        c.call("customer_get", Map.of("customerId", i));
                    }
                    clientCalls[r] = System.nanoTime() - t0;
                }
                if (c instanceof SocketUserClient sc) {
                    // The same calls, each on a new connection: a kept-alive connection costs nothing extra, the pacing does.
                    long[] fresh = new long[Math.max(1, runs * 2 / 3)];
                    long[] freshPaced = new long[Math.max(1, paced / 2)];
                    for (int i = 0; i < fresh.length; i++) {
                        sc.mcp.socket.close();
                        fresh[i] = c.call("code_execute", Map.of("code", "return 1"));
                    }
                    for (int i = 0; i < freshPaced.length; i++) {
                        Thread.sleep(gapMs);
                        sc.mcp.socket.close();
                        freshPaced[i] = c.call("code_execute", Map.of("code", "return 1"));
                    }
                    Stats f = Stats.of(fresh);
                    Stats fp = Stats.of(freshPaced);
                    freshRow = new String[] {"plain socket, a new connection per call", ms(f.p50), ms(f.p99), ms(fp.p50), ms(fp.p99), "", "", "", "", "", "", "", ""};
                }
                Stats b = Stats.of(b2b);
                Stats p = Stats.of(spaced);
                Stats d = Stats.of(direct);
                Stats dp = Stats.of(directPaced);
                Stats br = Stats.of(bridgeRun);
                Stats cc = Stats.of(clientCalls);
                rows.add(new String[] {c.name(), ms(b.p50), ms(b.p99), ms(p.p50), ms(p.p99), ms(d.p50), ms(d.p99), ms(dp.p50),
                        String.format(Locale.ROOT, "%.1f", b.p50 / d.p50), String.format(Locale.ROOT, "%.1f", p.p50 / dp.p50), ms(br.p50), ms(cc.p50),
                        String.format(Locale.ROOT, "%.2f", br.p50 / cc.p50)});
                if ("sdk".equals(kind)) {
                    sdkFigures = new double[] {b.p50, b.p99, p.p50, p.p99, b.p50 / d.p50, p.p50 / dp.p50, br.p50 / cc.p50};
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n## What MCP clients get (%s): one client, its connection kept alive, %d back-to-back and %d paced (one every %d ms) code_execute `return 1`,"
                + " %d tools/call customer_get, %d repetitions of the bridge comparison%n", label, runs, paced, gapMs, calls, reps);
        System.out.println("Warm-up: " + String.join("; ", warm));
        System.out.println("| client | code_execute back to back p50 | p99 | paced p50 | p99 | customer_get back to back p50 | p99 | customer_get paced p50 | ratio b2b | ratio paced | 1 code_execute, 100 amcp.run | 100 client tools/call | bridge ratio |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        if (freshRow != null) {
            rows.add(freshRow);
        }
        for (String[] row : rows) {
            System.out.println("| " + String.join(" | ", row) + " |");
        }
        if (sdkFigures != null) {
            double[] f = sdkFigures;
            System.out.printf(Locale.ROOT, "targets (SDK client): code_execute p50 ≤ 15 ms: back to back %s, paced %s; p99 ≤ 40 ms: back to back %s, paced %s;"
                    + " code_execute ÷ customer_get ≤ 6: back to back %s, paced %s; 100 amcp.run ÷ 100 tools/call ≤ 0.5: %s%n",
                    met(f[0] <= 15e6), met(f[2] <= 15e6), met(f[1] <= 40e6), met(f[3] <= 40e6), met(f[4] <= 6), met(f[5] <= 6), met(f[6] <= 0.5));
        }
    }

    double[] sdkFigures;
    String[] freshRow;

    static String met(boolean ok) {
        return ok ? "met" : "NOT met";
    }

    /** One MCP client for the users section: a tools/call, its time in nanoseconds; a failure or an error result throws. */
    interface UserClient extends AutoCloseable {
        long call(String tool, Map<String, Object> args) throws Exception;

        String name();

        @Override
        void close();
    }

    /** The official MCP Java SDK client, as an application would hold it: built and initialized once, reused. */
    static final class SdkUserClient implements UserClient {
        final io.modelcontextprotocol.client.McpSyncClient client;

        SdkUserClient(String base, String key) {
            this(base, "/mcp/demo", key);
        }

        /** A client of {@code endpoint}, with the API key as its bearer, or none when {@code key} is null. */
        SdkUserClient(String base, String endpoint, String key) {
            var transport = io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint)
                    .httpRequestCustomizer((builder, method, uri, body, context) -> {
                        if (key != null) {
                            builder.setHeader("Authorization", "Bearer " + key);
                        }
                    }).build();
            client = io.modelcontextprotocol.client.McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                    .initializationTimeout(Duration.ofSeconds(30)).build();
            client.initialize();
        }

        @Override
        public long call(String tool, Map<String, Object> args) {
            long t0 = System.nanoTime();
            var result = client.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(tool, args));
            long t = System.nanoTime() - t0;
            if (Boolean.TRUE.equals(result.isError())) {
                throw new IllegalStateException(tool + " failed: " + result.content());
            }
            return t;
        }

        @Override
        public String name() {
            return "MCP Java SDK 2.1.0 (McpSyncClient, Streamable HTTP)";
        }

        @Override
        public void close() {
            client.closeGracefully();
        }
    }

    /** The plain socket client of the other sections. */
    final class SocketUserClient implements UserClient {
        final Mcp mcp;

        SocketUserClient(String endpoint, String key) throws Exception {
            mcp = new Mcp(endpoint, key);
            mcp.initialize();
        }

        @Override
        public long call(String tool, Map<String, Object> args) {
            StringBuilder json = new StringBuilder("{");
            args.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append(McpText.quote(k)).append(':')
                    .append(v instanceof String text ? McpText.quote(text) : String.valueOf(v)));
            try {
                Reply r = mcp.post(toolCall(tool, json.append('}').toString()));
                expectOk(r, tool);
                return r.nanos;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String name() {
            return "plain socket (keep-alive, TCP_NODELAY)";
        }

        @Override
        public void close() {
        }
    }

    /**
     * An upstream MCP server through the gateway: {@code tools/call} of server-everything's {@code echo} registered on
     * the demo server ({@code ev_echo}) against the same call straight to server-everything. As in the {@code mcp}
     * section, the figure is taken with socket clients, which cost almost nothing themselves, so that what is added is
     * the gateway's: {@code upstream-clients} clients (default 8), each its own kept-alive connection and MCP session, a
     * warm-up of both ways, then {@code upstream-rounds} rounds that alternate the two; then one client, and the same
     * rounds with the official MCP Java SDK client (what an application sees, the client's own cost included).
     * {@code --upstream-url} is server-everything's base URL, which the gateway knows as {@code AMCP_UPSTREAM_EVERYTHING}.
     */
    void upstream() throws Exception {
        String upstreamBase = opts.get("upstream-url");
        if (upstreamBase == null) {
            throw new IllegalArgumentException("the upstream section needs --upstream-url (server-everything's base URL)");
        }
        int clients = opt("upstream-clients", 8);
        int warmup = opt("upstream-warmup", 20000);
        int requests = opt("upstream-requests", 8000);
        int rounds = opt("upstream-rounds", 3);
        HttpResponse<String> registered = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/api/upstream-servers"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"server\":\"demo\",\"name\":\"everything\","
                        + "\"url\":\"${AMCP_UPSTREAM_EVERYTHING}/mcp\",\"prefix\":\"ev_\"}")).build(), HttpResponse.BodyHandlers.ofString());
        if (registered.statusCode() != 201 && registered.statusCode() != 409) { // 409: registered by an earlier run on this gateway
            throw new IllegalStateException("registering server-everything: " + registered.statusCode() + " " + registered.body());
        }
        String echo = toolCall("echo", "{\"message\":\"hi\"}");
        String evEcho = toolCall("ev_echo", "{\"message\":\"hi\"}");
        java.util.function.IntFunction<List<Mcp>> direct = n -> sessions(upstreamBase + "/mcp", null, n);
        java.util.function.IntFunction<List<Mcp>> gateway = n -> sessions(base + "/mcp/demo", key, n);
        long w0 = System.nanoTime();
        measure(direct.apply(clients), warmup, c -> c.post(echo));
        measure(gateway.apply(clients), warmup, c -> c.post(evEcho));
        System.out.printf(Locale.ROOT, "%n## Upstream MCP server: tools/call echo of server-everything straight to it and through the gateway (ev_echo),"
                + " %d concurrent clients (own kept-alive connection and MCP session each), %d rounds in turn, %d calls per row, after a warm-up of %d calls"
                + " each way (%.1f s)%n", clients, rounds, requests, warmup, (System.nanoTime() - w0) / 1e9);
        System.out.println("| request | p50 | p90 | p99 | requests/s | errors |");
        System.out.println("|---|---|---|---|---|---|");
        List<Double> added = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Row d = measure(direct.apply(clients), requests, c -> c.post(echo));
            Row g = measure(gateway.apply(clients), requests, c -> c.post(evEcho));
            d.print("round " + round + ": echo straight to server-everything, socket, " + clients + " clients");
            g.print("round " + round + ": ev_echo through the gateway, socket, " + clients + " clients");
            added.add(g.stats.p50 - d.stats.p50);
        }
        Row d1 = measure(direct.apply(1), requests / 8, c -> c.post(echo));
        Row g1 = measure(gateway.apply(1), requests / 8, c -> c.post(evEcho));
        d1.print("echo straight to server-everything, socket, 1 client");
        g1.print("ev_echo through the gateway, socket, 1 client");
        List<Double> addedSdk = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Stats d = concurrentSdk(() -> new SdkUserClient(upstreamBase, "/mcp", null), "echo", clients, requests);
            Stats g = concurrentSdk(() -> new SdkUserClient(base, key), "ev_echo", clients, requests);
            System.out.printf(Locale.ROOT, "| round %d: echo straight to server-everything, MCP Java SDK, %d clients | %s | %s | %s | | |%n",
                    round, clients, ms(d.p50), ms(d.p90), ms(d.p99));
            System.out.printf(Locale.ROOT, "| round %d: ev_echo through the gateway, MCP Java SDK, %d clients | %s | %s | %s | | |%n",
                    round, clients, ms(g.p50), ms(g.p90), ms(g.p99));
            addedSdk.add(g.p50 - d.p50);
        }
        System.out.printf(Locale.ROOT, "gateway added latency over the upstream MCP server, %d clients: p50 %s (median of rounds %s); target ≤ 2 ms: %s;"
                + " 1 client: p50 %s; MCP Java SDK clients, %d: p50 %s (rounds %s)%n", clients, ms(median(added)),
                added.stream().map(CodeModeBench::ms).toList(), met(median(added) <= 2e6), ms(g1.stats.p50 - d1.stats.p50), clients,
                ms(median(addedSdk)), addedSdk.stream().map(CodeModeBench::ms).toList());
    }

    /** {@code n} socket clients of an MCP endpoint (2025-11-25), each with its session open; {@code bearer} may be null. */
    static List<Mcp> sessions(String endpoint, String bearer, int n) {
        List<Mcp> open = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Mcp m = new Mcp(endpoint, bearer);
                m.initialize();
                open.add(m);
            }
        } catch (Exception e) {
            throw new IllegalStateException("opening MCP sessions at " + endpoint + ": " + e, e);
        }
        return open;
    }

    /** {@code requests} calls of {@code tool} spread over {@code clients} SDK clients, each its own connection, initialized first. */
    static Stats concurrentSdk(java.util.function.Supplier<UserClient> factory, String tool, int clients, int requests) throws Exception {
        List<UserClient> open = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            for (int i = 0; i < clients; i++) {
                open.add(factory.get());
            }
            long[] nanos = new long[requests / clients * clients];
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            for (UserClient client : open) {
                running.add(pool.submit(() -> {
                    for (int i = 0; i < requests / clients; i++) {
                        nanos[next.getAndIncrement()] = client.call(tool, Map.of("message", "hi"));
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            return Stats.of(nanos);
        } finally {
            pool.shutdownNow();
            open.forEach(UserClient::close);
        }
    }

    /** N concurrent code_execute runs; every one must leave a code_runs row with a final status. */
    void load() throws Exception {
        int n = opt("load", 200);
        LoadResult r = fireConcurrentRuns(base, key, n, opt("load-client-timeout", 120), 60_000);
        System.out.printf(Locale.ROOT, "%n## Code mode: load, %d concurrent code_execute runs (one amcp.run each)%n", n);
        System.out.println("| requests | HTTP 200 | client failures | code_runs rows | RUNNING rows | statuses (rows) | results isError | wall | latency p50 | p99 | rows settled after |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| %d | %d | %s | %d | %d | %s | %d | %s | %s | %s | %d ms |%n", n, r.http200, r.clientFailures, r.rows,
                r.statuses.getOrDefault("RUNNING", 0), r.statuses, r.isError, ms(r.wallNanos), ms(r.latency.p50), ms(r.latency.p99), r.settleMillis);
        System.out.printf(Locale.ROOT, "load average right after the load: %s%n", loadAverage());
        if (r.rows != n) {
            failures.add("code_runs rows " + r.rows + " != requests " + n);
        }
        if (r.statuses.containsKey("RUNNING")) {
            failures.add("runs still RUNNING: " + r.statuses.get("RUNNING"));
        }
    }

    /** tools/call of a demo read tool and tools/list over MCP, against the same upstream called directly. */
    // The requests of the warm-up and the MCP section: the demo tool, the list, and the tool's upstream called directly.
    static final String TOOLS_LIST = McpText.request(1, "tools/list", null);

    static final String CUSTOMER_CALL = toolCall("customer_get", "{\"customerId\":7}");

    static final String CUSTOMER_CALL_STATELESS = McpText.request(1, "tools/call",
            "{\"name\":\"customer_get\",\"arguments\":{\"customerId\":7}," + META + "}");

    String directPath() {
        return URI.create(base).getRawPath().replaceAll("/$", "") + "/demo-api/customers/7";
    }

    /**
     * Brings the gateway to its steady state before anything is measured. Until the JIT has compiled the request
     * path, an MCP request costs 2-3x the CPU it costs later, and on two cores that takes about 100,000 requests, so
     * the warm-up runs for a time ({@code warmup-seconds}, default 90) rather than a count. It makes no code runs:
     * the fresh workspace's monthly quota is kept for the measured sections.
     */
    void warmUp() throws Exception {
        int seconds = opt("warmup-seconds", 90);
        int clients = opt("mcp-clients", 8);
        String call = CUSTOMER_CALL;
        String list = TOOLS_LIST;
        String direct = directPath();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int requests = 0;
        while (System.nanoTime() < until) {
            concurrent(clients, 4000, c -> c.post(call), "warm-up call");
            concurrent(clients, 1000, c -> c.post(list), "warm-up list");
            concurrent(clients, 4000, c -> c.get(direct), "warm-up direct");
            requests += 9000;
            if (token != null) {
                concurrent(clients, 2000, c -> c.post(call), "warm-up call with a token", token, PROTOCOL);
                requests += 2000;
            }
            if (only.contains("revisions")) {
                concurrent(clients, 2000, c -> c.post(CUSTOMER_CALL_STATELESS, "tools/call", "customer_get"), "warm-up 2026-07-28", key, STATELESS);
                requests += 2000;
            }
        }
        System.out.printf(Locale.ROOT, "%nWarm-up: %d s, %d MCP and direct requests from %d clients (no code runs)%n", seconds, requests, clients);
    }

    void mcp() throws Exception {
        int clients = opt("mcp-clients", 8);
        int requests = opt("mcp-requests", 20000);
        int rounds = opt("mcp-rounds", 3);
        String call = CUSTOMER_CALL;
        String list = TOOLS_LIST;
        String direct = directPath();
        System.out.printf(Locale.ROOT, "%n## MCP: %d concurrent clients (own keep-alive connection and session each), after the warm-up,"
                + " %d rounds of the direct call and tools/call%s in turn, %d requests per row%n", clients, rounds,
                token == null ? "" : " with the API key and with the OAuth access token", requests);
        if (token != null) {
            System.out.println("OAuth access token from " + opts.get("oauth-token-url") + " (client credentials): " + tokenClaims(token));
        }
        System.out.println("| request | p50 | p90 | p99 | requests/s | errors |");
        System.out.println("|---|---|---|---|---|---|");
        // Rounds in turn, so a drift of the machine (JIT, GC, a neighbour) touches every side alike; the median
        // round is the figure, the others show the spread.
        List<Double> addedP50 = new ArrayList<>();
        List<Double> addedP99 = new ArrayList<>();
        List<Double> tokenP50 = new ArrayList<>();
        List<Double> tokenP99 = new ArrayList<>();
        List<Double> tokenMinusKey = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Row d = concurrent(clients, requests, c -> c.get(direct), "direct");
            Row g = concurrent(clients, requests, c -> c.post(call), "call");
            Row t = token == null ? null : concurrent(clients, requests, c -> c.post(call), "call with a token", token, PROTOCOL);
            d.print("round " + round + ": upstream GET /demo-api/customers/7 directly, " + clients + " clients");
            g.print("round " + round + ": tools/call customer_get through the gateway" + (t == null ? "" : ", API key") + ", " + clients + " clients");
            addedP50.add(g.stats.p50 - d.stats.p50);
            addedP99.add(g.stats.p99 - d.stats.p99);
            if (t != null) {
                t.print("round " + round + ": tools/call customer_get through the gateway, OAuth access token, " + clients + " clients");
                tokenP50.add(t.stats.p50 - d.stats.p50);
                tokenP99.add(t.stats.p99 - d.stats.p99);
                tokenMinusKey.add(t.stats.p50 - g.stats.p50);
            }
        }
        Row l = concurrent(clients, requests, c -> c.post(list), "list");
        Row d1 = concurrent(1, requests / 8, c -> c.get(direct), "direct");
        Row g1 = concurrent(1, requests / 8, c -> c.post(call), "call");
        Row l1 = concurrent(1, requests / 8, c -> c.post(list), "list");
        l.print("tools/list (/mcp/demo), " + clients + " clients");
        d1.print("upstream directly, 1 client");
        g1.print("tools/call customer_get, 1 client");
        l1.print("tools/list, 1 client");
        System.out.printf(Locale.ROOT, "gateway added latency of tools/call over the direct upstream call, %d clients: p50 %s (median of rounds %s),"
                + " p99 %s (median); 1 client: p50 %s%n", clients, ms(median(addedP50)), addedP50.stream().map(CodeModeBench::ms).toList(),
                ms(median(addedP99)), ms(g1.stats.p50 - d1.stats.p50));
        if (token != null) {
            System.out.printf(Locale.ROOT, "%n### API key against OAuth access token (OAuth on), %d clients, the same rounds%n", clients);
            System.out.println("| bearer | added p50, rounds | added p50 (median) | added p99 (median) | target: ≤ 2 ms p50 |");
            System.out.println("|---|---|---|---|---|");
            System.out.printf(Locale.ROOT, "| API key | %s | %s | %s | %s |%n", String.join(", ", addedP50.stream().map(CodeModeBench::ms).toList()),
                    ms(median(addedP50)), ms(median(addedP99)), met(median(addedP50) <= 2e6));
            System.out.printf(Locale.ROOT, "| OAuth access token | %s | %s | %s | %s |%n", String.join(", ", tokenP50.stream().map(CodeModeBench::ms).toList()),
                    ms(median(tokenP50)), ms(median(tokenP99)), met(median(tokenP50) <= 2e6));
            System.out.printf(Locale.ROOT, "token minus key, tools/call p50 of the same round: %s (median of rounds %s)%n", ms(median(tokenMinusKey)),
                    tokenMinusKey.stream().map(CodeModeBench::ms).toList());
        }
    }

    /**
     * Both protocol revisions side by side on the same endpoint: 2025-11-25 (a session opened by {@code initialize},
     * then the bare request) and 2026-07-28 (stateless: no {@code initialize}, revision and client capabilities in every
     * request's {@code _meta}, {@code Mcp-Method} and {@code Mcp-Name} headers). The official Java SDK client (2.1.0)
     * speaks up to 2025-11-25 only, so both revisions go through the same socket client, and the SDK client adds a
     * 2025-11-25 row of its own. Two measurements: the added latency of {@code tools/call customer_get} over the direct
     * upstream call, {@code revisions-rounds} rounds of direct, 2025-11-25, 2026-07-28 and SDK in turn, 8 clients; and
     * {@code code_execute return 1} from one client per kind, paced, the kinds taking turns call by call. The code runs
     * are sized to what the workspace's monthly allowance leaves (the load section's runs kept aside).
     */
    void revisions() throws Exception {
        int clients = opt("mcp-clients", 8);
        int requests = opt("revisions-requests", 10000);
        int rounds = opt("revisions-rounds", 3);
        int gapMs = opt("latency-gap-ms", 100);
        String direct = directPath();
        System.out.printf(Locale.ROOT, "%n## MCP revisions side by side: 2025-11-25 (initialize once, session) and 2026-07-28 (stateless, _meta on every"
                + " request), %d concurrent clients, %d rounds of direct, socket 2025-11-25, socket 2026-07-28 and SDK 2025-11-25 in turn,"
                + " %d requests per row%n", clients, rounds, requests);
        System.out.println("| request | p50 | p90 | p99 | requests/s | errors |");
        System.out.println("|---|---|---|---|---|---|");
        String[] kinds = {"socket 2025-11-25", "socket 2026-07-28", "MCP Java SDK 2.1.0, 2025-11-25"};
        List<List<Double>> added = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<List<Double>> p50 = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<List<Double>> p99 = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Double> statelessMinusSession = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Row d = concurrent(clients, requests, c -> c.get(direct), "direct");
            Row[] rows = {
                concurrent(clients, requests, c -> c.post(CUSTOMER_CALL), "call 2025-11-25"),
                concurrent(clients, requests, c -> c.post(CUSTOMER_CALL_STATELESS, "tools/call", "customer_get"), "call 2026-07-28", key, STATELESS),
                sdkConcurrent(clients, requests)};
            d.print("round " + round + ": upstream GET /demo-api/customers/7 directly, " + clients + " clients");
            for (int k = 0; k < kinds.length; k++) {
                rows[k].print("round " + round + ": tools/call customer_get, " + kinds[k] + ", " + clients + " clients");
                added.get(k).add(rows[k].stats.p50 - d.stats.p50);
                p50.get(k).add(rows[k].stats.p50);
                p99.get(k).add(rows[k].stats.p99);
            }
            statelessMinusSession.add(rows[1].stats.p50 - rows[0].stats.p50);
        }
        System.out.printf(Locale.ROOT, "%n### tools/call customer_get by revision, %d clients (medians of the %d rounds)%n", clients, rounds);
        System.out.println("| client, revision | p50 | p99 | added p50 over the direct call | added p50, rounds |");
        System.out.println("|---|---|---|---|---|");
        for (int k = 0; k < kinds.length; k++) {
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", kinds[k], ms(median(p50.get(k))), ms(median(p99.get(k))),
                    ms(median(added.get(k))), String.join(", ", added.get(k).stream().map(CodeModeBench::ms).toList()));
        }
        System.out.printf(Locale.ROOT, "2026-07-28 minus 2025-11-25 (socket), tools/call p50 of the same round: %s (rounds %s)%n",
                ms(median(statelessMinusSession)), statelessMinusSession.stream().map(CodeModeBench::ms).toList());

        // code_execute return 1: one client per kind, taking turns call by call, paced so the runner's pool has refilled.
        int runs = codeRunsLeft(kinds.length);
        if (runs < 5) {
            System.out.println("code_execute by revision: skipped, the workspace's monthly code runs are used up");
            return;
        }
        String run = toolCall("code_execute", "{\"code\":\"return 1\"}");
        String runStateless = McpText.request(1, "tools/call", "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"return 1\"}," + META + "}");
        Mcp session = new Mcp(base + "/mcp/demo", key);
        session.initialize();
        Mcp stateless = new Mcp(base + "/mcp/demo", key, STATELESS);
        long[][] nanos = new long[kinds.length][runs];
        try (SdkUserClient sdk = new SdkUserClient(base, key)) {
            List<java.util.concurrent.Callable<Long>> calls = List.of(
                () -> expectOk(session.post(run), "code_execute 2025-11-25").nanos,
                () -> expectOk(stateless.post(runStateless, "tools/call", "code_execute"), "code_execute 2026-07-28").nanos,
                () -> sdk.call("code_execute", Map.of("code", "return 1")));
            for (int i = -1; i < runs; i++) { // one warm-up call each
                for (int j = 0; j < kinds.length; j++) {
                    int k = (i + 1 + j) % kinds.length; // the kind that goes first rotates, so no kind always follows the same one
                    long t = calls.get(k).call();
                    if (i >= 0) {
                        nanos[k][i] = t;
                    }
                    Thread.sleep(gapMs);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n### code_execute `return 1` by revision: one client each, keep-alive, %d calls each, the clients taking turns"
                + " (which goes first rotates), one call every %d ms%n", runs, gapMs);
        System.out.println("| client, revision | n | p50 | p90 | p99 | mean |");
        System.out.println("|---|---|---|---|---|---|");
        Stats[] stats = new Stats[kinds.length];
        for (int k = 0; k < kinds.length; k++) {
            stats[k] = Stats.of(nanos[k]);
            System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s |%n", kinds[k], runs, ms(stats[k].p50), ms(stats[k].p90), ms(stats[k].p99),
                    ms(stats[k].mean));
        }
        System.out.printf(Locale.ROOT, "2026-07-28 minus 2025-11-25 (socket), code_execute p50: %s%n", ms(stats[1].p50 - stats[0].p50));
    }

    /**
     * Code runs per kind the revisions section may make: what the workspace's monthly allowance leaves, less the load
     * section's runs when it follows, and at most {@code revisions-runs} (default 100).
     */
    int codeRunsLeft(int kinds) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/api/license/usage"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        Matcher used = Pattern.compile("\"runsThisMonth\":(\\d+)").matcher(r.body());
        Matcher limit = Pattern.compile("\"monthlyCodeRuns\":(\\d+)").matcher(r.body());
        if (r.statusCode() != 200 || !used.find() || !limit.find()) {
            throw new IllegalStateException("GET /api/license/usage: " + r.statusCode() + " " + r.body());
        }
        long left = Long.parseLong(limit.group(1)) - Long.parseLong(used.group(1)) - (only.contains("load") ? opt("load", 200) : 0) - 5;
        return (int) Math.min(opt("revisions-runs", 100), left / kinds - 1);
    }

    /** {@link #concurrent} for the official SDK client: one McpSyncClient per thread, each initialized once and reused. */
    Row sdkConcurrent(int clients, int requests) throws Exception {
        List<SdkUserClient> sdks = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                sdks.add(new SdkUserClient(base, key));
            }
            Map<String, Object> args = Map.of("customerId", 7);
            return measure(sdks, requests, sdk -> {
                long t0 = System.nanoTime();
                try {
                    return new Reply(200, "", 0, sdk.call("customer_get", args), null);
                } catch (RuntimeException e) {
                    return new Reply(500, String.valueOf(e), 0, System.nanoTime() - t0, null);
                }
            });
        } finally {
            sdks.forEach(SdkUserClient::close);
        }
    }

    /**
     * An access token from the OpenID provider's token endpoint (client credentials), as an MCP client gets one; the
     * provider {@code bench/code-mode.sh} starts maps the request to the demo admin and the {@code /mcp/demo} resource.
     */
    static String fetchToken(String tokenUrl) throws Exception {
        String form = "grant_type=client_credentials&client_id=amcp-bench&client_secret=amcp-bench&scope=mcp";
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tokenUrl))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("token endpoint " + tokenUrl + ": " + r.statusCode() + " " + r.body());
        }
        return m.group(1);
    }

    /** The claims the gateway checks, from the token's payload, for the report. */
    static String tokenClaims(String jwt) {
        String payload = new String(java.util.Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
        List<String> claims = new ArrayList<>();
        for (String name : List.of("iss", "aud", "preferred_username", "scope")) {
            Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"[^\"]*\"|\\[[^\\]]*\\])").matcher(payload);
            if (m.find()) {
                claims.add(name + "=" + m.group(1));
            }
        }
        return String.join(", ", claims);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    // ---------------------------------------------------------------------------------------------- load

    public record LoadResult(int http200, int isError, int rows, Map<String, Integer> statuses, long wallNanos, Stats latency,
                             Map<String, Integer> clientFailures, long settleMillis) {}

    /**
     * Fires {@code n} tools/call code_execute at once, each on its own connection, waits for every reply, then
     * counts the code_runs rows started since just before the first request. Shared with {@code CodeModeLoadIT}.
     */
    public static LoadResult fireConcurrentRuns(String base, String key, int n, int clientTimeoutSeconds, int settleLimitMillis) throws Exception {
        ExecutorService threads = Executors.newCachedThreadPool();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads)
                .connectTimeout(Duration.ofSeconds(30)).build();
        try {
            Instant from = Instant.now().minusMillis(5);
            String code = "const c = await amcp.run('customer_get', {customerId: 1 + (input % 200)}); return {id: c.id, tier: c.tier};";
            List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
            long[] latency = new long[n];
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                int index = i;
                String body = McpText.request(i + 1, "tools/call", "{\"name\":\"code_execute\",\"arguments\":{\"code\":" + McpText.quote(code)
                        + ",\"input\":" + i + "}}");
                HttpRequest req = mcpRequest(base + "/mcp/demo", key, null, body).timeout(Duration.ofSeconds(clientTimeoutSeconds)).build();
                long start = System.nanoTime();
                futures.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> latency[index] = System.nanoTime() - start));
            }
            int ok = 0;
            int isError = 0;
            Map<String, Integer> failed = new TreeMap<>();
            for (CompletableFuture<HttpResponse<String>> f : futures) {
                try {
                    HttpResponse<String> r = f.join();
                    if (r.statusCode() != 200) {
                        failed.merge("HTTP " + r.statusCode(), 1, Integer::sum);
                    } else {
                        ok++;
                        if (r.body().contains("\"isError\":true")) {
                            isError++;
                        }
                    }
                } catch (RuntimeException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    failed.merge(cause.getClass().getSimpleName(), 1, Integer::sum);
                }
            }
            long wall = System.nanoTime() - t0;
            // Rows are finished before each reply is sent; requests the client gave up on may still be running, so
            // poll a little (settleMillis says how long it took) before counting.
            HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30)).build();
            long settleStart = System.nanoTime();
            int rows;
            Map<String, Integer> statuses;
            do {
                HttpResponse<String> runs = admin.send(HttpRequest.newBuilder(URI.create(base + "/api/code-runs?limit=500&from=" + from))
                        .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
                if (runs.statusCode() != 200) {
                    throw new IllegalStateException("GET /api/code-runs: " + runs.statusCode() + " " + runs.body());
                }
                statuses = new TreeMap<>();
                Matcher m = Pattern.compile("\"status\":\"([A-Z_]+)\"").matcher(runs.body());
                rows = 0;
                while (m.find()) {
                    rows++;
                    statuses.merge(m.group(1), 1, Integer::sum);
                }
                if ((rows == n && !statuses.containsKey("RUNNING")) || System.nanoTime() - settleStart > settleLimitMillis * 1_000_000L) {
                    break;
                }
                Thread.sleep(1000);
            } while (true);
            long settle = (System.nanoTime() - settleStart) / 1_000_000L;
            return new LoadResult(ok, isError, rows, statuses, wall, Stats.of(latency), failed, settle);
        } finally {
            threads.shutdownNow();
        }
    }

    // ---------------------------------------------------------------------------------------------- concurrency

    interface Op extends ClientOp<Mcp> {
    }

    interface ClientOp<C> {
        Reply apply(C client) throws Exception;
    }

    record Row(Stats stats, double rps, int errors) {
        void print(String label) {
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %.0f | %d |%n", label, ms(stats.p50), ms(stats.p90), ms(stats.p99), rps, errors);
        }
    }

    Row concurrent(int clients, int requests, Op op, String what) throws Exception {
        return concurrent(clients, requests, op, what, key, PROTOCOL);
    }

    /** {@code clients} socket clients with this bearer and revision, each its own connection (and session, in 2025-11-25). */
    Row concurrent(int clients, int requests, Op op, String what, String bearer, String protocol) throws Exception {
        List<Mcp> mcps = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Mcp m = new Mcp(base + "/mcp/demo", bearer, protocol);
            m.initialize();
            mcps.add(m);
        }
        return measure(mcps, requests, op);
    }

    /** Each client on a thread of its own: a tenth of the requests as warm-up, then the measured ones. */
    static <C> Row measure(List<C> clients, int requests, ClientOp<C> op) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients.size());
        try {
            run(pool, clients, Math.max(clients.size(), requests / 10), op); // warm-up
            long t0 = System.nanoTime();
            Object[] res = run(pool, clients, requests, op);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long[] nanos = (long[]) res[0];
            return new Row(Stats.of(nanos), nanos.length / seconds, (Integer) res[1]);
        } finally {
            pool.shutdown();
        }
    }

    static <C> Object[] run(ExecutorService pool, List<C> clients, int requests, ClientOp<C> op) throws Exception {
        int per = requests / clients.size();
        long[] nanos = new long[per * clients.size()];
        AtomicInteger errors = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            int offset = c * per;
            C client = clients.get(c);
            futures.add(pool.submit(() -> {
                for (int i = 0; i < per; i++) {
                    Reply r = op.apply(client);
                    nanos[offset + i] = r.nanos;
                    if (r.status != 200 || r.body.contains("\"isError\":true") || r.body.contains("\"error\":{")) {
                        errors.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        return new Object[] {nanos, errors.get()};
    }

    // ---------------------------------------------------------------------------------------------- MCP client

    record Reply(int status, String body, long bytes, long nanos, String session) {}

    /**
     * A minimal MCP Streamable HTTP client on one keep-alive HTTP/1.1 connection. By default it speaks HTTP over a plain
     * socket ({@link SocketHttp}); {@code --client jdk} uses the JDK {@link HttpClient} instead, whose selector and
     * executor hand-offs cost a few milliseconds per request on two busy cores (an MCP {@code ping} took 2–6 ms with it
     * against 0.6 ms over a socket), which would be counted against the gateway.
     */
    static final class Mcp {
        static boolean useJdk = false;
        final HttpClient http = useJdk ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build() : null;
        final SocketHttp socket;
        final String endpoint;
        final String key;
        final String protocol;
        String session;

        Mcp(String endpoint, String key) {
            this(endpoint, key, PROTOCOL);
        }

        /** {@code key} is the bearer: an API key or an OAuth access token; {@code protocol} the revision every request names. */
        Mcp(String endpoint, String key, String protocol) {
            this.endpoint = endpoint;
            this.key = key;
            this.protocol = protocol;
            this.socket = useJdk ? null : new SocketHttp(URI.create(endpoint));
        }

        /** Opens a session (2025-11-25); a 2026-07-28 client has none to open, each request carries what it needs. */
        void initialize() throws Exception {
            if (STATELESS.equals(protocol)) {
                return;
            }
            Reply r = post(McpText.request(0, "initialize", "{\"protocolVersion\":\"" + protocol
                    + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"amcp-bench\",\"version\":\"1\"}}"));
            if (r.status() != 200) {
                throw new IllegalStateException("initialize: " + r.status() + " " + r.body());
            }
            session = r.session();
            post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        Reply post(String body) throws Exception {
            return post(body, null, null);
        }

        /** A POST; {@code method} and {@code name}, when given, go into 2026-07-28's {@code Mcp-Method} and {@code Mcp-Name} headers. */
        Reply post(String body, String method, String name) throws Exception {
            if (socket != null) {
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put("Content-Type", "application/json");
                headers.put("Accept", "application/json, text/event-stream");
                headers.put("MCP-Protocol-Version", protocol);
                if (key != null) {
                    headers.put("Authorization", "Bearer " + key);
                }
                if (session != null) {
                    headers.put("Mcp-Session-Id", session);
                }
                if (method != null) {
                    headers.put("Mcp-Method", method);
                }
                if (name != null) {
                    headers.put("Mcp-Name", name);
                }
                return socket.exchange("POST", URI.create(endpoint).getRawPath(), headers, body);
            }
            HttpRequest.Builder builder = mcpRequest(endpoint, key, session, body).setHeader("MCP-Protocol-Version", protocol);
            if (method != null) {
                builder.header("Mcp-Method", method);
            }
            if (name != null) {
                builder.header("Mcp-Name", name);
            }
            long t0 = System.nanoTime();
            HttpResponse<byte[]> r = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            long t = System.nanoTime() - t0;
            String text = new String(r.body(), StandardCharsets.UTF_8);
            if (r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
                text = McpText.sseData(text);
            }
            return new Reply(r.statusCode(), text, r.body().length, t, r.headers().firstValue("Mcp-Session-Id").orElse(null));
        }

        /** A plain GET on the same server, for the direct upstream comparison. */
        Reply get(String path) throws Exception {
            if (socket != null) {
                return socket.exchange("GET", path, Map.of("Accept", "application/json"), null);
            }
            URI uri = URI.create(endpoint).resolve(path);
            long t0 = System.nanoTime();
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).header("Accept", "application/json").GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8), r.body().length, System.nanoTime() - t0, null);
        }
    }

    /** HTTP/1.1 on one keep-alive socket (TCP_NODELAY): Content-Length and chunked bodies; reconnects after a close. */
    static final class SocketHttp {
        private final String host;
        private final int port;
        private java.net.Socket socket;
        private java.io.BufferedInputStream in;
        private java.io.OutputStream out;

        SocketHttp(URI uri) {
            this.host = uri.getHost();
            this.port = uri.getPort() > 0 ? uri.getPort() : 80;
        }

        /** Closes the connection; the next exchange opens a new one. */
        void close() throws java.io.IOException {
            if (socket != null) {
                socket.close();
                socket = null;
            }
        }

        Reply exchange(String method, String path, Map<String, String> headers, String body) throws java.io.IOException {
            if (socket == null) {
                socket = new java.net.Socket(host, port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(120_000);
                in = new java.io.BufferedInputStream(socket.getInputStream(), 65536);
                out = socket.getOutputStream();
            }
            byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port).append("\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            if (body != null) {
                head.append("Content-Length: ").append(payload.length).append("\r\n");
            }
            head.append("\r\n");
            byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
            byte[] request = java.util.Arrays.copyOf(headBytes, headBytes.length + payload.length);
            System.arraycopy(payload, 0, request, headBytes.length, payload.length);
            long t0 = System.nanoTime();
            out.write(request);
            out.flush();
            String statusLine = line();
            int status = Integer.parseInt(statusLine.substring(9, 12));
            Map<String, String> response = new java.util.HashMap<>();
            for (String h = line(); !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                response.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
            java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
            if (response.containsKey("content-length")) {
                content.write(in.readNBytes(Integer.parseInt(response.get("content-length"))));
            } else if ("chunked".equalsIgnoreCase(response.get("transfer-encoding"))) {
                for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0; size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                    content.write(in.readNBytes(size));
                    line();
                }
                line();
            } else if (status != 204 && status != 202 && status != 304) {
                content.write(in.readAllBytes());
                response.put("connection", "close");
            }
            long nanos = System.nanoTime() - t0;
            if ("close".equalsIgnoreCase(response.get("connection"))) {
                socket.close();
                socket = null;
            }
            String text = content.toString(StandardCharsets.UTF_8);
            if (response.getOrDefault("content-type", "").startsWith("text/event-stream")) {
                text = McpText.sseData(text);
            }
            return new Reply(status, text, content.size(), nanos, response.get("mcp-session-id"));
        }

        private String line() throws java.io.IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new java.io.EOFException("connection closed mid-response");
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }
    }

    static HttpRequest.Builder mcpRequest(String endpoint, String key, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", PROTOCOL).header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b;
    }

    static String toolCall(String tool, String argsJson) {
        return McpText.request(1, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + argsJson + "}");
    }

    Reply expectOk(Reply r, String what) {
        if (r.status != 200 || r.body.contains("\"isError\":true") || !r.body.contains("\"result\"")) {
            throw new IllegalStateException(what + " failed: HTTP " + r.status + " " + r.body);
        }
        return r;
    }

    // ---------------------------------------------------------------------------------------------- text helpers

    static final class McpText {
        static String request(Object id, String method, String params) {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"" + (params == null ? "" : ",\"params\":" + params) + "}";
        }

        static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }

        /** The JSON of the last {@code data:} event of an SSE body. */
        static String sseData(String sse) {
            String last = "";
            StringBuilder cur = new StringBuilder();
            for (String line : sse.split("\n")) {
                if (line.startsWith("data:")) {
                    cur.append(line.substring(5).strip());
                } else if (line.isBlank() && cur.length() > 0) {
                    last = cur.toString();
                    cur.setLength(0);
                }
            }
            return cur.length() > 0 ? cur.toString() : last;
        }
    }

    // ---------------------------------------------------------------------------------------------- statistics

    public record Stats(double p50, double p90, double p99, double mean, double min, double max) {
        static Stats of(long[] nanos) {
            long[] s = nanos.clone();
            Arrays.sort(s);
            double sum = 0;
            for (long v : s) {
                sum += v;
            }
            return new Stats(pct(s, 50), pct(s, 90), pct(s, 99), sum / s.length, s[0], s[s.length - 1]);
        }

        /** Nearest-rank percentile. */
        static double pct(long[] sorted, double p) {
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }

        static long median(long[] values) {
            long[] c = values.clone();
            Arrays.sort(c);
            return (long) pct(c, 50);
        }
    }

    static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    static String loadAverage() {
        try {
            String[] parts = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (Exception e) {
            return "n/a";
        }
    }
}
