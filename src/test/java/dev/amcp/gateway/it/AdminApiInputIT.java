package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Odd and oversized input on the admin REST API gets a clear 4xx that names the problem, never a silent default:
 * missing ids are 404, a wrong JSON type is a 400 naming the field, unknown filter values are a 400 listing the valid
 * ones, and every body has a cap (413), MCP's own larger cap aside.
 */
@ExtendWith(ArquillianExtension.class)
class AdminApiInputIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    static final String HTTP_TOOL = "{\"server\":\"main\",\"name\":\"in_%s\",\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}}";

    @Test
    void missingIdsAreNotFound() throws Exception {
        var t = fixtures.tenant();
        var other = fixtures.tenant();
        long foreign = fixtures.httpTool(other, "main", "foreign_tool", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}").getId();
        String admin = "Bearer " + t.adminKey();
        for (long id : new long[] {Long.MAX_VALUE - 1, foreign}) {
            var put = fixtures.send("PUT", "/api/tools/" + id, admin, HttpRequest.BodyPublishers.ofString(HTTP_TOOL.formatted("x")));
            assertEquals(404, put.statusCode(), put.body());
            assertEquals("not_found", JsonSupport.parseObject(put.body()).getString("error"), put.body());
            var delete = fixtures.send("DELETE", "/api/tools/" + id, admin, HttpRequest.BodyPublishers.noBody());
            assertEquals(404, delete.statusCode(), delete.body());
            var code = fixtures.send("PUT", "/api/code-tools/" + id, admin,
                    HttpRequest.BodyPublishers.ofString("{\"server\":\"main\",\"name\":\"c\",\"code\":\"return 1\"}"));
            assertEquals(404, code.statusCode(), code.body());
        }
        assertTrue(fixtures.get("/api/tools", "Bearer " + other.adminKey()).body().contains("\"name\":\"foreign_tool\""),
                "the foreign tool is untouched");
    }

    @Test
    void aWrongJsonTypeIsRefusedNamingTheField() throws Exception {
        var t = fixtures.tenant();
        String admin = "Bearer " + t.adminKey();
        var writes = fixtures.post("/api/code-tools", admin,
                "{\"server\":\"main\",\"name\":\"typed\",\"code\":\"return 1\",\"allowWrites\":\"true\"}");
        assertEquals(400, writes.statusCode(), writes.body());
        assertTrue(message(writes).contains("allowWrites must be true or false"), writes.body());

        var name = fixtures.post("/api/tools", admin, "{\"server\":\"main\",\"name\":5,\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}}");
        assertEquals(400, name.statusCode(), name.body());
        assertTrue(message(name).contains("name must be a string"), name.body());

        var runAs = fixtures.post("/api/code-tools", admin, "{\"server\":\"main\",\"name\":\"typed\",\"code\":\"return 1\",\"runAs\":true}");
        assertEquals(400, runAs.statusCode(), runAs.body());
        assertTrue(message(runAs).contains("runAs must be a string"), runAs.body());

        var uses = fixtures.post("/api/code-tools", admin, "{\"server\":\"main\",\"name\":\"typed\",\"code\":\"return 1\",\"uses\":[1]}");
        assertEquals(400, uses.statusCode(), uses.body());
        assertTrue(message(uses).contains("uses must be an array of tool names"), uses.body());

        var mapping = fixtures.post("/api/tools", admin, "{\"server\":\"main\",\"name\":\"m\",\"endpointMapping\":\"GET /\"}");
        assertEquals(400, mapping.statusCode(), mapping.body());
        assertTrue(message(mapping).contains("endpointMapping must be a JSON object, not a string"), mapping.body());
        String saved = fixtures.get("/api/tools", admin).body();
        assertTrue(!saved.contains("\"name\":\"typed\"") && !saved.contains("\"name\":\"m\""), "nothing was saved: " + saved);
    }

    @Test
    void codeRunFiltersRefuseWhatCannotMatchAndTakeUsernames() throws Exception {
        var t = fixtures.tenant();
        String admin = "Bearer " + t.adminKey();
        var bogus = fixtures.get("/api/code-runs?status=bogus", admin);
        assertEquals(400, bogus.statusCode(), bogus.body());
        assertTrue(message(bogus).contains("status must be one of SUCCESS, ERROR, TIMEOUT, LIMIT, CANCELLED, REFUSED, DIVERGED, PAUSED, RUNNING"), bogus.body());
        assertEquals(200, fixtures.get("/api/code-runs?status=success", admin).statusCode(), "any case");

        var byName = fixtures.get("/api/code-runs?user=" + t.admin().username(), admin);
        assertEquals(200, byName.statusCode(), byName.body());
        assertEquals(200, fixtures.get("/api/code-runs?user=alice", admin).statusCode(), "an unknown user has no runs");
        assertEquals(200, fixtures.get("/api/code-runs?user=" + t.admin().userId(), admin).statusCode(), "a user id works too");

        var limit = fixtures.get("/api/code-runs?limit=many", admin);
        assertEquals(400, limit.statusCode(), limit.body());
        assertTrue(message(limit).contains("limit must be a whole number from 1 to 500"), limit.body());
    }

    @Test
    void everyRestBodyIsCappedButMcpKeepsItsOwnCap() throws Exception {
        var t = fixtures.tenant();
        String admin = "Bearer " + t.adminKey();
        String big = "{\"server\":\"main\",\"name\":\"big\",\"description\":\"" + "x".repeat(1100 * 1024) + "\"}";
        var declared = fixtures.post("/api/tools", admin, big);
        assertEquals(413, declared.statusCode(), declared.body());
        assertTrue(message(declared).contains("larger than the 1048576-byte limit (AMCP_MAX_BODY_BYTES)"), declared.body());

        // Without a declared length (chunked), the body is read only up to the cap.
        var chunked = fixtures.send("POST", "/api/code-tools", admin,
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))));
        assertEquals(413, chunked.statusCode(), chunked.body());
        var call = fixtures.send("POST", "/api/tools/anything/call", admin,
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))));
        assertEquals(413, call.statusCode(), call.body());
        assertTrue(!fixtures.get("/api/tools", admin).body().contains("\"name\":\"big\""), "nothing was saved");

        // MCP answers bodies up to AMCP_MCP_MAX_BODY_BYTES (4 MiB) itself.
        HttpResponse<String> mcp = fixtures.send("POST", "/mcp/main", admin, HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(1100 * 1024) + "\"}}"));
        assertNotEquals(413, mcp.statusCode(), mcp.body());
    }

    private static String message(HttpResponse<String> response) {
        JsonObject body = JsonSupport.parseObject(response.body());
        return body.getString("message", body.toString());
    }
}
