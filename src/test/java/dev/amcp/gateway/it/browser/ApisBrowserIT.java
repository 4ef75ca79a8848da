package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import dev.amcp.gateway.it.TestUpstream;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The company APIs page and the operator's egress page in Chromium: an admin's API outside the ceiling is refused with
 * the rule named; the operator adds the rule on the egress page; the admin adds the API, sets its secret (shown only as
 * a fingerprint from then on), makes a tool under it in the tool form and tests it: the upstream got the secret. A member
 * sees neither page and a forged post meets the gate.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ApisBrowserIT extends EditorBrowserSetup {

    static final String PORT = System.getProperty("it.http.port", "9180");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(Deployments.NAME, true, Map.of());
    }

    @Test
    void anAdminAddsAnApiWithItsSecretInsideTheOperatorsCeilingAndTestsATool() throws Exception {
        JsonObject tenant = seedTenant("");
        JsonObject operator = seedOperator();
        String secret = "editor-secret-" + UUID.randomUUID();
        String shopBase = "http://127.0.0.1:" + PORT + "/it-upstream";

        signIn(tenant, "admin");
        browser.click("#nav-apis");
        browser.waitForPath("/admin/apis");
        assertTrue(browser.present("#apis-empty"));
        String far = "https://crm." + UUID.randomUUID().toString().substring(0, 8) + ".example/api";
        browser.type("#name", "shop");
        browser.type("#baseUrl", far);
        browser.click("#api-add");
        assertTrue(browser.text("#api-form-error").contains("is outside the operator's egress ceiling"), browser.text("#api-form-error"));
        assertEquals(far, browser.el("#baseUrl").getAttribute("value"), "the input is kept");

        browser.login(operator.getString("username"), operator.getString("password"));
        browser.click("#nav-egress");
        browser.waitForPath("/admin/egress");
        browser.type("#rule", "127.0.0.1:" + PORT);
        browser.type("#note", "the test upstream");
        browser.click("#egress-add");
        browser.waitForAny("#egress-form-error", "#flash");
        String added = browser.present("#egress-form-error") ? browser.text("#egress-form-error") : browser.text("#flash");
        assertTrue(added.contains("127.0.0.1:" + PORT), added); // added now, or by an earlier test ("exists already")
        assertTrue(browser.present("#egress-table tr[data-rule='127.0.0.1:" + PORT + "']"));
        // The grants of the operator's own upstreams: a slug that names no workspace is refused beside the form.
        browser.select("#grant-upstream", "IT");
        browser.type("#grant-workspace", "no-such-workspace");
        browser.click("#grant-add");
        assertTrue(browser.text("#grant-form-error").contains("'no-such-workspace' is none"), browser.text("#grant-form-error"));
        browser.el("#grant-workspace").clear();
        browser.type("#grant-workspace", tenant.getString("workspace"));
        browser.click("#grant-add");
        assertTrue(browser.text("#flash").contains("Granted IT to " + tenant.getString("workspace")), browser.text("#flash"));
        String grantRow = "#grants-table tr[data-grant='IT " + tenant.getString("workspace") + "']";
        assertTrue(browser.present(grantRow));
        browser.screenshot("egress");
        browser.click(grantRow + " button[id^=grant-revoke-]");
        assertTrue(browser.text("#flash").contains("Grant revoked"), browser.text("#flash"));
        assertFalse(browser.present(grantRow));

        signIn(tenant, "admin");
        browser.open("/admin/apis");
        browser.type("#name", "shop");
        browser.type("#baseUrl", shopBase);
        browser.type("#description", "Orders and customers");
        browser.click("#api-add");
        assertTrue(browser.text("#flash").contains("Added shop"), browser.text("#flash"));
        String section = "section[data-api='shop']";
        assertTrue(browser.text(section + " .api-credential").contains("No credential"));
        browser.select(section + " select[name=kind]", "header");
        browser.type(section + " input[name=header-header]", "X-Api-Key");
        browser.type(section + " input[name=secret]", secret);
        browser.click(section + " button[id$=-set-credential]");
        assertTrue(browser.text("#flash").contains("Credential of shop saved"), browser.text("#flash"));
        String shown = browser.text(section + " .api-credential");
        assertTrue(shown.matches("Credential: header, fingerprint [0-9a-f]{8}, set by .+"), shown);
        assertFalse(browser.driver.getPageSource().contains(secret), "the page never shows the secret");
        browser.screenshot("apis");

        browser.open("/admin/tools/new?server=main");
        browser.type("#name", "shop_headers");
        browser.select("#method", "GET");
        browser.select("#upstream", "shop");
        browser.type("#url", "/headers");
        browser.click("#save");
        browser.waitForPath("/admin/tools/");
        assertTrue(browser.text("#flash").contains("shop_headers"), browser.text("#flash"));
        browser.click("#test");
        String result = browser.text("#test-result");
        assertTrue(result.contains(TestUpstream.sha256(secret)), "the upstream got the secret: " + result);
        assertFalse(browser.driver.getPageSource().contains(secret));
    }

    @Test
    void aMemberSeesNeitherPageAndAForgedPostMeetsTheGate() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "member");
        assertFalse(browser.present("#nav-apis"));
        assertFalse(browser.present("#nav-egress"));
        browser.open("/admin/tools");
        String cookie = cookieHeader();
        String csrf = browser.driver.findElement(By.cssSelector("input[name=_csrf]")).getAttribute("value");
        HttpResponse<String> post = postForm("/admin/apis", cookie, "_csrf", csrf, "name", "x", "baseUrl", "https://x.example");
        assertEquals(403, post.statusCode(), post.body());
        assertEquals(403, get("/admin/apis", "Cookie", cookie).statusCode());
        assertEquals(403, postForm("/admin/egress", cookie, "_csrf", csrf, "rule", "0.0.0.0/0").statusCode(), "operators only");
    }
}
