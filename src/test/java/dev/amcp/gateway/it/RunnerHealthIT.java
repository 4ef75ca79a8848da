package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.FirstOperator;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Anonymous readiness tells whether the code runner answers, and nothing of its internals, and it asks the runner at
 * most once per few seconds however often it is polled; operators read the runner's report on {@code /api/code-runner}.
 * The "runner" is a stub {@code /healthz} in the test's JVM that counts how often it is asked ({@code /count}).
 */
@ExtendWith(ArquillianExtension.class)
class RunnerHealthIT {

    static final String SECRET = "secret-deno-9.9.9";

    @Deployment
    static WebArchive deployment() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/healthz", exchange -> {
            asked.incrementAndGet();
            byte[] body = ("{\"status\":\"ok\",\"deno\":\"" + SECRET + "\",\"isolation\":\"uid-drop\",\"warm\":2,\"busy\":0}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        stub.createContext("/count", exchange -> {
            byte[] body = String.valueOf(asked.get()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        stub.setExecutor(null);
        stub.start();
        return Deployments.gateway("amcp-health", false, Map.of(
                "CODE_RUNNER_URL", "ws://127.0.0.1:" + stub.getAddress().getPort(),
                "CODE_RUNNER_TOKEN", "runner-health-it-token-0123456789"));
    }

    @Inject
    Fixtures fixtures;

    @Inject
    FirstOperator firstOperator;

    @Inject
    @ConfigProperty(name = "CODE_RUNNER_URL")
    String runnerUrl;

    @Test
    void readinessIsCachedAndKeepsTheRunnersReportForAdmins() throws Exception {
        String count = runnerUrl.replace("ws://", "http://") + "/count";
        fixtures.getAbsolute(fixtures.serverUrl() + "/health/ready"); // the first poll may ask the runner
        int before = Integer.parseInt(fixtures.getAbsolute(count).body());
        String body = "";
        for (int i = 0; i < 10; i++) {
            var ready = fixtures.getAbsolute(fixtures.serverUrl() + "/health/ready");
            assertEquals(200, ready.statusCode(), ready.body());
            body = ready.body();
        }
        int asked = Integer.parseInt(fixtures.getAbsolute(count).body()) - before;
        assertTrue(asked <= 1, "10 anonymous polls asked the runner " + asked + " times");
        JsonObject runner = JsonSupport.parseObject(body).getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("name").equals("code-runner")).findFirst().orElseThrow();
        assertEquals("ready", runner.getJsonObject("data").getString("state"), body);
        assertFalse(body.contains(SECRET) || body.contains("isolation"), "no runner internals for anonymous callers: " + body);

        var t = fixtures.tenant();
        assertEquals(401, fixtures.get("/api/code-runner", null).statusCode());
        assertEquals(403, fixtures.get("/api/code-runner", "Bearer " + t.viewerKey()).statusCode());
        assertEquals(403, fixtures.get("/api/code-runner", "Bearer " + t.adminKey()).statusCode(), "a workspace admin is no operator");
        firstOperator.createUnlessOneExists(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY); // the tests' operator
        var detail = fixtures.get("/api/code-runner", "Bearer " + Operators.API_KEY);
        assertEquals(200, detail.statusCode(), detail.body());
        JsonObject report = JsonSupport.parseObject(detail.body());
        assertEquals("ready", report.getString("state"));
        assertEquals(SECRET, report.getJsonObject("runner").getString("deno"), detail.body());
    }
}
