package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import dev.amcp.gateway.it.McpHttp;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.JsonObject;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The approvals inbox in headless Chromium against the managed Liberty and the live runner: a member's code run pauses
 * before its write (through the official MCP SDK client), the workspace admin sees the planned write (tool, arguments,
 * summary) in the inbox and approves it, the order is created once, the caller collects the result with the id, and the
 * paused run's page says who decided.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ApprovalsBrowserIT extends EditorBrowserSetup {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    static McpSchema.CallToolResult call(String key, Map<String, Object> args, Map<String, Object> meta) {
        try (McpSyncClient client = McpHttp.sdkClient("/mcp/demo", key)) {
            client.initialize();
            return client.callTool(new McpSchema.CallToolRequest("order_for", args, meta));
        }
    }

    static int orders() throws Exception {
        return jakarta.json.Json.createReader(new java.io.StringReader(get("/demo-api/orders?customerId=7&limit=500").body()))
                .readObject().getInt("count");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAdminApprovesAPausedWriteInTheInbox() throws Exception {
        JsonObject t = postJson("/it-approval-setup/tenant");
        Map<String, Object> args = Map.of("customerId", 7, "note", "gift wrap");
        int before = orders();
        McpSchema.CallToolResult paused = call(t.getString("askerKey"), args, Map.of());
        String id = (String) ((Map<String, Object>) paused.meta().get("amcp/approval")).get("id");

        browser.login(t.getString("admin"), t.getString("password"));
        browser.open("/admin/approvals");
        var row = browser.driver.findElement(By.cssSelector("tr.approval[data-id='" + id + "']"));
        assertEquals("order_create", row.findElement(By.cssSelector(".planned-tool")).getText());
        assertTrue(row.findElement(By.cssSelector(".planned-args")).getText().contains("\"gift wrap\""), row.getText());
        assertTrue(row.findElement(By.cssSelector(".summary")).getText().contains("order_create"), row.getText());
        assertTrue(row.getText().contains(t.getString("slug") + "-asker"), row.getText());
        assertEquals(before, orders(), "nothing is written while the write waits");
        browser.screenshot("approvals-inbox");

        row.findElement(By.cssSelector("button.approve")).click();
        browser.waitForPath("/admin/approvals");
        assertTrue(browser.text(".flash").contains("order_for"), browser.text(".flash"));
        assertTrue(browser.present("#approvals-empty"));
        assertEquals(before + 1, orders());

        McpSchema.CallToolResult collected = call(t.getString("askerKey"), args, Map.of("amcp/approvalId", id));
        assertFalse(collected.isError(), collected.toString());
        assertEquals(7, ((Number) ((Map<String, Object>) collected.structuredContent()).get("customer")).intValue());

        String runId = jakarta.json.Json.createReader(new java.io.StringReader(get("/api/approvals/" + id, "Authorization",
                "Bearer " + t.getString("adminKey")).body())).readObject().getString("runId");
        browser.open("/admin/runs/" + runId);
        assertEquals("PAUSED", browser.text("#run-status"));
        assertTrue(browser.text("#run-approval").contains("APPROVED") && browser.text("#run-approval").contains("admin:" + t.getString("admin")),
                browser.text("#run-approval"));
        browser.screenshot("approvals-run-decided", "#run-approval");
    }
}
