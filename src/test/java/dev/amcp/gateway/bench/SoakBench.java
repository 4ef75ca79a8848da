package dev.amcp.gateway.bench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak (bench/soak.sh): mixed load on one gateway for a number of minutes, with the official MCP Java SDK
 * client, connections kept. Each client calls {@code customer_get}, a {@code code_execute} that calls it,
 * {@code tools/list} and the REST API's recent runs, and every tenth round a tool that does not exist and code that
 * throws (answers that must be errors). Every minute it samples the gateway's JVM: heap in use after a full GC
 * ({@code jcmd GC.run}, then {@code GC.heap_info}), live threads and open files ({@code /proc}), and the database's
 * connections ({@code pg_stat_activity}). It writes the samples as CSV and prints them with a verdict per series:
 * the last third's median against the first third's.
 *
 * <p>Arguments: {@code --base URL --key KEY --pid PID --db JDBC-URL --minutes N --clients N --csv FILE}.
 */
public final class SoakBench {

    record Sample(int minute, double heapMb, int threads, int openFiles, int dbConnections, long ok, long unexpected) {}

    private final String base;
    private final String key;
    private final long pid;
    private final String db;
    private final Map<String, LongAdder> ok = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> unexpected = new ConcurrentHashMap<>();
    private final List<String> firstUnexpected = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stop = new AtomicBoolean();
    private final HttpClient http = HttpClient.newHttpClient();

    SoakBench(String base, String key, long pid, String db) {
        this.base = base;
        this.key = key;
        this.pid = pid;
        this.db = db;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int minutes = Integer.parseInt(options.getOrDefault("minutes", "30"));
        int clients = Integer.parseInt(options.getOrDefault("clients", "8"));
        SoakBench soak = new SoakBench(options.get("base"), options.get("key"), Long.parseLong(options.get("pid")), options.get("db"));
        List<Sample> samples = soak.run(minutes, clients);
        Path csv = Path.of(options.getOrDefault("csv", "target/bench/soak.csv"));
        Files.createDirectories(csv.toAbsolutePath().getParent());
        StringBuilder text = new StringBuilder("minute,heap_mb,threads,open_files,db_connections,calls_ok,calls_unexpected\n");
        for (Sample s : samples) {
            text.append(String.format(java.util.Locale.ROOT, "%d,%.1f,%d,%d,%d,%d,%d%n", s.minute(), s.heapMb(), s.threads(), s.openFiles(),
                    s.dbConnections(), s.ok(), s.unexpected()));
        }
        Files.writeString(csv, text);
        soak.report(samples, minutes, clients);
        System.exit(soak.total(soak.unexpected) == 0 ? 0 : 1);
    }

