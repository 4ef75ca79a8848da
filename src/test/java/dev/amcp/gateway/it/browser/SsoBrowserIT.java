package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Single sign-on in a real Chromium: an admin maps a group to a role on the editor's SSO page; a person then signs in
 * through the OpenID provider's own login page (mock-oauth2-server, interactive, started by the test on
 * {@code it.oidc.port}, issuer {@code /amcp}) and lands in the editor with the mapped role; a person with no mapped
 * group gets the refusal page, in their language.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SsoBrowserIT extends EditorBrowserSetup {

    private static MockOAuth2Server provider;
    private static JsonObject tenant;

    static String issuer() {
        return "http://127.0.0.1:" + System.getProperty("it.oidc.port", "18080") + "/amcp";
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway(Deployments.NAME, true, Map.of("AMCP_OIDC_ISSUER", issuer(),
                "AMCP_OIDC_CLIENT_ID", "amcp-editor", "AMCP_OIDC_CLIENT_SECRET", "amcp-editor-secret"));
    }

    @BeforeAll
    static void startProvider() throws Exception {
        provider = new MockOAuth2Server(OAuth2Config.Companion.fromJson("{\"interactiveLogin\": true}"));
        provider.start(InetAddress.getByName("127.0.0.1"), Integer.parseInt(System.getProperty("it.oidc.port", "18080")));
        tenant = seedTenant("");
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.shutdown();
        }
    }

    @Test
    void anAdminMapsAGroupAndAPersonOfItSignsInThroughTheProvidersPageWithThatRole() {
        String group = "team-" + UUID.randomUUID().toString().substring(0, 8);
        signIn(tenant, "admin");
        browser.click("#nav-sso");
        browser.type("#claimValue", group);
        browser.select("#role", "member");
        browser.click("#sso-mapping-add");
        assertTrue(browser.text("#flash").contains(group), browser.text("#flash"));
        assertTrue(browser.text("#sso-mappings-table").contains(group), "the mapping is listed");
        browser.screenshot("sso-mappings");

        browser.type("#claimValue", group + "-forged");
        forgeCsrf("#sso-mapping-form");
        browser.click("#sso-mapping-add");
        assertTrue(browser.text("#error-message").length() > 0, "a post without the session's token is refused");
        browser.open("/admin/sso-mappings");
        assertFalse(browser.text("#sso-mappings-table").contains(group + "-forged"));
        browser.click("#logout");
        browser.waitForPath("/admin/login");

        signIn(tenant, "member");
        assertFalse(browser.present("#nav-sso"), "the entry is for admins");
        browser.open("/admin/sso-mappings");
        assertTrue(browser.text("#error-message").length() > 0, "a member gets the 403 page");
        browser.click("#logout");
        browser.waitForPath("/admin/login");

        String person = "sso-" + UUID.randomUUID().toString().substring(0, 8);
        signInAtTheProvider(person, "{\"preferred_username\": \"" + person + "\", \"groups\": [\"" + group + "\"]}");
        browser.waitForPath("/admin/servers");
        assertEquals(person + " · member", browser.text("#who"), "signed in with the mapped role");
        browser.click("#logout");
        browser.waitForPath("/admin/login");
    }

    @Test
    void aPersonWithoutAMappedGroupGetsTheRefusalPageInTheirLanguage() {
        browser.open("/admin/assets/admin.css");
        browser.driver.manage().deleteAllCookies();
        browser.open("/admin/login");
        browser.click("#lang-it");
        String person = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
        signInAtTheProvider(person, "{\"preferred_username\": \"" + person + "\", \"groups\": [\"no-such-team\"]}");
        browser.waitForPath("/admin/sso/refused");
        assertTrue(browser.text("#sso-refusal").contains("nessuno dei tuoi gruppi"), browser.text("#sso-refusal"));
        browser.screenshot("sso-refused");
        browser.click("#sso-back");
        browser.waitForPath("/admin/login");
        assertFalse(browser.present("#who"), "not signed in");
        browser.click("#lang-en");
    }

    /** From the editor's login page through the provider's own sign-in form. */
    private static void signInAtTheProvider(String username, String claims) {
        browser.open("/admin/servers");
        browser.waitForPath("/admin/login");
        browser.click("#sso-start");
        new WebDriverWait(browser.driver, Duration.ofSeconds(20)).until(d -> d.getCurrentUrl().startsWith(issuer() + "/authorize"));
        browser.type("input[name=username]", username);
        browser.type("textarea[name=claims]", claims);
        browser.click("input[type=submit]");
    }
}
