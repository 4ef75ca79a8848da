package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * "Try this code against a recorded run" and the dry-run button on a code tool's page, in headless Chromium against the
 * managed Liberty and the live runner: a test run records the run, edited code is replayed against it (old value beside
 * the new one), code that makes another call shows where it diverged, and a dry run lists its planned writes (none).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EditorReplayBrowserIT extends EditorBrowserSetup {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_CODE_TIMEOUT_MS", "20000"));
    }

    @Test
    void editedCodeIsTriedAgainstARecordedRunAndADryRunListsItsWrites() throws Exception {
        signIn(seedTenant("code"), "admin");
        browser.open("/admin/tools");
        browser.driver.findElement(By.linkText("echo_code")).click();
        browser.waitForPath("/admin/code-tools/");
        browser.click("#test-run"); // records the run
        assertEquals("SUCCESS", browser.text("#test-status"));

        browser.typeInEditor("replay-code", "const r = await amcp.run('echo', {id: '1'});\nreturn 'new ' + r.id;");
        browser.click("#replay-try");
        assertEquals("SUCCESS", browser.text("#replay-status"));
        assertTrue(browser.text("#replay-old").contains("\"1\""), browser.text("#replay-old"));
        assertTrue(browser.text("#replay-new").contains("new 1"), browser.text("#replay-new"));
        browser.screenshot("code-tool-replay", "#replay-panel");

        browser.typeInEditor("replay-code", "await amcp.run('echo', {id: '1'});\nreturn (await amcp.run('echo', {id: '2'})).id;");
        browser.click("#replay-try");
        assertEquals("DIVERGED", browser.text("#replay-status"));
        String diverged = browser.text("#replay-diverged");
        assertTrue(diverged.contains("#1") && diverged.contains("echo") && diverged.contains("\"2\""), diverged);
        browser.screenshot("code-tool-replay-diverged", "#replay-panel");

        browser.click("#dry-run");
        assertEquals("SUCCESS", browser.text("#test-status"));
        assertTrue(browser.present("#planned-none"), "echo_code only reads, so nothing is planned");
    }
}