    List<Sample> run(int minutes, int clients) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Sample> samples = new ArrayList<>();
        samples.add(sample(0));
        for (int c = 1; c <= clients; c++) {
            int customer = c;
            pool.submit(() -> client(customer));
        }
        long start = System.nanoTime();
        for (int minute = 1; minute <= minutes; minute++) {
            long due = start + TimeUnit.MINUTES.toNanos(minute);
            Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
            Sample s = sample(minute);
            samples.add(s);
            System.err.printf("[soak] minute %d: heap %.1f MB after GC, %d threads, %d open files, %d database connections, %d calls, %d unexpected%n",
                    minute, s.heapMb(), s.threads(), s.openFiles(), s.dbConnections(), s.ok(), s.unexpected());
        }
        stop.set(true);
        pool.shutdown();
        pool.awaitTermination(2, TimeUnit.MINUTES);
        return samples;
    }

    /** One client: the same connection all along; a new one only if the old one failed. */
    private void client(int customer) {
        String code = "const c = await amcp.run('customer_get', {customerId: " + customer + "}); return {id: c.id};";
        int round = 0;
        while (!stop.get()) {
            try (McpSyncClient client = sdkClient()) {
                client.initialize();
                while (!stop.get()) {
                    round++;
                    expect("customer_get", false, client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", customer))));
                    expect("code_execute", false, client.callTool(new McpSchema.CallToolRequest("code_execute", Map.of("code", code))));
                    count("tools/list", client.listTools().tools().isEmpty() ? "no tools listed" : null);
                    count("GET /api/code-runs", restRecentRuns());
                    if (round % 10 == 0) {
                        expect("code that throws", true, client.callTool(new McpSchema.CallToolRequest("code_execute",
                                Map.of("code", "throw new Error('soak: on purpose');"))));
                        try {
                            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("no_such_tool_" + customer, Map.of()));
                            count("unknown tool", Boolean.TRUE.equals(r.isError()) ? null : "an unknown tool answered " + r);
                        } catch (RuntimeException refused) {
                            count("unknown tool", null); // a JSON-RPC error: the expected answer
                        }
                    }
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                count("connection", String.valueOf(e));
            }
        }
    }

    private McpSyncClient sdkClient() {
        var transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp/demo")
                .httpRequestCustomizer((builder, method, uri, body, context) -> builder.setHeader("Authorization", "Bearer " + key)).build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
    }

    private String restRecentRuns() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/code-runs?limit=5"))
                    .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? null : "HTTP " + r.statusCode() + " " + r.body();
        } catch (IOException e) {
            return String.valueOf(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void expect(String what, boolean error, McpSchema.CallToolResult result) {
        count(what, Boolean.TRUE.equals(result.isError()) == error ? null : (error ? "no error: " : "error: ") + result.content());
    }

    private void count(String what, String failure) {
        (failure == null ? ok : unexpected).computeIfAbsent(what, k -> new LongAdder()).increment();
        if (failure != null && firstUnexpected.size() < 10) {
            firstUnexpected.add(what + ": " + failure);
        }
    }

    private long total(Map<String, LongAdder> counts) {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private Sample sample(int minute) throws Exception {
        jcmd("GC.run");
        return new Sample(minute, heapUsedMbAfterGc(), threads(), openFiles(), dbConnections(), total(ok), total(unexpected));
    }

    /** {@code GC.heap_info} of G1 or Serial: the heap's "used" total, in MB. */
    private double heapUsedMbAfterGc() throws Exception {
        Matcher m = Pattern.compile("(?i)(?:heap|total)[^\\n]*?used (\\d+)K").matcher(jcmd("GC.heap_info"));
        long kb = 0;
        if (m.find()) {
            kb = Long.parseLong(m.group(1));
        }
        return kb / 1024.0;
    }

    private String jcmd(String command) throws Exception {
        Process p = new ProcessBuilder("jcmd", String.valueOf(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private int threads() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring(8).trim());
            }
        }
        return -1;
    }

    private int openFiles() throws IOException {
        try (var fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return (int) fds.count();
        }
    }

    private int dbConnections() throws Exception {
        String name = db.replaceFirst("^.*/", "").replaceFirst("\\?.*$", "");
        try (Connection c = DriverManager.getConnection(db.replaceFirst("/[^/?]+(\\?|$)", "/postgres$1"), "postgres", "postgres");
             var st = c.prepareStatement("select count(*) from pg_stat_activity where datname = ?")) {
            st.setString(1, name);
            try (ResultSet rows = st.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private void report(List<Sample> samples, int minutes, int clients) {
        System.out.printf("# bench/soak.sh: %d minutes, %d SDK clients, %d calls answered as expected, %d not%n", minutes, clients,
                total(ok), total(unexpected));
        System.out.println("| minute | heap after GC (MB) | threads | open files | DB connections | calls |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        for (Sample s : samples) {
            System.out.printf(java.util.Locale.ROOT, "| %d | %.1f | %d | %d | %d | %d |%n", s.minute(), s.heapMb(), s.threads(), s.openFiles(), s.dbConnections(), s.ok());
        }
        System.out.println();
        System.out.println("| series | first third (median) | last third (median) | verdict |");
        System.out.println("|---|---:|---:|---|");
        verdict("heap after GC (MB)", samples, Sample::heapMb, 0.10, 0);
        verdict("threads", samples, s -> s.threads(), 0.10, 5);
        verdict("open files", samples, s -> s.openFiles(), 0.10, 5);
        verdict("DB connections", samples, s -> s.dbConnections(), 0.10, 5);
        System.out.println();
        System.out.println("calls per kind: " + new java.util.TreeMap<>(ok) + "; unexpected: " + new java.util.TreeMap<>(unexpected));
        firstUnexpected.forEach(f -> System.out.println("unexpected: " + f));
    }

    /** Flat when the last third's median is within {@code share} (or {@code absolute}) of the first third's (minute 0 left out: before the load). */
    private static void verdict(String name, List<Sample> samples, java.util.function.ToDoubleFunction<Sample> value, double share, double absolute) {
        List<Sample> loaded = samples.subList(1, samples.size());
        int third = Math.max(1, loaded.size() / 3);
        double first = median(loaded.subList(0, third), value);
        double last = median(loaded.subList(loaded.size() - third, loaded.size()), value);
        boolean flat = last <= first * (1 + share) || last - first <= absolute;
        System.out.printf(java.util.Locale.ROOT, "| %s | %.1f | %.1f | %s |%n", name, first, last, flat ? "flat" : "GROWS");
    }

    private static double median(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> value) {
        double[] v = samples.stream().mapToDouble(value).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
