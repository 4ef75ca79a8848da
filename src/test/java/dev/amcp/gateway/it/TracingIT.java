package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.OtlpReceiver.ReceivedSpan;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tracing (SEP-414) against the real thing: Liberty's mpTelemetry-2.1 SDK exports over OTLP/HTTP to a receiver in
 * this test, a code run calls a tool through the bridge, and the test upstream answers the {@code traceparent} it got.
 * A second deployment without OpenTelemetry settings shows the default: nothing traced or exported, and the caller's
 * own trace context passed to the upstream unchanged.
 */
@ExtendWith(ArquillianExtension.class)
class TracingIT {

    static final int OTLP_PORT = Integer.getInteger("it.otlp.port", 18085);
    static final OtlpReceiver OTLP = OtlpReceiver.start(OTLP_PORT);
    static final String V = "2026-07-28";
    static final String SERVER = "http://127.0.0.1:" + System.getProperty("it.http.port", "9180");
    static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]");

    @Deployment(name = "traced", testable = false)
    static WebArchive traced() {
        Deployments.requireRunner();
        // Application-level SDK settings (the test server's runtime-level SDK stays off); the same keys as OTEL_*.
        return Deployments.gateway("amcp-traced", false, Map.of(
                "otel.sdk.disabled", "false",
                "otel.service.name", "amcp-traced",
                "otel.traces.exporter", "otlp",
                "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.exporter.otlp.endpoint", "http://127.0.0.1:" + OTLP_PORT,
                "otel.metrics.exporter", "none",
                "otel.logs.exporter", "none",
                "otel.bsp.schedule.delay", "100",
                "AMCP_CODE_TIMEOUT_MS", "30000")); // a cold first run on a loaded machine needs more than 3 s
    }

    @Deployment(name = "untraced", testable = false)
    static WebArchive untraced() {
        return Deployments.gateway("amcp-untraced", false, Map.of("AMCP_CODE_TIMEOUT_MS", "30000"));
    }

    @Test
    void aClientTraceInMetaRunsThroughCodeModeToTheUpstream() throws Exception {
        String base = SERVER + "/amcp-traced";
        String key = tenant(base);
        String traceId = randomHex(16);
        String clientSpan = randomHex(8);
        HttpResponse<String> r = callTool(base, key, "code_execute",
                Json.createObjectBuilder().add("code", "return await amcp.run('trace_probe', {});").build(),
                "00-" + traceId + "-" + clientSpan + "-01", null);
        assertEquals(200, r.statusCode(), r.body());
        assertFalse(r.body().contains("\"isError\":true"), r.body());
        String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();

        Matcher upstreamSaw = TRACEPARENT.matcher(r.body());
        assertTrue(upstreamSaw.find(), "the upstream got no traceparent: " + r.body());
        assertEquals(traceId, upstreamSaw.group(1), "the upstream continues the client's trace");

        List<String> chain = List.of("tools/call code_execute", "execute_tool code_execute", "code run", "bridge run",
                "execute_tool trace_probe", "GET");
        List<ReceivedSpan> spans = OTLP.await(all -> chain.stream().allMatch(n -> find(all, traceId, n).isPresent()), 60_000);
        List<ReceivedSpan> trace = spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
        for (String name : chain) {
            assertTrue(find(spans, traceId, name).isPresent(), "no span '" + name + "' in " + describe(trace));
        }
        ReceivedSpan request = find(spans, traceId, chain.get(0)).orElseThrow();
        assertEquals(clientSpan, request.parentSpanId(), "the MCP request span continues the client's span");
        assertEquals(OtlpReceiver.KIND_SERVER, request.kind());
        assertEquals("tools/call", request.attribute("mcp.method.name"));
        assertEquals("7", request.attribute("jsonrpc.request.id"));
        assertEquals("amcp-traced", request.service());
        // Each hop is the child of the one before: request, tool call, code run, bridge call, tool call, upstream call.
        for (int i = 1; i < chain.size(); i++) {
            ReceivedSpan parent = find(spans, traceId, chain.get(i - 1)).orElseThrow();
            ReceivedSpan child = find(spans, traceId, chain.get(i)).orElseThrow();
            assertEquals(parent.spanId(), child.parentSpanId(), chain.get(i) + " under " + chain.get(i - 1) + ": " + describe(trace));
        }
        ReceivedSpan codeRun = find(spans, traceId, "code run").orElseThrow();
        String runId = codeRun.attribute("amcp.run.id");
        assertNotNull(runId, describe(trace));
        for (String name : chain) {
            assertEquals(requestId, find(spans, traceId, name).orElseThrow().attribute("amcp.request.id"), name);
        }
        for (String name : chain.subList(2, chain.size())) {
            assertEquals(runId, find(spans, traceId, name).orElseThrow().attribute("amcp.run.id"), name);
        }
        ReceivedSpan upstream = find(spans, traceId, "GET").orElseThrow();
        assertEquals(OtlpReceiver.KIND_CLIENT, upstream.kind());
        assertEquals("200", upstream.attribute("http.response.status_code"));
        assertTrue(upstream.attribute("url.path").endsWith("/it-upstream/trace"), upstream.toString());
        assertEquals(upstream.spanId(), upstreamSaw.group(2), "the upstream's parent is the gateway's upstream-call span");
        // G55: the gateway's spans name hops, never what went through them (credential, query string, code). The
        // upstream's own server span (Liberty's, here the test upstream is in the same server) is the upstream's business.
        for (String name : chain) {
            ReceivedSpan span = find(spans, traceId, name).orElseThrow();
            for (String value : span.attributes().values()) {
                assertFalse(value.contains("it-upstream-secret") || value.contains(TracingItSetup.QUERY_SECRET)
                        || value.contains("amcp.run("), span.name() + " carries " + value);
            }
        }
    }

    @Test
    void theHttpHeaderStartsTheTraceWhenMetaHasNoneOrAMalformedOne() throws Exception {
        String base = SERVER + "/amcp-traced";
        String key = tenant(base);
        for (String meta : new String[] {null, "00-not-a-trace-context-01"}) {
            String traceId = randomHex(16);
            HttpResponse<String> r = callTool(base, key, "trace_probe", JsonObject.EMPTY_JSON_OBJECT, meta,
                    "00-" + traceId + "-" + randomHex(8) + "-01");
            assertEquals(200, r.statusCode(), r.body());
            Matcher upstreamSaw = TRACEPARENT.matcher(r.body());
            assertTrue(upstreamSaw.find(), r.body());
            assertEquals(traceId, upstreamSaw.group(1), "_meta traceparent " + meta);
            List<ReceivedSpan> spans = OTLP.await(all -> find(all, traceId, "tools/call trace_probe").isPresent(), 60_000);
            assertTrue(find(spans, traceId, "tools/call trace_probe").isPresent(),
                    describe(spans.stream().filter(s -> s.traceId().equals(traceId)).toList()));
        }
    }

    /**
     * Tracing off (no OpenTelemetry settings, the default): nothing is traced or exported, but the caller's own trace
     * context reaches the upstream unchanged, from {@code _meta} and from the HTTP header alike, through a plain
     * {@code tools/call} and through a code run's bridge call; a malformed one reaches it not at all.
     */
    @Test
    void withoutOpenTelemetrySettingsTheCallersContextPassesThroughAndNothingIsExported() throws Exception {
        String base = SERVER + "/amcp-untraced";
        String key = tenant(base);
        String traceId = randomHex(16);
        String callerMeta = "00-" + traceId + "-" + randomHex(8) + "-01";
        HttpResponse<String> r = callTool(base, key, "code_execute",
                Json.createObjectBuilder().add("code", "return await amcp.run('trace_probe', {});").build(), callerMeta, null);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(Map.of("traceparent", callerMeta, "tracestate", "it=1"), upstreamSaw(r), "from _meta, through the bridge");
        String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();

        String callerHeader = "00-" + randomHex(16) + "-" + randomHex(8) + "-00";
        HttpResponse<String> plain = callTool(base, key, "trace_probe", JsonObject.EMPTY_JSON_OBJECT, null, callerHeader);
        assertEquals(200, plain.statusCode(), plain.body());
        assertEquals(Map.of("traceparent", callerHeader, "tracestate", ""), upstreamSaw(plain), "from the HTTP header");
        // and the other way round: _meta on a plain call, the HTTP header through a code run's bridge call
        String plainMeta = "00-" + randomHex(16) + "-" + randomHex(8) + "-01";
        assertEquals(Map.of("traceparent", plainMeta, "tracestate", "it=1"),
                upstreamSaw(callTool(base, key, "trace_probe", JsonObject.EMPTY_JSON_OBJECT, plainMeta, null)), "from _meta");
        String runHeader = "00-" + randomHex(16) + "-" + randomHex(8) + "-01";
        assertEquals(Map.of("traceparent", runHeader, "tracestate", ""), upstreamSaw(callTool(base, key, "code_execute",
                Json.createObjectBuilder().add("code", "return await amcp.run('trace_probe', {});").build(), null, runHeader)),
                "from the HTTP header, through the bridge");

        HttpResponse<String> malformed = callTool(base, key, "trace_probe", JsonObject.EMPTY_JSON_OBJECT,
                "00-" + traceId + "-0000000000000000-01", null);
        assertEquals(200, malformed.statusCode(), malformed.body());
        assertEquals(Map.of("traceparent", "", "tracestate", ""), upstreamSaw(malformed), "an invalid context is not passed on");

        // A traced call made afterwards arrives; by then nothing of the untraced ones has.
        String marker = randomHex(16);
        HttpResponse<String> traced = callTool(SERVER + "/amcp-traced", tenant(SERVER + "/amcp-traced"), "trace_probe",
                JsonObject.EMPTY_JSON_OBJECT, "00-" + marker + "-" + randomHex(8) + "-01", null);
        assertEquals(200, traced.statusCode(), traced.body());
        List<ReceivedSpan> spans = OTLP.await(all -> find(all, marker, "GET").isPresent(), 60_000);
        assertTrue(find(spans, marker, "GET").isPresent(), "the traced marker call was not exported");
        assertTrue(spans.stream().noneMatch(s -> s.traceId().equals(traceId) || requestId.equals(s.attribute("amcp.request.id"))
                || !"amcp-traced".equals(s.service())), describe(spans));
    }

    /** The trace headers the test upstream answered it got, from the tool result's structured content. */
    static Map<String, String> upstreamSaw(HttpResponse<String> r) {
        JsonObject result = McpHttp.parse(r.body()).asJsonObject().getJsonObject("result");
        assertFalse(result.getBoolean("isError", false), r.body());
        JsonObject seen = result.getJsonObject("structuredContent"); // code_execute's is the code's return value
        return Map.of("traceparent", seen.getString("traceparent"), "tracestate", seen.getString("tracestate"));
    }

    static Optional<ReceivedSpan> find(List<ReceivedSpan> spans, String traceId, String name) {
        return spans.stream().filter(s -> s.traceId().equals(traceId) && s.name().equals(name)).findFirst();
    }

    static String describe(List<ReceivedSpan> spans) {
        return spans.stream().map(s -> s.name() + " [" + s.spanId() + " <- " + s.parentSpanId() + "] " + s.attributes()).toList().toString();
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1; // never all zero (invalid in W3C trace context)
        return HexFormat.of().formatHex(b);
    }

    static String tenant(String base) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base + "/it-trace-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject().getString("key");
    }

    /** A 2026-07-28 {@code tools/call}, with the trace context in {@code _meta}, in the HTTP header, or neither. */
    static HttpResponse<String> callTool(String base, String key, String tool, JsonObject args, String metaTraceparent,
                                         String headerTraceparent) throws Exception {
        var meta = Json.createObjectBuilder().add("io.modelcontextprotocol/protocolVersion", V)
                .add("io.modelcontextprotocol/clientCapabilities", JsonObject.EMPTY_JSON_OBJECT);
        if (metaTraceparent != null) {
            meta.add("traceparent", metaTraceparent).add("tracestate", "it=1");
        }
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tool).add("arguments", args).add("_meta", meta)).build().toString();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/mcp/demo")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + key).header("MCP-Protocol-Version", V)
                .header("Mcp-Method", "tools/call").header("Mcp-Name", tool)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headerTraceparent != null) {
            b.header("traceparent", headerTraceparent);
        }
        return McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
