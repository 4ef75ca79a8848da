package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import dev.amcp.gateway.it.EverythingUpstream;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * The Upstream MCP page in Chromium, against server-everything from npm: an admin registers it, sees its tools with
 * read/write from the hints, marks a write tool read-only, refreshes and reviews the diff, deletes it; a refused URL
 * stays on the form with the setting named; a member sees no entry and a forged post meets the gate.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class UpstreamServersBrowserIT extends EditorBrowserSetup {

    @RegisterExtension
    static final EverythingUpstream EVERYTHING = new EverythingUpstream();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_UPSTREAM_EVERYTHING", "http://127.0.0.1:" + EverythingUpstream.port()));
    }

    @Test
    void anAdminRegistersRefreshesAndDeletesAnUpstream() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "admin");
        browser.click("#nav-upstreams");
        browser.waitForPath("/admin/upstream-servers");
        assertTrue(browser.present("#upstreams-empty"));

        browser.type("#name", "everything");
        browser.type("#url", "http://mcp.example.com/mcp");
        browser.click("#upstream-register");
        assertTrue(browser.text("#upstream-form-error").contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), browser.text("#upstream-form-error"));
        assertEquals("http://mcp.example.com/mcp", browser.el("#url").getAttribute("value"), "the input is kept");

        browser.type("#url", "${AMCP_UPSTREAM_EVERYTHING}/mcp");
        browser.type("#prefix", "ev_");
        browser.select("#server", "main");
        browser.click("#upstream-register");
        assertTrue(browser.text("#flash").contains("Registered everything"), browser.text("#flash"));
        String section = "section[id^=upstream-]";
        String echo = section + " tr[data-tool='ev_echo']";
        String toggle = section + " tr[data-tool='ev_toggle-simulated-logging']";
        assertTrue(browser.text(echo).contains("read-only"), browser.text(echo));
        assertTrue(browser.text(toggle).contains("writes"), browser.text(toggle));
        assertFalse(browser.present(echo + " button"), "a tool read-only by its hints cannot be made a write tool");
        browser.screenshot("upstream-servers");

        browser.click(toggle + " button");
        assertTrue(browser.text(toggle).contains("marked by an admin"), browser.text(toggle));

        browser.click("button[id$=-refresh]");
        browser.el("#refresh-table");
        assertEquals("unchanged", browser.el("#refresh-table tr[data-tool='ev_get-sum']").getAttribute("data-status"));
        assertFalse(browser.el("#refresh-table tr[data-tool='ev_get-sum'] input[name=tool]").isEnabled(), "nothing to take");
        browser.screenshot("upstream-refresh");
        browser.open("/admin/tools");
        browser.driver.findElement(By.linkText("ev_echo")).click();
        browser.waitForPath("/admin/upstream-servers"); // an upstream's tool is managed on its upstream's page

        browser.click("button[id$=-delete]");
        assertTrue(browser.text("#flash").contains("Deleted everything"), browser.text("#flash"));
        assertTrue(browser.present("#upstreams-empty"));
        browser.open("/admin/tools");
        assertFalse(browser.text("main").contains("ev_echo"), "its tools went with it");
    }

    @Test
    void aMemberSeesNoEntryAndAForgedPostMeetsTheGate() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "member");
        assertFalse(browser.present("#nav-upstreams"));
        browser.open("/admin/tools");
        String cookie = cookieHeader();
        String csrf = browser.driver.findElement(By.cssSelector("input[name=_csrf]")).getAttribute("value");
        HttpResponse<String> post = postForm("/admin/upstream-servers", cookie, "_csrf", csrf, "server", "main", "name", "x",
                "url", "${AMCP_UPSTREAM_EVERYTHING}/mcp");
        assertEquals(403, post.statusCode(), post.body());
        HttpResponse<String> forged = postForm("/admin/upstream-servers", cookie, "_csrf", "forged-token", "server", "main", "name", "x",
                "url", "${AMCP_UPSTREAM_EVERYTHING}/mcp");
        assertEquals(403, forged.statusCode(), "the CSRF filter refuses a forged token");
        assertEquals(403, get("/admin/upstream-servers", "Cookie", cookie).statusCode());
    }
}
