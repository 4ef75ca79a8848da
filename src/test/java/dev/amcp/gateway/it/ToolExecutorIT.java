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
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.Set;
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
}
