package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sends well over 1,000 malformed or hostile requests to the MCP endpoints (truncated JSON, wrong types, huge ids,
 * deep nesting, unknown fields, wrong content types and headers, missing or bad auth, binary garbage) and asserts
 * that none gets an HTTP 500 and none leaks a stack trace or an internal class name.
 */
@ExtendWith(ArquillianExtension.class)
class McpFuzzIT {

    private static final Pattern LEAK = Pattern.compile(
            "Exception|\\tat |\\.java:\\d|java\\.lang|dev\\.amcp|jakarta\\.|org\\.eclipse|com\\.ibm|Caused by");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    record Case(String endpoint, String body, String[] headers, boolean auth) {}

    @Test
    void hostileRequestsNeverGet500OrLeakInternals() throws Exception {
        String key = McpHttp.tenant("mcp-tenant").getString("adminKey");
        List<Case> cases = cases(new Random(20261125L));
        assertTrue(cases.size() >= 1000, "at least 1,000 cases, got " + cases.size());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<String>> results = new ArrayList<>();
        for (Case c : cases) {
            results.add(pool.submit(() -> send(c, key)));
        }
        List<String> problems = new ArrayList<>();
        for (Future<String> f : results) {
            String problem = f.get();
            if (problem != null) {
                problems.add(problem);
            }
        }
        pool.shutdown();
        assertEquals(List.of(), problems.subList(0, Math.min(20, problems.size())), problems.size() + " bad answers");
    }

