package dev.amcp.gateway.bench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One gateway node against two, through the same HAProxy, in one run (run by {@code bench/cluster-bench.sh}, as a
 * single source file on the test classpath). The official MCP Java SDK client, one per simulated user, connections kept,
 * calls back to back for a fixed time: {@code tools/call} of the demo's {@code customer_get}, then {@code code_execute}
 * of a run that calls it. The rounds alternate the 1-node path ({@code --one}: HAProxy to node a alone) and the 2-node
 * path ({@code --two}: HAProxy round-robin over both), so both see the same machine; the table gives the median of the
 * rounds, the ratio, and the cores each part used (from {@code /proc}), which says where 2 cores bound it.
 *
 * <p>{@code --one URL --two URL --key KEY [--clients 8] [--seconds 20] [--rounds 3] [--warmup-seconds 60]
 * [--pids name=pid,...]}: each named process is one part; one that leads its process group counts with the group (a
 * runner with its sandboxes).
 */
public class ClusterBench {

    record Phase(String path, String kind, double callsPerSecond, double medianMillis, double p95Millis, int failures,
                 Map<String, Double> cores) {}

    final Map<String, String> opts;
    final String key;
    final Map<String, Integer> groups = new LinkedHashMap<>();

    ClusterBench(Map<String, String> opts) {
        this.opts = opts;
        this.key = opts.get("key");
        for (String pair : opts.getOrDefault("pids", "").split(",")) {
            if (pair.contains("=")) {
                groups.put(pair.substring(0, pair.indexOf('=')), Integer.parseInt(pair.substring(pair.indexOf('=') + 1)));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (!opts.containsKey("one") || !opts.containsKey("two") || !opts.containsKey("key")) {
            System.err.println("usage: ClusterBench --one URL --two URL --key API_KEY [--clients 8] [--seconds 20] [--rounds 3] "
                    + "[--warmup-seconds 60] [--pids name=pid,...]");
            System.exit(2);
        }
        new ClusterBench(opts).run();
    }

    int opt(String name, int fallback) {
        return Integer.parseInt(opts.getOrDefault(name, String.valueOf(fallback)));
    }

    void run() throws Exception {
        int clients = opt("clients", 8);
        int seconds = opt("seconds", 20);
        int rounds = opt("rounds", 3);
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("1 node", opts.get("one"));
        paths.put("2 nodes", opts.get("two"));
        System.out.printf(Locale.ROOT, "# Cluster benchmark, %s, %d cores, %d SDK clients, %d s per phase, %d rounds%n",
                Instant.now(), Runtime.getRuntime().availableProcessors(), clients, seconds, rounds);
        for (var path : paths.entrySet()) { // warm both paths' JVMs, runners and connections first
            for (String kind : List.of("tools/call", "code_execute")) {
                phase(path.getKey(), path.getValue(), kind, clients, opt("warmup-seconds", 60) / 2);
            }
        }
        List<Phase> measured = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (var path : paths.entrySet()) {
                for (String kind : List.of("tools/call", "code_execute")) {
                    Phase phase = phase(path.getKey(), path.getValue(), kind, clients, seconds);
                    System.out.printf(Locale.ROOT, "round %d, %-7s %-12s %8.1f calls/s, median %6.1f ms, p95 %6.1f ms, %d failed, cores %s%n",
                            round, phase.path(), phase.kind(), phase.callsPerSecond(), phase.medianMillis(), phase.p95Millis(),
                            phase.failures(), format(phase.cores()));
                    measured.add(phase);
                }
            }
        }
        table(measured, paths.keySet());
        if (measured.stream().anyMatch(p -> p.failures() > 0)) {
            System.out.println("FAILED: some calls failed (see the rounds above)");
            System.exit(1);
        }
    }

    /** {@code clients} SDK clients calling {@code kind} back to back for {@code seconds}; the cores each part used meanwhile. */
    Phase phase(String label, String base, String kind, int clients, int seconds) throws Exception {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<McpSyncClient> sdk = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            McpSyncClient client = client(base);
            client.initialize();
            sdk.add(client);
        }
        Map<String, Double> cpuBefore = cpuSeconds();
        long start = System.nanoTime();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            McpSyncClient client = sdk.get(c);
            int customer = c + 1;
            running.add(pool.submit(() -> {
                while (!stop.get()) {
                    long t = System.nanoTime();
                    try {
                        McpSchema.CallToolResult result = client.callTool(request(kind, customer));
                        if (Boolean.TRUE.equals(result.isError())) {
                            failures.add(kind + ": " + result.content());
                        } else {
                            latencies.add(System.nanoTime() - t);
                        }
                    } catch (RuntimeException e) {
                        failures.add(kind + ": " + e);
                    }
                }
            }));
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Future<?> f : running) {
            f.get();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        Map<String, Double> cpuAfter = cpuSeconds();
        pool.shutdown();
        sdk.forEach(McpSyncClient::close);
        Map<String, Double> cores = new LinkedHashMap<>();
        cpuAfter.forEach((part, secondsUsed) -> cores.put(part, (secondsUsed - cpuBefore.getOrDefault(part, 0.0)) / elapsed));
        // The rest of the machine: mostly the sandboxes, which run in process groups of their own (R13), and the kernel.
        double parts = cores.entrySet().stream().filter(e -> !e.getKey().equals("machine")).mapToDouble(Map.Entry::getValue).sum();
        cores.put("rest (sandboxes)", Math.max(0, cores.get("machine") - parts));
        failures.stream().limit(3).forEach(f -> System.err.println("failure (" + label + "): " + f));
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Phase(label, kind, sorted.length / elapsed, percentile(sorted, 50), percentile(sorted, 95), failures.size(), cores);
    }

