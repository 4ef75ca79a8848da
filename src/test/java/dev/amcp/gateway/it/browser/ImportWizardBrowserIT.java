package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The OpenAPI import wizard in Chromium: the published Petstore document by URL through the upstream rules, the
 * review table (statuses, unsupported operations, read-only choice), applying, the result; a file upload with its
 * progress; a refused URL kept on the form with the setting named; the German page; a member neither sees the entry
 * nor gets through.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ImportWizardBrowserIT extends EditorBrowserSetup {

    static final String DOC = "${AMCP_UPSTREAM_PETSTORE}/openapi/petstore-3.0.json";
    static final String BASE = "${AMCP_UPSTREAM_PETSTORE}/v2";

    @Deployment(testable = false)
    static WebArchive deployment() {
        String port = System.getProperty("it.http.port", "9180");
        return Deployments.gateway(Deployments.NAME, true, Map.of(
                "AMCP_UPSTREAM_PETSTORE", "http://127.0.0.1:" + port + "/it-petstore",
                "AMCP_CREDENTIAL_PETSTORE_VALUE", "Bearer petstore-secret-42")).addAsResource("openapi/petstore-3.0.json");
    }

    @Test
    void anAdminImportsThePetstoreThroughTheWizard() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "admin");
        browser.click("#nav-imports");
        browser.waitForPath("/admin/imports");
        browser.select("#server", "main");
        browser.type("#url", DOC);
        browser.type("#base", BASE);
        browser.screenshot("import-source");
        browser.click("#preview");
        browser.el("#operations-table");
        assertTrue(browser.text("#import-summary").contains("Swagger Petstore"), browser.text("#import-summary"));
        List<?> rows = browser.driver.findElements(By.cssSelector("#operations-table tbody tr"));
        assertEquals(20, rows.size());
        String upload = "#operations-table tr[data-operation='uploadFile']";
        assertFalse(browser.el(upload + " input[name=op]").isEnabled(), "an unsupported operation cannot be taken");
        assertTrue(browser.text(upload + " .details").contains("the HTTP invoker sends JSON only"), browser.text(upload + " .details"));
        assertTrue(browser.el("#operations-table tr[data-operation='getPetById'] input[name=ro]").isSelected(), "GET reads");
        assertFalse(browser.el("#operations-table tr[data-operation='addPet'] input[name=ro]").isSelected(), "POST writes");
        browser.screenshot("import-preview");

        // take two operations only; mark the POST placeOrder read-only
        browser.driver.executeScript("document.querySelectorAll('#operations-table input[name=op]').forEach(c => c.checked = false)");
        browser.click("#operations-table tr[data-operation='getPetById'] input[name=op]");
        browser.click("#operations-table tr[data-operation='placeOrder'] input[name=op]");
        browser.click("#operations-table tr[data-operation='placeOrder'] input[name=ro]");
        browser.click("#apply");
        browser.el("#import-result");
        assertEquals("getPetById, placeOrder", browser.text("#result-created"));
        browser.screenshot("import-result");

        browser.open("/admin/tools");
        String tools = browser.text("main");
        assertTrue(tools.contains("getPetById") && tools.contains("placeOrder") && !tools.contains("addPet"), tools);
    }

    @Test
    void aFileIsReadWithProgressAndARefusedUrlIsExplainedInGerman() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "admin");
        browser.open("/admin/imports");
        browser.click("#lang-de");
        assertEquals("Aus OpenAPI importieren", browser.text("h1"));

        browser.type("#url", "http://specs.example.com/openapi.json");
        browser.click("#preview");
        assertTrue(browser.text("#form-error").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), browser.text("#form-error"));
        assertEquals("http://specs.example.com/openapi.json", browser.el("#url").getAttribute("value"), "the input is kept");

        Path file = Files.createTempFile("petstore", ".json");
        try (InputStream in = ImportWizardBrowserIT.class.getResourceAsStream("/openapi/petstore-3.0.json")) {
            Files.write(file, in.readAllBytes());
        }
        try {
            browser.type("#url", "");
            browser.driver.findElement(By.id("file")).sendKeys(file.toString());
            long size = Files.size(file);
            new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, java.time.Duration.ofSeconds(20))
                    .until(d -> browser.fieldValue("document").length() > size / 2);
            assertTrue(browser.text("#import-progress-text").startsWith("Datei wird gelesen"), browser.text("#import-progress-text"));
            browser.type("#base", BASE);
            browser.click("#preview");
            browser.el("#operations-table");
            assertTrue(browser.text("#import-summary").contains("20 Operationen"), browser.text("#import-summary"));
        } finally {
            Files.deleteIfExists(file);
            browser.click("#lang-en");
        }
    }

    @Test
    void aMemberNeitherSeesTheWizardNorGetsThrough() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "member");
        assertFalse(browser.present("#nav-imports"));
        browser.open("/admin/imports");
        assertTrue(browser.present("#read-only-note"));
        assertFalse(browser.present("#preview"), "no preview button for a member");
        // a forged post still meets the service's gate
        String cookie = cookieHeader();
        String csrf = browser.driver.findElement(By.cssSelector("#import-form input[name=_csrf]")).getAttribute("value");
        HttpResponse<String> post = postForm("/admin/imports", cookie, "_csrf", csrf, "server", "main", "url", DOC, "base", BASE);
        assertEquals(403, post.statusCode(), post.body());
    }
}
