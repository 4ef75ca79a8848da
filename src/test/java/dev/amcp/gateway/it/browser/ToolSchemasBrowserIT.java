package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * "Infer from this result" and the needs-review flag in Chromium: a test call proposes an output schema, nothing is
 * saved until the admin accepts it; the accepted schema changes the tool, so the code tool that uses it shows
 * "needs review" with the change, in the list and on its page, until it is saved again.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ToolSchemasBrowserIT extends EditorBrowserSetup {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Test
    void anInferredSchemaIsSavedOnlyWhenAcceptedAndPutsTheCodeToolsUsingTheToolIntoReview() throws Exception {
        JsonObject tenant = seedTenant("code");
        signIn(tenant, "admin");
        browser.open("/admin/tools");
        assertFalse(browser.present("#needs-review-echo_code"), "nothing to review yet");
        browser.driver.findElement(By.linkText("echo")).click();
        browser.el("#test-panel");
        String savedBefore = browser.fieldValue("outputSchema");
        browser.typeInEditor("args", "{\"id\":\"42\",\"q\":\"hello\"}");
        browser.click("#test");
        assertTrue(browser.text("#test-result").contains("\"q\": \"hello\""), browser.text("#test-result"));
        String proposed = browser.fieldValue("inferredSchema");
        assertTrue(proposed.contains("\"auth\"") && proposed.contains("\"required\""), proposed);
        browser.screenshot("tool-infer-schema", "#infer-form");

        browser.open("/admin/tools");
        browser.driver.findElement(By.linkText("echo")).click();
        assertEquals(savedBefore, browser.fieldValue("outputSchema"), "a proposal is not saved by being shown");
        assertFalse(browser.present("#needs-review-echo_code"));

        browser.typeInEditor("args", "{\"id\":\"42\",\"q\":\"hello\"}");
        browser.click("#test");
        browser.click("#accept-schema");
        assertTrue(browser.text("#flash").contains("Output schema of echo saved"), browser.text("#flash"));
        assertTrue(browser.fieldValue("outputSchema").contains("\"auth\""), browser.fieldValue("outputSchema"));

        browser.open("/admin/tools");
        assertTrue(browser.present("#needs-review-echo_code"), "the code tool using echo needs review");
        browser.screenshot("tools-needs-review");
        browser.driver.findElement(By.linkText("echo_code")).click();
        String banner = browser.text("#needs-review");
        assertTrue(banner.contains("echo") && banner.contains("outputSchema: property 'auth' added"), banner);
        browser.screenshot("code-tool-needs-review");
        browser.click("#save");
        browser.el("#flash"); // the page after the save
        assertFalse(browser.present("#needs-review"), "saved again: reviewed");
        browser.open("/admin/tools");
        assertFalse(browser.present("#needs-review-echo_code"));
    }
}