    McpSchema.CallToolRequest request(String kind, int customer) {
        return "tools/call".equals(kind)
                ? new McpSchema.CallToolRequest("customer_get", Map.of("customerId", customer))
                : new McpSchema.CallToolRequest("code_execute", Map.of("code",
                        "const c = await amcp.run('customer_get', {customerId: " + customer + "}); return {id: c.id};"));
    }

    McpSyncClient client(String base) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp/demo")
                .httpRequestCustomizer((builder, method, uri, body, context) -> builder.setHeader("Authorization", "Bearer " + key))
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(30)).build();
    }

    static double percentile(long[] sortedNanos, int percent) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int index = Math.min(sortedNanos.length - 1, (int) Math.ceil(percent / 100.0 * sortedNanos.length) - 1);
        return sortedNanos[Math.max(0, index)] / 1e6;
    }

    /** CPU seconds so far: the whole machine's busy time, each named process group's, and this client's own. */
    Map<String, Double> cpuSeconds() throws IOException {
        Map<String, Double> used = new LinkedHashMap<>();
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long busy = 0;
        for (int i = 1; i < cpu.length; i++) {
            if (i != 4 && i != 5) { // all but idle and iowait
                busy += Long.parseLong(cpu[i]);
            }
        }
        used.put("machine", busy / 100.0);
        Map<Integer, Double> perGroup = new LinkedHashMap<>();
        Map<Integer, Double> perProcess = new LinkedHashMap<>();
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String name = proc.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String stat = Files.readString(proc.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    int group = Integer.parseInt(f[2]); // pgrp
                    double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime
                    perGroup.merge(group, seconds, Double::sum);
                    perProcess.put(Integer.parseInt(name), seconds);
                    if (Integer.parseInt(name) == ProcessHandle.current().pid()) {
                        used.put("bench client", seconds);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we read it
                }
            }
        }
        // A process that leads its group (a runner with its sandboxes, started with setsid) counts with the group.
        groups.forEach((part, pid) -> used.put(part, groupOf(pid) == pid ? perGroup.getOrDefault(pid, 0.0) : perProcess.getOrDefault(pid, 0.0)));
        return used;
    }

    static int groupOf(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static String format(Map<String, Double> cores) {
        StringBuilder b = new StringBuilder();
        cores.forEach((part, value) -> b.append(b.length() == 0 ? "" : ", ").append(part).append(' ')
                .append(String.format(Locale.ROOT, "%.2f", value)));
        return b.toString();
    }

    /** The median of the rounds per path and kind, and the 2-node to 1-node ratio of throughput. */
    static void table(List<Phase> phases, java.util.Set<String> paths) {
        System.out.println();
        System.out.println("| call | path | calls/s | median ms | p95 ms | cores used (median of rounds) |");
        System.out.println("|---|---|---:|---:|---:|---|");
        Map<String, Double> throughput = new LinkedHashMap<>();
        for (String kind : List.of("tools/call", "code_execute")) {
            for (String path : paths) {
                List<Phase> of = phases.stream().filter(p -> p.kind().equals(kind) && p.path().equals(path)).toList();
                double calls = median(of.stream().mapToDouble(Phase::callsPerSecond).toArray());
                throughput.put(kind + "|" + path, calls);
                Map<String, Double> cores = new LinkedHashMap<>();
                of.get(0).cores().keySet().forEach(part -> cores.put(part, median(of.stream()
                        .mapToDouble(p -> p.cores().getOrDefault(part, 0.0)).toArray())));
                System.out.printf(Locale.ROOT, "| `%s` | %s | %.1f | %.1f | %.1f | %s |%n", kind, path, calls,
                        median(of.stream().mapToDouble(Phase::medianMillis).toArray()),
                        median(of.stream().mapToDouble(Phase::p95Millis).toArray()), format(cores));
            }
        }
        System.out.println();
        for (String kind : List.of("tools/call", "code_execute")) {
            System.out.printf(Locale.ROOT, "%s: 2 nodes / 1 node = %.2f%n", kind,
                    throughput.get(kind + "|2 nodes") / throughput.get(kind + "|1 node"));
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
