package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Human approval of writes driven by the official TypeScript MCP client ({@code @modelcontextprotocol/client}, Node 22
 * through npx), against the real gateway, the live runner and PostgreSQL: the client pins revision 2026-07-28, declares
 * form elicitation, and its multi round-trip driver answers the gateway's {@code input_required} through its elicitation
 * handler and retries with {@code inputResponses} and the echoed {@code requestState}. Approving writes once and returns
 * the run's result; declining writes nothing and returns the refusal. Skipped, with a message, only when npx is missing.
 */
@ExtendWith(ArquillianExtension.class)
class McpSdkApprovalIT {

    static final String PACKAGE = "@modelcontextprotocol/client@2.4.0";
    static final Path SCRIPT = Path.of("src", "test", "resources", "mcp-sdk", "approval-client.mjs");

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static String call(int customer, String note, boolean approve) {
        return "{\"name\":\"order_for\",\"arguments\":{\"customerId\":" + customer + ",\"note\":\"" + note + "\"},\"approve\":"
                + approve + "}";
    }

    @Test
    void theSdkClientAnswersTheApprovalThroughItsElicitationHandler() throws Exception {
        assumeTrue(McpConformanceIT.npxAvailable(), "npx is not installed: the TypeScript SDK client was NOT run (install Node.js/npm to run it)");
        JsonObject t = WriteApprovalIT.tenant();
        int approvedBefore = WriteApprovalIT.ordersOf(16);
        int declinedBefore = WriteApprovalIT.ordersOf(17);
        JsonObject out = run(t.getString("askerKey"), "[" + call(16, "approved by the sdk", true) + ","
                + call(17, "declined by the sdk", false) + "]");
        assertEquals("modern", out.getString("era"), out.toString());
        assertEquals("2026-07-28", out.getString("protocolVersion"));

        JsonObject approved = out.getJsonArray("calls").getJsonObject(0);
        assertFalse(approved.containsKey("error"), approved.toString());
        assertEquals(1, approved.getJsonArray("elicitations").size(), "one write, one question: " + approved);
        JsonObject asked = approved.getJsonArray("elicitations").getJsonObject(0);
        assertTrue(asked.getString("message").contains("order_create") && asked.getString("message").contains("approved by the sdk"),
                asked.toString());
        assertEquals("boolean", asked.getJsonObject("requestedSchema").getJsonObject("properties").getJsonObject("approve").getString("type"));
        JsonObject result = approved.getJsonObject("result");
        assertFalse(result.getBoolean("isError", false), result.toString());
        assertEquals(16, result.getJsonObject("structuredContent").getInt("customer"), result.toString());
        assertNotNull(result.getJsonObject("structuredContent").get("order"));
        assertEquals(approvedBefore + 1, WriteApprovalIT.ordersOf(16), "the approved write was made once");

        JsonObject declined = out.getJsonArray("calls").getJsonObject(1);
        assertFalse(declined.containsKey("error"), declined.toString());
        assertEquals(1, declined.getJsonArray("elicitations").size(), declined.toString());
        assertTrue(declined.getJsonArray("elicitations").getJsonObject(0).getString("message").contains("declined by the sdk"));
        JsonObject refusal = declined.getJsonObject("result");
        assertTrue(refusal.getBoolean("isError"), refusal.toString());
        assertTrue(refusal.getJsonArray("content").getJsonObject(0).getString("text").contains("refused by client:" + t.getString("slug") + "-asker"),
                refusal.toString());
        assertEquals(declinedBefore, WriteApprovalIT.ordersOf(17), "the declined write was never made");
    }

    /** Runs the SDK client script for {@code calls}; answers the JSON it printed on its {@code SDK-RESULT} line. */
    static JsonObject run(String key, String calls) throws Exception {
        Path out = Path.of("target", "mcp-sdk");
        Files.createDirectories(out);
        Path log = out.resolve("approval-client.log");
        ProcessBuilder pb = new ProcessBuilder("npx", "-y", "-p", "node@22", "-p", PACKAGE, "-c",
                "node " + SCRIPT.toAbsolutePath()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(Map.of("MCP_URL", McpHttp.base() + "/mcp/demo", "MCP_KEY", key, "SDK_CALLS", calls));
        Process p = pb.start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String text = Files.readString(log);
        assertEquals(0, done ? p.exitValue() : -1, "the SDK client failed; see target/mcp-sdk/approval-client.log\n" + text);
        String line = text.lines().filter(l -> l.startsWith("SDK-RESULT ")).findFirst()
                .orElseThrow(() -> new AssertionError("the SDK client printed no result:\n" + text));
        return JsonSupport.parseObject(line.substring("SDK-RESULT ".length()));
    }
}
