package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.amcp.gateway.mcp.control.ClientWatches;
import dev.amcp.gateway.mcp.control.ToolListSubscriptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the official MCP conformance suite ({@code @modelcontextprotocol/conformance}, Node 22 through npx) against
 * {@code /mcp/conf} of the test server, with the scenarios that apply to a tools-only gateway (see
 * docs/conformance.md). The suite cannot send an API key, so a loopback proxy in this JVM ({@link BearerProxy}) adds
 * it and changes nothing else: the gateway sees the suite's own HTTP/1.1 requests and the suite the gateway's own
 * answers, as in a direct run. Skipped, with a message, only when npx is not installed.
 */
@ExtendWith(ArquillianExtension.class)
class McpConformanceIT {

    static final String PACKAGE = "@modelcontextprotocol/conformance@0.1.16";
    static final List<String> SCENARIOS = List.of("server-initialize", "ping", "tools-list", "tools-call-simple-text",
            "tools-call-error", "tools-call-with-progress", "json-schema-2020-12", "dns-rebinding-protection",
            "server-sse-multiple-streams");
    /** The suite for protocol revision 2026-07-28, run with {@code --spec-version 2026-07-28}. */
    static final String PACKAGE_2026 = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
    /** Every 2026-07-28 server scenario of the suite that applies to a tools-only server (docs/conformance.md says why not the rest). */
    static final List<String> SCENARIOS_2026 = List.of("tools-list", "caching", "http-header-validation",
            "http-custom-header-server-validation", "dns-rebinding-protection", "tools-call-simple-text", "tools-call-error",
            "tools-call-with-progress", "json-schema-2020-12", "server-sse-multiple-streams", "resources-list", "prompts-list",
            "sep-2164-resource-not-found", "input-required-result-unsupported-methods", "server-stateless");

    /**
     * The production timings of streams (heartbeat, listen poll), not the tests' short ones: the suite waits 800 ms
     * for a listen stream's first frames, and a short heartbeat once hid an acknowledgement held back until it.
     */
    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(Deployments.NAME, true, Map.of(
                ClientWatches.HEARTBEAT_SETTING, String.valueOf(ClientWatches.DEFAULT_HEARTBEAT_MS),
                ToolListSubscriptions.POLL_SETTING, String.valueOf(ToolListSubscriptions.DEFAULT_POLL_MS)));
    }

    static boolean npxAvailable() {
        try {
            Process p = new ProcessBuilder("npx", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void applicableScenariosPass() throws Exception {
        run(PACKAGE, SCENARIOS, "", "conformance-tenant", "/mcp/conf", "conformance.log");
    }

    /** The 2026-07-28 scenarios that apply to a tools-only server, all of them, against the same endpoint. */
    @Test
    void revision20260728ScenariosPass() throws Exception {
        run(PACKAGE_2026, SCENARIOS_2026, " --spec-version 2026-07-28", "conformance-tenant", "/mcp/conf", "conformance-2026-07-28.log");
    }

    /**
     * The demo server as a user gets it, without the suite's fixtures: its imported {@code customers_in_city} carries
     * {@code x-mcp-header}, so the custom-header scenario finds a tool to test there too.
     */
    @Test
    void theDemoServersHeaderToolPassesTheCustomHeaderScenario() throws Exception {
        run(PACKAGE_2026, List.of("http-custom-header-server-validation"), " --spec-version 2026-07-28", "demo-tenant", "/mcp/demo",
                "conformance-2026-07-28-demo.log");
    }

    private static void run(String suite, List<String> scenarios, String options, String tenant, String endpoint, String logName) throws Exception {
        assumeTrue(npxAvailable(), "npx is not installed: the MCP conformance suite was NOT run (install Node.js/npm to run it)");
        String key = McpHttp.tenant(tenant).getString("adminKey");
        Path out = Path.of("target", "conformance");
        Files.createDirectories(out);
        try (BearerProxy proxy = new BearerProxy(McpHttp.base(), key)) {
            String url = "http://localhost:" + proxy.port() + endpoint;
            StringBuilder script = new StringBuilder("fail=0; for s in");
            scenarios.forEach(s -> script.append(' ').append(s));
            script.append("; do echo \"=== scenario $s\"; conformance server --url ").append(url).append(options)
                    .append(" --scenario $s || fail=1; done; exit $fail");
            Process p = new ProcessBuilder("npx", "-y", "-p", "node@22", "-p", suite, "-c", script.toString())
                    .redirectErrorStream(true).redirectOutput(out.resolve(logName).toFile()).start();
            boolean done = p.waitFor(10, TimeUnit.MINUTES);
            if (!done) {
                p.destroyForcibly();
            }
            String log = Files.readString(out.resolve(logName));
            System.out.println(log);
            assertEquals(0, done ? p.exitValue() : -1, "conformance scenarios failed; see target/conformance/" + logName + "\n" + log);
        }
    }
}
