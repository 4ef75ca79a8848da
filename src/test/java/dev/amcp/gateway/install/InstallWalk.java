package dev.amcp.gateway.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import dev.amcp.gateway.it.Operators;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.xml.sax.InputSource;

/**
 * Proves the install guide: a fresh Liberty server (created with {@code bin/server create} in the runtime Maven
 * installed under {@code target/liberty/wlp}) gets exactly the {@code server.xml} snippet of {@code docs/install.md}
 * as a config drop-in, plus its own {@code httpEndpoint} ports and nothing else. The JDBC driver goes to
 * {@code ${shared.resource.dir}/jdbc} and the built WAR to {@code apps/}, as the guide says; the database settings
 * come from the environment. The server must then answer {@code /health/ready} with UP. Then the walk of step 6, from
 * the empty database to an MCP client, runs verbatim (bash, curl, jq) with the first operator that the bootstrap
 * settings of step 4 created, against a small upstream this test serves as {@code AMCP_UPSTREAM_SHOP}.
 *
 * <p>{@link InstallSnippetIT} uses PostgreSQL when {@code DB_URL} is set and a fresh H2 file otherwise;
 * {@link InstallSnippetH2IT} always H2. The server is stopped afterwards whatever happens (and killed by its pid if {@code server stop} fails).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InstallWalk {

    static final Path INSTALL_DOC = Path.of("docs", "install.md");
    static final String BEGIN = "<!-- install-snippet:begin -->";
    static final String END = "<!-- install-snippet:end -->";
    static final String WALK_BEGIN = "<!-- install-walk:begin -->";
    static final String WALK_END = "<!-- install-walk:end -->";

    static final Path WLP = Path.of(System.getProperty("it.install.wlp.dir", "target/liberty/wlp")).toAbsolutePath();
    static final String BASE_SERVER = System.getProperty("it.install.server.name", "amcp-install");
    static final int BASE_HTTP_PORT = Integer.getInteger("it.install.http.port", 9680);
    static final int BASE_HTTPS_PORT = Integer.getInteger("it.install.https.port", 10043);
    static final Path WAR = Path.of("target", "amcp-gateway.war").toAbsolutePath();
    static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("it.install.start.timeout.s", 240));

    static final Path SHARED_JDBC = WLP.resolve("usr/shared/resources/jdbc");

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final String serverName;
    final int httpPort;
    final int httpsPort;
    final Path serverDir;
    /** The database of this install: {@code DB_URL}'s (PostgreSQL in CI), or a fresh H2 file. */
    final boolean embeddedH2;
    final List<String> transcript = new ArrayList<>();
    boolean started;
    HttpServer upstream;

    /**
     * @param serverSuffix appended to the server name, so that two installs never share a server directory
     * @param portOffset   added to the configured ports
     * @param embeddedH2   a fresh H2 file whatever {@code DB_URL} says
     */
    InstallWalk(String serverSuffix, int portOffset, boolean embeddedH2) {
        this.serverName = BASE_SERVER + serverSuffix;
        this.httpPort = BASE_HTTP_PORT + portOffset;
        this.httpsPort = BASE_HTTPS_PORT + portOffset;
        this.serverDir = WLP.resolve("usr/servers").resolve(serverName);
        this.embeddedH2 = embeddedH2;
    }

    /** The XML between the snippet markers of docs/install.md, without the Markdown fence. */
    static String snippet() throws IOException {
        return block(BEGIN, END, "xml");
    }

    /** The one fenced block of a language between two markers of docs/install.md, without the fence. */
    static String block(String beginMarker, String endMarker, String language) throws IOException {
        String doc = Files.readString(INSTALL_DOC);
        int begin = doc.indexOf(beginMarker);
        int end = doc.indexOf(endMarker);
        assertTrue(begin >= 0 && end > begin, INSTALL_DOC + " must hold exactly one block between " + beginMarker + " and " + endMarker);
        assertEquals(begin, doc.lastIndexOf(beginMarker), "only one block after " + beginMarker);
        String block = doc.substring(begin + beginMarker.length(), end).strip();
        String fence = "```" + language + "\n";
        assertTrue(block.startsWith(fence) && block.endsWith("```"), "the block is one " + fence.strip() + " fenced block");
        return block.substring(fence.length(), block.length() - 3);
    }

    @BeforeAll
    void installAndStart() throws Exception {
        String configured = System.getenv("DB_URL");
        Assumptions.assumeTrue(!embeddedH2 || (configured != null && !configured.isBlank()),
                "DB_URL is unset: InstallSnippetIT installs on H2 already");
        assertTrue(Files.isExecutable(WLP.resolve("bin/server")),
                "No Liberty runtime at " + WLP + ": run through `mvn verify` (the it profile creates it)");
        assertTrue(Files.isRegularFile(WAR), "No WAR at " + WAR + ": run through `mvn verify`");
        String snippet = snippet();
        // The upstream that step 6's tool calls (AMCP_UPSTREAM_SHOP): GET /customers/{id}.
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/customers/", exchange -> {
            String id = exchange.getRequestURI().getPath().substring("/customers/".length());
            byte[] body = ("{\"id\": " + id + ", \"name\": \"Customer " + id + " from the install walk\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(snippet)));

        // A fresh server: stop a leftover of an aborted run, delete it, create it anew.
        if (Files.exists(serverDir)) {
            server(Duration.ofSeconds(90), "stop", serverName);
            deleteTree(serverDir);
        }
        expectOk(server(Duration.ofSeconds(120), "create", serverName), "server create");

        // The existing server's own part: only its HTTP endpoint, on ports of its own.
        Files.writeString(serverDir.resolve("server.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <server description="an existing server">
                    <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="%d"/>
                </server>
                """.formatted(httpPort, httpsPort));
        Files.writeString(serverDir.resolve("jvm.options"), "-Xmx512m\n");
        // The gateway's part: the documented snippet, verbatim.
        Path overrides = Files.createDirectories(serverDir.resolve("configDropins/overrides"));
        Files.writeString(overrides.resolve("amcp.xml"), snippet);
        Files.copy(WAR, Files.createDirectories(serverDir.resolve("apps")).resolve("amcp-gateway.war"),
                StandardCopyOption.REPLACE_EXISTING);

        // The driver in the shared resources, as the guide says.
        boolean postgres = dbUrl() != null && dbUrl().startsWith("jdbc:postgresql:");
        Path driver = jarOf(postgres ? "org.postgresql.Driver" : "org.h2.Driver");
        if (Files.exists(SHARED_JDBC)) {
            deleteTree(SHARED_JDBC);
        }
        Files.copy(driver, Files.createDirectories(SHARED_JDBC).resolve(driver.getFileName()));

        started = true; // from here on, always try to stop
        Process start = server(START_TIMEOUT, "start", serverName);
        expectOk(start, "server start");
    }

    @AfterAll
    void stop() throws Exception {
        if (upstream != null) {
            upstream.stop(0);
        }
        if (!started) {
            return;
        }
        Process stop = server(Duration.ofSeconds(90), "stop", serverName);
        if (stop.isAlive() || stop.exitValue() != 0) {
            Path pidFile = WLP.resolve("usr/servers/.pid/" + serverName + ".pid");
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                System.err.println("[install-it] server stop failed; killed pid " + pid);
            }
        }
    }

    @Test
    void documentedSnippetServesReadiness() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = get("/health/ready", Map.of());
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() == 200) {
                    JsonObject health = Json.createReader(new StringReader(response.body())).readObject();
                    assertEquals("UP", health.getString("status"), failure(last));
                    JsonObject database = health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                            .filter(c -> c.getString("name").equals("database")).findFirst()
                            .orElseGet(() -> fail(failure("no database check: " + response.body())));
                    assertTrue(database.getJsonObject("data").getBoolean("migrated"), failure(last));
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(1000);
        }
        fail(failure("/health/ready did not answer UP within " + START_TIMEOUT.toSeconds() + " s; last: " + last));
    }

    @Test
    void requestIdReachesTheJsonLogLines() throws Exception {
        awaitApplication();
        String id = "install-it-" + UUID.randomUUID();
        HttpResponse<String> response = get("/api/tools", Map.of("X-Request-Id", id));
        assertEquals(401, response.statusCode(), "no key, no tools: " + response.body());
        assertEquals(id, response.headers().firstValue("X-Request-Id").orElse(null), "the id is answered");

        // WLP_LOGGING_MESSAGE_FORMAT=JSON (set in installAndStart's environment) makes messages.log JSON.
        Path log = serverDir.resolve("logs/messages.log");
        String needle = "\"ext_requestId\":\"" + id + "\"";
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
                List<String> hits = lines.filter(l -> l.contains(needle)).toList();
                if (!hits.isEmpty()) {
                    JsonObject line = Json.createReader(new StringReader(hits.get(0))).readObject();
                    assertTrue(line.getString("message").startsWith("request " + id + " GET /api/tools -> 401"), hits.get(0));
                    return;
                }
            }
            Thread.sleep(500);
        }
        fail(failure("no JSON log line with " + needle));
    }

    /** The web container reports no error for the WAR: its libraries are not scanned for servlet annotations. */
    @Test
    void theWebContainerStartsTheWarWithoutAnError() throws Exception {
        awaitApplication();
        Pattern webContainerError = Pattern.compile("SRVE\\d{4}E");
        try (Stream<String> lines = Files.lines(serverDir.resolve("logs/messages.log"), StandardCharsets.UTF_8)) {
            List<String> errors = lines.filter(l -> webContainerError.matcher(l).find()).toList();
            assertTrue(errors.isEmpty(), "web container errors at start: " + errors);
        }
    }

    @Test
    void aProductionStartServesNeitherTheDemoApiNorAnonymousMetrics() throws Exception {
        awaitApplication();
        HttpResponse<String> demo = get("/demo-api/customers/7", Map.of());
        assertEquals(404, demo.statusCode(), "the demo API exists only with AMCP_DEMO=true: " + demo.body());
        HttpResponse<String> metrics = get("/metrics", Map.of());
        assertTrue(metrics.statusCode() == 302 || metrics.statusCode() == 401 || metrics.statusCode() == 403,
                "/metrics needs an authenticated reader: " + metrics.statusCode() + " " + metrics.body());
        assertTrue(!metrics.body().contains("amcp_"), "no metric is shown");
    }

    @Test
    void theDocumentedWalkTakesTheEmptyInstallToAWorkingMcpClient() throws Exception {
        awaitApplication();
        ProcessBuilder bash = new ProcessBuilder("bash", "-euo", "pipefail", "-c", block(WALK_BEGIN, WALK_END, "sh"))
                .redirectErrorStream(true);
        bash.environment().put("AMCP", "http://127.0.0.1:" + httpPort);
        bash.environment().put("OPERATOR_KEY", Operators.API_KEY); // AMCP_BOOTSTRAP_OPERATOR_API_KEY of the server
        Path output = Files.createTempFile("install-it-walk-", ".out");
        bash.redirectOutput(output.toFile());
        Process walk = bash.start();
        boolean finished = walk.waitFor(2, TimeUnit.MINUTES);
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Files.deleteIfExists(output);
        if (!finished) {
            walk.destroyForcibly();
        }
        assertTrue(finished && walk.exitValue() == 0, failure("the walk of step 6 failed:\n" + text));
        assertTrue(text.contains("Customer 7 from the install walk") && text.contains("\"isError\":false"),
                failure("the MCP client got the tool's answer:\n" + text));
    }

    // --- helpers ---

    void awaitApplication() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (get("/health/ready", Map.of()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(1000);
        }
        fail(failure("the application never became ready"));
    }

    HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(10)).GET();
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    String dbUrl() {
        String url = embeddedH2 ? null : System.getenv("DB_URL");
        return url == null || url.isBlank() ? null : url;
    }

    /** Runs {@code bin/server <args>} with the documented environment; kills it at the timeout. */
    Process server(Duration timeout, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(WLP.resolve("bin/server").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        for (String inherited : List.of("WLP_USER_DIR", "WLP_OUTPUT_DIR", "SERVER_NAME", "CODE_RUNNER_URL", "CODE_RUNNER_TOKEN")) {
            env.remove(inherited);
        }
        env.put("JAVA_HOME", System.getProperty("java.home"));
        if (dbUrl() != null) {
            env.put("DB_URL", dbUrl());
            env.put("DB_USER", System.getenv().getOrDefault("DB_USER", "postgres"));
            env.put("DB_PASSWORD", System.getenv().getOrDefault("DB_PASSWORD", ""));
        } else {
            Path h2 = Path.of("target", "install-it-db").toAbsolutePath();
            env.put("DB_URL", "jdbc:h2:file:" + h2.resolve("amcp-" + UUID.randomUUID().toString().substring(0, 8))
                    + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH");
            env.put("DB_USER", "amcp");
            env.put("DB_PASSWORD", "amcp");
        }
        env.put("WLP_LOGGING_MESSAGE_FORMAT", "JSON");
        // Step 4's first operator. Its name and key are the integration tests' own, so on a database those tests
        // share (PostgreSQL in CI) whichever starts first creates it and the other finds the same operator.
        env.put("AMCP_BOOTSTRAP_OPERATOR", Operators.USERNAME);
        env.put("AMCP_BOOTSTRAP_OPERATOR_PASSWORD", Operators.PASSWORD);
        env.put("AMCP_BOOTSTRAP_OPERATOR_API_KEY", Operators.API_KEY);
        if (upstream != null) {
            env.put("AMCP_UPSTREAM_SHOP", "http://127.0.0.1:" + upstream.getAddress().getPort());
        }
        // Output to a file, never a pipe: a background JVM holding the pipe open must not hang the test.
        Path output = Files.createTempFile("install-it-server-", ".out");
        builder.redirectOutput(output.toFile());
        Process process = builder.start();
        boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Files.deleteIfExists(output);
        if (!finished) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            transcript.add("$ server " + String.join(" ", args) + " (killed after " + timeout.toSeconds() + " s)\n" + text);
        } else {
            transcript.add("$ server " + String.join(" ", args) + " -> " + process.exitValue() + "\n" + text.strip());
        }
        return process;
    }

    void expectOk(Process process, String what) {
        if (process.isAlive() || process.exitValue() != 0) {
            fail(failure(what + " failed"));
        }
    }

    /** A failure message with the server commands' output and the tails of the server's logs. */
    String failure(String message) {
        StringBuilder out = new StringBuilder(message).append("\n--- server commands ---\n");
        transcript.forEach(t -> out.append(t).append('\n'));
        for (String name : List.of("logs/messages.log", "logs/console.log")) {
            Path log = serverDir.resolve(name);
            out.append("--- ").append(log).append(" (tail) ---\n");
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> out.append(l).append('\n'));
            } catch (IOException e) {
                out.append("(unreadable: ").append(e.getMessage()).append(")\n");
            }
        }
        return out.toString();
    }

    static Path jarOf(String className) throws Exception {
        Path jar = Path.of(Class.forName(className).getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(jar) && jar.toString().endsWith(".jar"), className + " should come from a jar: " + jar);
        return jar;
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
