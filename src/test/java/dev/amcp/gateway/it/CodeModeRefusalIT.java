package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code never runs in the gateway: with no runner configured, an unreachable runner or a rejected token, every run
 * is refused with a clear error and still audited.
 */
@ExtendWith(ArquillianExtension.class)
class CodeModeRefusalIT {

    @Deployment(name = "unset")
    static WebArchive unset() {
        return Deployments.gateway("amcp-unset", false, Map.of("CODE_RUNNER_URL", "", "CODE_RUNNER_TOKEN", ""));
    }

    @Deployment(name = "unreachable")
    static WebArchive unreachable() {
        return Deployments.gateway("amcp-unreachable", false, Map.of("CODE_RUNNER_URL", "ws://127.0.0.1:9", "CODE_RUNNER_TOKEN", "x"));
    }

    @Deployment(name = "badtoken")
    static WebArchive badToken() {
        Deployments.requireRunner();
        return Deployments.gateway("amcp-badtoken", false, Map.of("CODE_RUNNER_TOKEN", "not-the-runner-token-at-all"));
    }

    @Inject
    Fixtures fixtures;

    @Inject
    WorkspaceService workspaces;

    @Inject
    CodeToolService codeTools;

    @Inject
    ToolExecutor executor;

    @Inject
    ToolCatalog catalog;

    @Inject
    CodeRunQueries runs;

    private ToolResult runSavedTool(Fixtures.Tenant t) {
        fixtures.httpTool(t, "main", "echo", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/1\"}");
        codeTools.create(t.admin(), new CodeToolDraft(new ToolDraft("main", "saved", null, null, null, null, null),
                new CodeToolSpec("return 1", List.of("echo"), "invoker", false)));
        return executor.call(t.viewer(), "saved", JsonObject.EMPTY_JSON_OBJECT);
    }

    private String lastStatus(Fixtures.Tenant t) {
        return runs.list(t.admin(), new CodeRunQueries.Filter(null, null, null, null, null, 1)).get(0).getStatus();
    }

    @Test
    @OperateOnDeployment("unset")
    void withoutARunnerCodeModeIsUnavailable() {
        var t = fixtures.tenant();
        workspaces.setCodeMode(t.server().getId(), McpServerConfig.CodeMode.INLINE);
        var r = workspaces.role(t.workspace().getId(), "admin");
        workspaces.updateRole(r.getId(), java.util.Set.of("admin", "tools.write", "inlineCode"), true, java.util.Set.of());
        var admin = fixtures.apiKeysAuth(t.adminKey()).withScope(CallScope.server(t.server().getId()));
        assertTrue(catalog.list(admin).stream().noneMatch(d -> d.name().equals("code_execute")));
        ToolResult result = runSavedTool(t);
        assertTrue(result.isError());
        assertTrue(result.text().contains("not configured"), result.text());
        assertEquals("REFUSED", lastStatus(t));
    }

    @Test
    @OperateOnDeployment("unreachable")
    void anUnreachableRunnerRefusesTheRun() throws Exception {
        var t = fixtures.tenant();
        ToolResult result = runSavedTool(t);
        assertTrue(result.isError());
        assertTrue(result.text().contains("unreachable"), result.text());
        assertEquals("REFUSED", lastStatus(t));
        var health = fixtures.getAbsolute(fixtures.serverUrl() + "/health/ready");
        assertEquals(200, health.statusCode(), "an unreachable runner degrades code mode but the gateway stays ready: " + health.body());
        assertTrue(health.body().contains("\"state\":\"degraded\""), health.body());
    }

    @Test
    @OperateOnDeployment("badtoken")
    void aRejectedTokenRefusesTheRun() {
        var t = fixtures.tenant();
        ToolResult result = runSavedTool(t);
        assertTrue(result.isError());
        // The runner is up (the shared one); only the token is wrong, and the error must say so, not "unreachable".
        assertTrue(result.text().contains("The code runner rejected the gateway's credentials (check CODE_RUNNER_TOKEN)"), result.text());
        assertEquals("REFUSED", lastStatus(t));
    }
}
