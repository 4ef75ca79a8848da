package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The one execution path against a real HTTP upstream: scope, read/write class, schema checks, upstream failures. */
@ExtendWith(ArquillianExtension.class)
class ToolExecutorIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    ToolService tools;

    @Inject
    Fixtures fixtures;

    @Inject
    ToolExecutor executor;

    @Inject
    ToolCatalog catalog;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Config config;

    static final String ID_SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"q\":{\"type\":\"string\"}},\"required\":[\"id\"]}";

    static JsonObject args(String json) {
        return JsonSupport.parseObject(json);
    }

    @Test
    void mapsPathQueryAndCredential() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "echo", ID_SCHEMA,
                "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\",\"query\":{\"q\":\"q\"},\"credential\":\"it\"}");
        ToolResult result = executor.call(t.viewer(), "echo", args("{\"id\":\"a b\",\"q\":\"x&y=z\"}"));
        assertFalse(result.isError(), result.text());
        assertEquals("a b", result.structuredContent().getString("id"));
        assertEquals("x&y=z", result.structuredContent().getString("q"), "query values are encoded, not spliced");
        assertEquals("Bearer it-upstream-secret", result.structuredContent().getString("auth"));
        assertEquals(result.structuredContent().toString(), result.text(), "text carries the same JSON");
    }

    /** HTTP tool definitions are kept for a few seconds; an edit or a delete through the gateway counts at once. */
    @Test
    void editingOrDeletingAToolCountsAtOnceDespiteTheCache() {
        var t = fixtures.tenant();
        var tool = fixtures.httpTool(t, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        assertEquals("a", executor.call(t.viewer(), "echo", args("{\"id\":\"a\"}")).structuredContent().getString("id"));
        tools.updateHttpTool(t.admin(), tool.getId(), new ToolDraft("main", "echo", null, "Echo with a query", JsonSupport.parseObject(ID_SCHEMA),
                null, JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\",\"query\":{\"q\":\"id\"}}")));
        assertEquals("b", executor.call(t.viewer(), "echo", args("{\"id\":\"b\"}")).structuredContent().getString("q"),
                "the edited mapping is used on the next call");
        tools.delete(t.admin(), tool.getId());
        assertThrows(ToolNotAvailableException.class, () -> executor.call(t.viewer(), "echo", args("{\"id\":\"c\"}")));
    }

    @Test
    void writesSendTheirArgumentsAsABody() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "post_echo", null, "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        ToolResult result = executor.call(t.member(), "post_echo", args("{\"note\":\"hi\",\"n\":2}"));
        assertFalse(result.isError(), result.text());
        assertEquals(args("{\"note\":\"hi\",\"n\":2}"), result.structuredContent().getJsonObject("received"));
    }

    @Test
    void viewersCannotCallWritesAndCannotTellWhetherTheyExist() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "post_echo", null, "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        var denied = assertThrows(ToolNotAvailableException.class, () -> executor.call(t.viewer(), "post_echo", args("{}")));
        var missing = assertThrows(ToolNotAvailableException.class, () -> executor.call(t.viewer(), "no_such_tool", args("{}")));
        assertEquals(denied.getMessage().replace("post_echo", "X"), missing.getMessage().replace("no_such_tool", "X"));
        assertTrue(catalog.list(t.viewer()).stream().noneMatch(d -> d.name().equals("post_echo")));
        assertTrue(catalog.list(t.member()).stream().anyMatch(d -> d.name().equals("post_echo")));
    }

    @Test
    void roleScopeLimitsServers() {
        var t = fixtures.tenant();
        var other = workspaces.createServer(t.workspace().getId(), "other", "Other", null);
        fixtures.httpTool(t, "other", "echo_other", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        var viewerRole = workspaces.role(t.workspace().getId(), "viewer");
        workspaces.updateRole(viewerRole.getId(), Set.of(), false, Set.of(t.server().getId()));
        var viewer = fixtures.apiKeysAuth(t.viewerKey());
        assertThrows(ToolNotAvailableException.class, () -> executor.call(viewer, "echo_other", args("{\"id\":\"1\"}")));
        assertFalse(executor.call(t.admin(), "echo_other", args("{\"id\":\"1\"}")).isError());
        assertThrows(ToolNotAvailableException.class,
                () -> executor.call(t.admin().withScope(CallScope.server(t.server().getId())), "echo_other", args("{\"id\":\"1\"}")),
                "the per-server endpoint scope hides tools of other servers");
        assertEquals(other.getId(), workspaces.findServer(t.workspace().getId(), "other").orElseThrow().getId());
    }

    @Test
    void anotherWorkspaceCannotReachTheTool() {
        var a = fixtures.tenant();
        var b = fixtures.tenant();
        fixtures.httpTool(a, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        assertThrows(ToolNotAvailableException.class, () -> executor.call(b.admin(), "echo", args("{\"id\":\"1\"}")));
        assertTrue(catalog.list(b.admin()).isEmpty());
    }

    @Test
    void schemaInvalidArgumentsAreAToolErrorNamingTheProblem() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        ToolResult result = executor.call(t.viewer(), "echo", args("{\"id\":42}"));
        assertTrue(result.isError());
        assertTrue(result.text().startsWith("Invalid arguments for tool 'echo'"), result.text());
        assertTrue(result.text().contains("id"), result.text());
    }

    @Test
    void upstreamTimeoutIsAToolError() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "slow", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/slow?ms=3000\",\"timeoutMs\":300}");
        long start = System.nanoTime();
        ToolResult result = executor.call(t.viewer(), "slow", args("{}"));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(result.isError());
        assertEquals("Upstream did not answer within 300 ms", result.text());
        assertTrue(ms < 2500, "gave up after " + ms + " ms");
    }

    @Test
    void upstreamServerErrorIsAToolError() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "fail", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/fail\"}");
        ToolResult result = executor.call(t.viewer(), "fail", args("{}"));
        assertTrue(result.isError());
        assertEquals("Upstream answered HTTP 500: database exploded", result.text());
    }

    @Test
    void nonJsonBodyIsAToolError() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "html", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/html\"}");
        ToolResult result = executor.call(t.viewer(), "html", args("{}"));
        assertTrue(result.isError());
        assertTrue(result.text().startsWith("Upstream answered with a non-JSON body (Content-Type text/html"), result.text());
    }

    @Test
    void oversizeBodyIsAToolError() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "big", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/big\"}");
        ToolResult result = executor.call(t.viewer(), "big", args("{}"));
        assertTrue(result.isError());
        assertTrue(result.text().contains("larger than the 65536-byte limit"), result.text());
    }

    @Test
    void unreachableUpstreamIsAToolError() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "down", null, "{\"method\":\"GET\",\"url\":\"http://127.0.0.1:9/nothing\"}");
        ToolResult result = executor.call(t.viewer(), "down", args("{}"));
        assertTrue(result.isError());
        assertTrue(result.text().startsWith("Upstream is unreachable"), result.text());
    }

    @Test
    void descriptorsCarryHints() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        fixtures.httpTool(t, "main", "remove", null, "{\"method\":\"DELETE\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        ToolDescriptor echo = catalog.list(t.admin()).stream().filter(d -> d.name().equals("echo")).findFirst().orElseThrow();
        ToolDescriptor remove = catalog.list(t.admin()).stream().filter(d -> d.name().equals("remove")).findFirst().orElseThrow();
        assertTrue(echo.readOnly() && echo.idempotent() && !echo.destructive());
        assertTrue(!remove.readOnly() && remove.destructive());
    }

    /** Issue 13: a tool may not aim at cloud metadata or the code runner, whatever path saves it. */
    @Test
    void savingAToolAtTheMetadataAddressOrTheRunnerIsRefusedNamingTheSetting() throws Exception {
        var t = fixtures.tenant();
        String metadata = "{\"server\":\"main\",\"name\":\"meta\",\"endpointMapping\":{\"method\":\"GET\","
                + "\"url\":\"http://169.254.169.254/latest/meta-data/\",\"headers\":{\"Metadata-Flavor\":\"Google\"}}}";
        var response = fixtures.post("/api/tools", "Bearer " + t.adminKey(), metadata);
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.body().contains("169.254.169.254") && response.body().contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), response.body());
        URI runner = URI.create(config.getOptionalValue("CODE_RUNNER_URL", String.class).orElse("ws://127.0.0.1:8777"));
        var refused = assertThrows(ToolService.InvalidToolException.class, () -> fixtures.httpTool(t, "main", "runner", null,
                "{\"method\":\"GET\",\"url\":\"http://127.0.0.1:" + runner.getPort() + "/healthz\"}"));
        assertTrue(refused.englishProblems().get("endpointMapping").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), refused.englishProblems().toString());
        assertTrue(catalog.list(t.admin()).isEmpty(), "nothing was saved");
    }

    /** Issue 13: the allow-list names the host, but the address it resolves to is judged on every call. */
    @Test
    void aHostNameThatResolvesToLoopbackIsRefusedAtCallTime() {
        var t = fixtures.tenant();
        String byName = fixtures.baseUrl().replace("127.0.0.1", "localhost");
        fixtures.httpTool(t, "main", "by_name", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"" + byName + "/it-upstream/echo/{id}\"}");
        ToolResult result = executor.call(t.viewer(), "by_name", args("{\"id\":\"1\"}"));
        assertTrue(result.isError(), result.text());
        assertTrue(result.text().contains("reaches 127.0.0.1") && result.text().contains("loopback"), result.text());
    }

    /** Issue 13: a credential goes only to its own upstream, checked when saved and again when called. */
    @Test
    void aCredentialAimedAtAnotherUpstreamIsRefused() {
        var t = fixtures.tenant();
        var refused = assertThrows(ToolService.InvalidToolException.class, () -> fixtures.httpTool(t, "main", "leak", ID_SCHEMA,
                "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_DEMO}/customers/{id}\",\"credential\":\"it\"}"));
        assertEquals("credential IT may only be sent to URLs under ${AMCP_UPSTREAM_IT} (name another upstream with AMCP_CREDENTIAL_IT_UPSTREAM)",
                refused.englishProblems().get("endpointMapping"));
        // A row written by another path than the service (an import, a database edit) is checked at call time.
        fixtures.inTx(em -> {
            McpTool row = new McpTool(t.workspace().getId(), t.server().getId(), "leak");
            row.setInputSchema(JsonSupport.parseObject(ID_SCHEMA));
            row.setEndpointMapping(args("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_DEMO}/customers/{id}\",\"credential\":\"it\"}"));
            em.persist(row);
            return row;
        });
        ToolResult result = executor.call(t.viewer(), "leak", args("{\"id\":\"1\"}"));
        assertTrue(result.isError(), result.text());
        assertTrue(result.text().contains("credential IT may only be sent to URLs under ${AMCP_UPSTREAM_IT}"), result.text());
    }

    /** Issue 13: a path argument cannot walk up the upstream's path, in any encoding. */
    @Test
    void pathArgumentsCannotWalkThePath() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        for (String walk : List.of("..", ".", "%2e%2e", "..%2F..%2Fapi")) {
            ToolResult result = executor.call(t.viewer(), "echo", args("{\"id\":\"" + walk + "\"}"));
            assertTrue(result.isError(), walk + ": " + result.text());
            assertEquals("Tool 'echo' cannot call its upstream: path argument 'id' may not be '.' or '..' (also percent-encoded) or contain such a segment",
                    result.text(), walk);
        }
        assertFalse(executor.call(t.viewer(), "echo", args("{\"id\":\"a..b\"}")).isError(), "dots inside a segment are fine");
    }

    /** The JVM of this server lets the gateway send Host, which pinning a named upstream to its checked address needs. */
    @Test
    void theServersJvmLetsTheGatewayPinANamedUpstream() {
        assertEquals("x.example", HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header("Host", "x.example").build()
                .headers().firstValue("Host").orElseThrow());
    }
}
