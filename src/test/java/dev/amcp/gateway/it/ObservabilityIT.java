package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Observability that does not depend on code mode: tool-call metrics by tool and outcome on {@code /metrics},
 * the admin API's OpenAPI document on {@code /openapi}, and the request id in the response header and the log.
 */
@ExtendWith(ArquillianExtension.class)
class ObservabilityIT {

    static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{(.*)}\\s+(\\S+)");
    static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    @Test
    void toolCallsAreCountedByToolAndOutcome() throws Exception {
        var t = fixtures.tenant();
        String ok = "obs_ok_" + UUID.randomUUID().toString().substring(0, 8);
        String failing = "obs_fail_" + UUID.randomUUID().toString().substring(0, 8);
        String unknown = "obs_unknown_" + UUID.randomUUID().toString().substring(0, 8);
        fixtures.httpTool(t, "main", ok, null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}");
        fixtures.httpTool(t, "main", failing, null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/fail\"}");
        String bearer = "Bearer " + t.viewerKey();

        double okBefore = metric("amcp_tool_calls_total", Map.of("tool", ok, "outcome", "ok"));
        double deniedBefore = metric("amcp_tool_calls_total", Map.of("tool", "_denied", "outcome", "denied"));
        double okTimerBefore = metric("amcp_tool_call_duration_seconds_count", Map.of("outcome", "ok"));
        assertEquals(0, okBefore, "a fresh tool has no series yet");

        assertEquals(200, fixtures.post("/api/tools/" + ok + "/call", bearer, "{}").statusCode());
        assertEquals(200, fixtures.post("/api/tools/" + ok + "/call", bearer, "{}").statusCode());
        var failed = fixtures.post("/api/tools/" + failing + "/call", bearer, "{}");
        assertTrue(JsonSupport.parseObject(failed.body()).getBoolean("isError"), failed.body());
        assertEquals(404, fixtures.post("/api/tools/" + unknown + "/call", bearer, "{}").statusCode());

        assertEquals(okBefore + 2, metric("amcp_tool_calls_total", Map.of("tool", ok, "outcome", "ok")));
        assertEquals(1, metric("amcp_tool_calls_total", Map.of("tool", failing, "outcome", "tool_error")));
        assertEquals(0, metric("amcp_tool_calls_total", Map.of("tool", failing, "outcome", "ok")));
        assertEquals(deniedBefore + 1, metric("amcp_tool_calls_total", Map.of("tool", "_denied", "outcome", "denied")));
        assertFalse(metrics().contains(unknown), "a caller-chosen name never becomes a metric tag");
        assertTrue(metric("amcp_tool_call_duration_seconds_count", Map.of("outcome", "ok")) >= okTimerBefore + 2,
                "call latency is timed by outcome");
    }

    @Test
    void metricsNeedAnAuthenticatedReader() throws Exception {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "obs_private_tool", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}");
        assertEquals(200, fixtures.post("/api/tools/obs_private_tool/call", "Bearer " + t.viewerKey(), "{}").statusCode());
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> plain = http.send(HttpRequest.newBuilder(URI.create(fixtures.serverUrl() + "/metrics?scope=application")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, plain.statusCode(), "anonymous HTTP is sent to HTTPS: " + plain.body());
        assertTrue(plain.headers().firstValue("Location").orElse("").startsWith("https://"), plain.headers().map().toString());
        assertFalse(plain.body().contains("amcp_"), plain.body());
        assertTrue(metrics().contains("tool=\"obs_private_tool\""), "the reader sees the gateway's metrics");
    }

    @Test
    void openApiDescribesTheAdminApi() throws Exception {
        var response = fixtures.get("/openapi?format=JSON", null);
        assertEquals(200, response.statusCode());
        JsonObject openapi = JsonSupport.parseObject(response.body());
        assertEquals("AMCP Gateway admin API", openapi.getJsonObject("info").getString("title"));
        JsonObject paths = openapi.getJsonObject("paths");
        assertTrue(paths.containsKey("/api/tools"), "paths: " + paths.keySet());
        assertTrue(paths.containsKey("/api/tools/{name}/call"), "paths: " + paths.keySet());
        assertTrue(paths.getJsonObject("/api/tools").containsKey("get"));
        for (String administration : java.util.List.of("/api/workspaces", "/api/workspaces/{slug}", "/api/servers", "/api/users",
                "/api/users/{username}", "/api/users/{username}/keys", "/api/users/{username}/keys/{id}", "/api/roles",
                "/api/roles/{name}", "/api/license", "/api/license/usage", "/api/audit")) {
            assertTrue(paths.containsKey(administration), administration + " is documented; paths: " + paths.keySet());
        }
        assertTrue(paths.getJsonObject("/api/workspaces").getJsonObject("post").getJsonObject("responses").containsKey("409"),
                "the workspace API documents its conflicts");
        assertTrue(paths.getJsonObject("/api/audit").getJsonObject("get").getJsonObject("responses").containsKey("400"),
                "the audit log documents its bad filters");
        assertTrue(paths.keySet().stream().noneMatch(p -> p.startsWith("/demo-api")), "the demo API is excluded: " + paths.keySet());
    }

    @Test
    @RunAsClient
    void requestIdIsAnsweredAndLogged() throws Exception {
        String base = "http://127.0.0.1:" + System.getProperty("it.http.port", "9180");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String id = "obs-it-" + UUID.randomUUID();
        HttpResponse<String> kept = http.send(HttpRequest.newBuilder(URI.create(base + "/api/tools"))
                .header("X-Request-Id", id).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, kept.statusCode());
        assertEquals(id, kept.headers().firstValue("X-Request-Id").orElse(null), "a plausible incoming id is kept");

        HttpResponse<String> replaced = http.send(HttpRequest.newBuilder(URI.create(base + "/api/tools"))
                .header("X-Request-Id", "two words {x}").build(), HttpResponse.BodyHandlers.ofString());
        String generated = replaced.headers().firstValue("X-Request-Id").orElse("");
        assertNotEquals("two words {x}", generated);
        assertEquals(generated, UUID.fromString(generated).toString(), "an implausible id is replaced by a UUID");

        HttpResponse<String> fresh = http.send(HttpRequest.newBuilder(URI.create(base + "/api/tools")).build(),
                HttpResponse.BodyHandlers.ofString());
        String minted = fresh.headers().firstValue("X-Request-Id").orElse("");
        assertEquals(minted, UUID.fromString(minted).toString(), "a request without one gets a fresh UUID");
        assertNotEquals(generated, minted);

        Path log = ServerLog.messages();
        String expected = "request " + id + " GET /api/tools -> 401 in ";
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(expected)) {
                return;
            }
            Thread.sleep(300);
        }
        fail("no log line '" + expected + "' in " + log.toAbsolutePath());
    }

    // --- helpers ---

    String metrics() throws Exception {
        return fixtures.metrics();
    }

    /** The sum of the samples named {@code name} whose labels include {@code labels}; 0 when there is none. */
    double metric(String name, Map<String, String> labels) throws Exception {
        double sum = 0;
        for (String line : metrics().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!m.find() || !m.group(1).equals(name)) {
                continue;
            }
            Map<String, String> present = new HashMap<>();
            Matcher l = LABEL.matcher(m.group(2));
            while (l.find()) {
                present.put(l.group(1), l.group(2));
            }
            if (present.entrySet().containsAll(labels.entrySet())) {
                sum += Double.parseDouble(m.group(3));
            }
        }
        return sum;
    }
}