    private static String send(Case c, String key) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(McpHttp.base() + c.endpoint())).timeout(Duration.ofSeconds(180))
                .POST(HttpRequest.BodyPublishers.ofByteArray(c.body().getBytes(StandardCharsets.ISO_8859_1)));
        boolean contentType = false;
        for (int i = 0; i < c.headers().length; i += 2) {
            b.header(c.headers()[i], c.headers()[i + 1]);
            contentType |= c.headers()[i].equals("Content-Type");
        }
        if (!contentType) {
            b.header("Content-Type", "application/json");
        }
        if (c.auth()) {
            b.header("Authorization", "Bearer " + key);
        }
        HttpResponse<String> r = McpHttp.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 500) {
            return r.statusCode() + " at " + c.endpoint() + " for " + abbreviate(c.body()) + " -> " + abbreviate(r.body());
        }
        if (LEAK.matcher(r.body()).find()) {
            return "leak at " + c.endpoint() + " for " + abbreviate(c.body()) + " -> " + abbreviate(r.body());
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...(" + s.length() + ")";
    }

    static List<Case> cases(Random random) {
        List<Case> cases = new ArrayList<>();
        String[] endpoints = {"/mcp/main", "/mcp", "/mcp/other", "/mcp/nope", "/mcp/n%20o", "/mcp/%C3%A9"};
        List<String> valid = List.of(
                McpHttp.initialize("2025-11-25"),
                McpHttp.request(1, "tools/list", null),
                McpHttp.request(2, "tools/call", "{\"name\":\"echo_get\",\"arguments\":{\"id\":\"1\"}}"),
                McpHttp.request(3, "tools/call", "{\"name\":\"echo_post\",\"arguments\":{\"x\":[1,2,{\"y\":null}]}}"),
                McpHttp.request(4, "ping", "{}"),
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
        // truncated JSON at every kind of cut point
        for (String v : valid) {
            for (int i = 0; i < 60; i++) {
                cases.add(new Case(endpoints[i % 2], v.substring(0, random.nextInt(v.length())), new String[0], true));
            }
        }
        // wrong types in every position
        String[] values = {"null", "true", "0", "-1", "1.5", "\"\"", "\"x\"", "[]", "{}", "[1,{}]", "{\"a\":[]}",
                "1e999999999", "-0", "123456789012345678901234567890123456789012345678901234567890"};
        String[] templates = {
                "{\"jsonrpc\":%s,\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":%s}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":%s}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":%s}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo_get\",\"arguments\":%s}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo_get\",\"arguments\":{\"id\":%s}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":%s}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":%s}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":%s}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"test_tool_with_progress\",\"_meta\":{\"progressToken\":%s}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":%s,\"reason\":%s}}",
                "[%s]", "%s"};
        for (String t : templates) {
            for (String v : values) {
                String body = t.replace("%s", v);
                cases.add(new Case(endpoints[random.nextInt(3)], body, new String[0], true));
                cases.add(new Case("/mcp/main", body, new String[] {"MCP-Protocol-Version", "2025-03-26"}, true));
            }
        }
        // huge ids and strings
        cases.add(new Case("/mcp/main", "{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(100_000) + ",\"method\":\"ping\"}", new String[0], true));
        cases.add(new Case("/mcp/main", "{\"jsonrpc\":\"2.0\",\"id\":\"" + "i".repeat(1_000_000) + "\",\"method\":\"ping\"}", new String[0], true));
        cases.add(new Case("/mcp/main", McpHttp.request(1, "tools/call", "{\"name\":\"" + "n".repeat(200_000) + "\"}"), new String[0], true));
        cases.add(new Case("/mcp/main", McpHttp.request(1, "x".repeat(100_000), null), new String[0], true));
        // deep nesting
        for (int depth : new int[] {100, 1_000, 5_000, 50_000}) {
            cases.add(new Case("/mcp/main", "[".repeat(depth) + "]".repeat(depth), new String[0], true));
            cases.add(new Case("/mcp/main", McpHttp.request(1, "tools/call", "{\"name\":\"echo_post\",\"arguments\":{\"a\":"
                    + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}}"), new String[0], true));
            cases.add(new Case("/mcp/main", "[".repeat(depth), new String[0], true));
        }
        // unknown fields and methods
        for (int i = 0; i < 100; i++) {
            String field = "f" + random.nextInt(1000);
            cases.add(new Case(endpoints[i % 3], "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"" + (i % 2 == 0 ? "tools/list" : "m/" + field)
                    + "\",\"" + field + "\":" + values[i % values.length] + ",\"params\":{\"" + field + "\":1}}", new String[0], true));
        }
        // wrong content types, accept headers, versions, sessions, origins
        String[][] headerSets = {
                {"Content-Type", "text/plain"}, {"Content-Type", "application/xml"}, {"Content-Type", "multipart/form-data; boundary=x"},
                {"Content-Type", "application/json; charset=latin1"}, {"Content-Type", "*/*"}, {"Content-Type", "garbage"},
                {"Accept", "text/html"}, {"Accept", "image/png, */*;q=0"}, {"Accept", ";;;"},
                {"MCP-Protocol-Version", "2099-01-01"}, {"MCP-Protocol-Version", "\u00e9"}, {"MCP-Protocol-Version", ""},
                {"Mcp-Session-Id", "abc"}, {"Mcp-Session-Id", "a.b"}, {"Mcp-Session-Id", "x".repeat(4000)}, {"Mcp-Session-Id", "....."},
                {"Origin", "http://evil.example"}, {"Origin", "null"}, {"Origin", "::::"}, {"Origin", "http://localhost:1/path"}};
        for (String[] h : headerSets) {
            for (String v : valid) {
                cases.add(new Case(endpoints[random.nextInt(2)], v, h, true));
            }
        }
        // missing and bad auth
        for (int i = 0; i < 60; i++) {
            Case c = new Case(endpoints[i % endpoints.length], valid.get(i % valid.size()), i % 3 == 0 ? new String[0]
                    : new String[] {"Authorization", i % 3 == 1 ? "Bearer amcp_" + random.nextLong() : "Basic Zm9vOmJhcg=="}, false);
            cases.add(c);
        }
        // random bytes
        for (int i = 0; i < 150; i++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            cases.add(new Case(endpoints[i % 2], new String(bytes, StandardCharsets.ISO_8859_1), new String[0], true));
        }
        return cases;
    }
}
