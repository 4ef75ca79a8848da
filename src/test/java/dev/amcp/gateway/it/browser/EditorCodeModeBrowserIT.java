package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The editor's code-mode pages in a real headless Chromium against the managed Liberty and the live code runner:
 * writing a code tool with completion, its save errors, a test run with console and trace, the run history, a trial
 * license refusing a code tool, the proposals inbox, and the pages in Italian and German, with the services' refusals
 * and field problems in those languages too. Every test seeds its own
 * workspace (an HTTP tool {@code echo}, a code tool {@code echo_code}, two proposals).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EditorCodeModeBrowserIT extends EditorBrowserSetup {

    @Deployment(testable = false)
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway();
    }

    /** These pages are checked under the community terms; licenses are per gateway, and other tests install theirs. */
    @BeforeEach
    void communityTerms() throws Exception {
        uninstallLicense();
    }

    private static void uninstallLicense() throws Exception {
        HttpResponse<String> reset = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/it-seed/editor-tenant/license")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, reset.statusCode(), reset.body());
    }

    /** A fresh workspace, signed in as its admin. */
    private static JsonObject signedInTenant() throws Exception {
        JsonObject tenant = seedTenant("code");
        signIn(tenant, "admin");
        return tenant;
    }

    private static String completions() {
        return browser.text(".cm-tooltip-autocomplete");
    }

    @Test
    void aCodeToolIsWrittenWithCompletionSavedAfterAUsesErrorAndTestRunWithItsTrace() throws Exception {
        signedInTenant();
        browser.open("/admin/tools");
        browser.click("#new-code-tool");
        browser.waitForPath("/admin/code-tools/new");
        browser.select("#server", "main");
        browser.type("#name", "echo_twice");
        assertFalse(browser.el("#allowWrites").isEnabled(), "the community edition has no writing code tools");
        assertTrue(browser.text("#allowWrites-help").contains("Enterprise"));

        // Completion of tool names inside amcp.run("…"), then of the chosen tool's argument names.
        browser.typeInEditor("code", "await amcp.run(\"ec");
        assertTrue(completions().contains("echo"), completions());
        assertFalse(completions().contains("echo_code"), "code tools cannot be called from code: " + completions());
        WebElement content = browser.el(".cm-editor[data-for='code'] .cm-content");
        content.sendKeys(Keys.ESCAPE);
        browser.typeInEditor("code", "await amcp.run(\"echo\", {q");
        assertTrue(completions().contains("q"), completions());
        assertTrue(completions().contains("string (optional)"), "the argument's type, from the declarations: " + completions());
        browser.screenshot("code-tool-completion"); // with the completion list open
        content.sendKeys(Keys.ESCAPE);
        // The fields of a tool's result, from its output schema.
        browser.typeInEditor("code", "\nconst seen = await amcp.run(\"echo\", {id: \"1\"});\nseen.i");
        assertTrue(completions().contains("id"), completions());
        content.sendKeys(Keys.ESCAPE);

        // A tool that is not in the workspace: the uses list takes it from the code, and the service refuses it.
        browser.typeInEditor("code", "const r = await amcp.run(\"echo\", {id: input.id}); await amcp.describe('not_here'); "
                + "console.log(\"got \" + r.id); return {echoed: r.id};");
        browser.typeInEditor("inputSchema", "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}");
        browser.waitForSelected("#uses", java.util.List.of("echo", "not_here")); // the runner reads the names
        assertEquals(java.util.List.of("echo", "not_here"), new Select(browser.el("#uses")).getAllSelectedOptions().stream()
                .map(o -> o.getAttribute("value")).toList(), "uses is prefilled from the code when the editor is left");
        browser.click("#save");
        assertTrue(browser.text("#form-error").length() > 0);
        assertTrue(browser.text("#uses-error").contains("not_here"), browser.text("#uses-error"));
        assertEquals("echo_twice", browser.el("#name").getAttribute("value"), "input is kept");
        assertTrue(browser.fieldValue("code").contains("console.log"), "the code is kept");
        browser.screenshot("code-tool-errors");

        browser.typeInEditor("code", "const r = await amcp.run(\"echo\", {id: input.id}); console.log(\"got \" + r.id); return {echoed: r.id};");
        new Select(browser.el("#uses")).deselectByValue("not_here");
        browser.click("#save");
        browser.waitForPath("/admin/code-tools/");
        assertTrue(browser.text("#flash").contains("echo_twice"));

        browser.typeInEditor("input", "{\"id\":\"42\"}");
        browser.click("#test-run");
        assertTrue(browser.text("#test-result").contains("\"echoed\": \"42\""), browser.text("#test-result"));
        assertEquals("SUCCESS", browser.text("#test-status"));
        assertTrue(browser.text("#run-console").contains("got 42"), browser.text("#run-console"));
        String trace = browser.text("#run-trace");
        assertTrue(trace.contains("echo") && trace.contains("ok"), trace);
        browser.screenshot("code-tool-test", "#test-panel");

        browser.open("/admin/runs?tool=echo_twice&status=SUCCESS");
        assertTrue(browser.text("#runs-table").contains("SUCCESS"));
        browser.screenshot("runs");
        browser.click("#runs-table a.run-link");
        browser.waitForPath("/admin/runs/");
        assertEquals("SUCCESS", browser.text("#run-status"));
        assertTrue(browser.text("#run-trace").contains("echo"));
        browser.screenshot("run-detail");
        browser.open("/admin/runs?status=TIMEOUT");
        assertTrue(browser.present("#runs-empty"), "the status filter applies");
    }

    @Test
    void aTrialLicenseBlocksTheThirdCodeToolOnTheFormAndTheLicensePageShowsIt() throws Exception {
        JsonObject tenant = signedInTenant(); // has one code tool already
        try {
            browser.open("/admin/license");
            assertEquals("community", browser.text("#license-edition"));
            // The license is the instance's: a workspace admin sees the terms and the usage, but no install form.
            assertTrue(browser.present("#license-operator-note"), "admins are told that the operator installs licenses");
            assertFalse(browser.present("#license-install"), "no install or remove form for a workspace admin");

            // The operator installs it in the editor: a bad document is refused with the reason, a signed one installed.
            JsonObject operator = seedOperator();
            browser.login(operator.getString("username"), operator.getString("password"));
            browser.open("/admin/license");
            assertFalse(browser.present("#license-operator-note"));
            assertFalse(browser.present("#usage-tools"), "an operator belongs to no workspace: no usage to show");
            browser.driver.executeScript("document.getElementById('document').value = arguments[0]", "{\"payload\":\"bm90\",\"signature\":\"bm90\"}");
            browser.click("#install-license");
            assertTrue(browser.text("#form-error").contains("signature"), browser.text("#form-error"));
            browser.driver.executeScript("document.getElementById('document').value = arguments[0]", TestLicenses.sign("trial", 2, 100));
            browser.click("#install-license");
            assertTrue(browser.text("#flash").contains("trial"), browser.text("#flash"));
            assertEquals("trial", browser.text("#license-edition"));

            browser.login(tenant.getString("admin"), tenant.getString("password"));
            browser.open("/admin/license");
            assertEquals("trial", browser.text("#license-edition"));
            assertTrue(browser.text("#usage-tools-text").contains("1"), browser.text("#usage-tools-text"));

            createCodeTool("second_tool");
            browser.waitForPath("/admin/code-tools/");
            assertTrue(browser.text("#flash").contains("second_tool"));

            createCodeTool("third_tool");
            String refusal = browser.text("#form-error");
            assertTrue(refusal.contains("3 code tools") && refusal.contains("allows 2"), refusal);
            assertEquals("third_tool", browser.el("#name").getAttribute("value"), "input is kept");
            browser.screenshot("code-tool-license-refused");

            browser.open("/admin/license");
            assertTrue(browser.text("#license-warnings").contains("2"), browser.text("#license-warnings"));
            browser.screenshot("license");

            // The same refusal in the person's language, input kept.
            browser.click("#lang-it");
            browser.waitForPath("/admin/license");
            createCodeTool("third_tool");
            assertEquals("Il gateway ha rifiutato: Questo workspace avrebbe 3 strumenti di codice; la licenza trial ne consente 2."
                    + " Non è stato salvato nulla.", browser.text("#form-error"));
            assertEquals("third_tool", browser.el("#name").getAttribute("value"));
            browser.screenshot("code-tool-license-refused-it");
            browser.click("#lang-de");
            browser.waitForPath("/admin/code-tools/new");
            createCodeTool("third_tool");
            assertTrue(browser.text("#form-error").contains("Dieser Workspace hätte 3 Code-Werkzeuge; die Lizenz trial erlaubt 2."),
                    browser.text("#form-error"));

        } finally {
            uninstallLicense();
        }
    }

    private static void createCodeTool(String name) {
        browser.open("/admin/code-tools/new?server=main");
        browser.type("#name", name);
        browser.typeInEditor("code", "return 1;");
        browser.click("#save");
    }

    @Test
    void aProposalIsReviewedWithADiffRefusedOnANameClashAndAccepted() throws Exception {
        signedInTenant();
        browser.open("/admin/proposals");
        String inbox = browser.text("#proposals-table");
        assertTrue(inbox.contains("echo_code") && inbox.contains("echo_proxy"), inbox);
        browser.screenshot("proposals");

        browser.click("tr[data-name='echo_code'] a");
        String diff = browser.text("#proposal-diff");
        assertTrue(diff.contains("const s = await amcp.run('echo', {id: '2'});"), diff);
        assertEquals(1, browser.driver.findElements(By.cssSelector("#proposal-diff .removed")).size());
        assertEquals(2, browser.driver.findElements(By.cssSelector("#proposal-diff .added")).size());
        browser.screenshot("proposal-diff");
        browser.click("#accept");
        assertTrue(browser.text("#proposal-problems").contains("already exists"), browser.text("#proposal-problems"));
        browser.type("#note", "Same name as an existing tool");
        browser.click("#reject");
        assertTrue(browser.text("#flash").contains("echo_code"));

        browser.click("tr[data-name='echo_proxy'] a");
        browser.click("#accept");
        browser.waitForPath("/admin/code-tools/");
        assertTrue(browser.text("#flash").contains("echo_proxy"));
        assertTrue(browser.fieldValue("code").contains("input.id"));

        browser.open("/admin/proposals?status=accepted");
        assertTrue(browser.text("#proposals-table").contains("echo_proxy"));
        browser.open("/admin/proposals");
        assertTrue(browser.present("#proposals-empty"), "nothing is pending any more");
    }

    @Test
    void codeModePagesSpeakItalianAndGerman() throws Exception {
        signedInTenant();
        browser.open("/admin/license");
        browser.click("#lang-it");
        browser.waitForPath("/admin/license");
        assertEquals("Licenza", browser.text("h1"));
        assertEquals("Esecuzioni", browser.text("#nav-runs"));
        browser.open("/admin/code-tools/new?server=main");
        assertEquals("Nuovo strumento di codice", browser.text("h1"));
        assertTrue(browser.text("#allowWrites-help").contains("l'edizione Enterprise"), browser.text("#allowWrites-help"));

        browser.click("#lang-de");
        browser.waitForPath("/admin/code-tools/new");
        assertEquals("Neues Code-Werkzeug", browser.text("h1"));
        // The service's field problems in German, next to their fields.
        browser.typeInEditor("code", "return await amcp.run('gibt_es_nicht', {});");
        browser.type("#name", "echo_code"); // leaving the editor fills uses from the code
        browser.click("#save");
        assertEquals("Ein Werkzeug namens 'echo_code' gibt es in diesem Workspace schon.", browser.text("#name-error"));
        assertEquals("'gibt_es_nicht' ist kein Werkzeug dieses Workspace.", browser.text("#uses-error"));
        browser.screenshot("code-tool-errors-de");
        browser.open("/admin/runs");
        assertEquals("Code-Ausführungen", browser.text("h1"));
        browser.open("/admin/proposals");
        assertEquals("Vorgeschlagene Code-Werkzeuge", browser.text("h1"));
        browser.click("#lang-en");
        assertEquals("Proposed code tools", browser.text("h1"));
    }
}
