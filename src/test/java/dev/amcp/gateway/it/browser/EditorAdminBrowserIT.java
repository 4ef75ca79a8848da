package dev.amcp.gateway.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.it.Deployments;
import jakarta.json.JsonObject;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The administration pages in a real headless Chromium against the managed Liberty: people (add, role, password,
 * disable, enable), roles (capabilities with {@code inlineCode}, server scope, built-in roles never deleted, a held role
 * not deleted), a person's API keys (shown once, revoked; members their own only), the audit log with its filters, a
 * member who sees none of the admin pages, forged forms refused, and the pages in Italian and German. Every test seeds
 * its own workspace.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EditorAdminBrowserIT extends EditorBrowserSetup {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    private static JsonObject signedInAdmin() throws Exception {
        JsonObject tenant = seedTenant("");
        signIn(tenant, "admin");
        return tenant;
    }

    private static WebElement row(String css) {
        return browser.el(css);
    }

    private static void addUser(String username, String role, String password) {
        browser.open("/admin/users");
        browser.type("#username", username);
        browser.select("#role", role);
        browser.type("#password", password);
        browser.click("#add-user");
        browser.waitForAny("#flash", "#form-error"); // created (back on the list) or refused (the form again)
    }

    @Test
    void anAdminAddsAPersonChangesTheRoleResetsThePasswordAndDisablesThem() throws Exception {
        JsonObject tenant = signedInAdmin();
        String person = tenant.getString("workspace") + "-ada";
        assertTrue(browser.present("#nav-users") && browser.present("#nav-roles") && browser.present("#nav-audit"), "admins see the admin pages");

        addUser(person, "member", "short");
        assertTrue(browser.text("#form-error").contains("8 characters"), browser.text("#form-error"));
        assertEquals(person, browser.el("#username").getAttribute("value"), "input is kept");
        browser.click("#lang-it"); // the service's refusal in the page's language
        browser.waitForPath("/admin/users");
        addUser(person, "member", "short");
        assertTrue(browser.text("#form-error").contains("almeno 8 caratteri"), browser.text("#form-error"));
        browser.click("#lang-en");
        browser.waitForPath("/admin/users");
        browser.open("/admin/users");
        assertFalse(browser.present("tr[data-user='" + person + "']"), "nothing was saved");

        addUser(person, "member", "first-password");
        assertTrue(browser.text("#flash").contains(person), browser.text("#flash"));
        assertEquals("member", row("tr[data-user='" + person + "'] .role").getText());
        browser.screenshot("users");

        browser.click("tr[data-user='" + person + "'] a.user-link");
        browser.waitForPath("/admin/users/" + person);
        browser.select("#role", "viewer");
        browser.type("#password", "second-password");
        browser.click("#save");
        assertTrue(browser.text("#flash").contains(person), browser.text("#flash"));
        assertEquals("viewer", new org.openqa.selenium.support.ui.Select(browser.el("#role")).getFirstSelectedOption().getAttribute("value"));
        browser.screenshot("user-form");

        // The last admin cannot be disabled: the service refuses and the page says why.
        browser.open("/admin/users/" + tenant.getString("admin"));
        browser.click("#toggle-enabled");
        assertTrue(browser.text("#form-error").contains("without an enabled admin"), browser.text("#form-error"));

        browser.open("/admin/users/" + person);
        browser.click("#toggle-enabled");
        assertTrue(browser.text("#flash").contains(person));
        assertTrue(browser.text("#user-status").contains("disabled"), browser.text("#user-status"));

        browser.login(person, "second-password", false);
        assertTrue(browser.text("#login-error").length() > 0, "a disabled person cannot sign in");

        signIn(tenant, "admin");
        browser.open("/admin/users/" + person);
        browser.click("#toggle-enabled");
        assertTrue(browser.text("#user-status").contains("enabled"), browser.text("#user-status"));
        browser.login(person, "second-password");
        assertTrue(browser.text("#who").contains("viewer"), browser.text("#who"));
    }

    @Test
    void rolesGetCapabilitiesAndScopeBuiltInsAreNeverDeletedAndHeldRolesNotEither() throws Exception {
        JsonObject tenant = signedInAdmin();
        browser.open("/admin/roles");
        browser.type("#name", "analyst");
        browser.click("#cap-inlineCode");
        browser.click("#scope-chosen");
        browser.click("#server-main");
        browser.click("#create-role");
        browser.waitForPath("/admin/roles/analyst");
        assertTrue(browser.text("#flash").contains("analyst"));
        assertTrue(browser.el("#cap-inlineCode").isSelected());
        assertFalse(browser.el("#cap-admin").isSelected());
        assertTrue(browser.el("#scope-chosen").isSelected() && browser.el("#server-main").isSelected());
        browser.screenshot("role-form");

        browser.open("/admin/roles");
        assertEquals("main", row("tr[data-role='analyst'] .scope").getText().strip());
        assertTrue(row("tr[data-role='analyst'] .caps").getText().contains("inlineCode"));

        // A built-in role is re-scoped and given inlineCode, never deleted.
        browser.click("tr[data-role='member'] a.role-link");
        browser.waitForPath("/admin/roles/member");
        assertFalse(browser.present("#delete-role"), "built-in roles have no delete button");
        browser.click("#cap-inlineCode");
        browser.click("#save");
        assertTrue(browser.text("#flash").contains("member"));
        browser.open("/admin/roles");
        assertTrue(row("tr[data-role='member'] .caps").getText().contains("inlineCode"));
        browser.screenshot("roles");

        // A role someone holds is not deleted; once nobody holds it, it is.
        String holder = tenant.getString("workspace") + "-analyst";
        addUser(holder, "analyst", "analyst-password");
        browser.open("/admin/roles/analyst");
        browser.click("#delete-role");
        assertTrue(browser.text("#form-error").contains("held by 1"), browser.text("#form-error"));
        browser.open("/admin/roles");
        assertTrue(browser.present("tr[data-role='analyst']"), "still there");

        browser.open("/admin/users/" + holder);
        browser.select("#role", "member");
        browser.click("#save");
        assertTrue(browser.text("#flash").contains(holder), "the role change is saved before the role page is opened");
        browser.open("/admin/roles/analyst");
        browser.click("#delete-role");
        browser.waitForPath("/admin/roles");
        assertTrue(browser.text("#flash").contains("analyst"));
        assertFalse(browser.present("tr[data-role='analyst']"));
    }

    @Test
    void aMemberMintsTheirOwnKeyShownOnceRevokesItAndCannotSeeAnyoneElsesNorTheAdminPages() throws Exception {
        JsonObject tenant = seedTenant("");
        String member = tenant.getString("member");
        signIn(tenant, "member");
        for (String page : List.of("users", "roles", "audit")) {
            assertFalse(browser.present("#nav-" + page), "a member has no " + page + " entry");
        }
        browser.click("#my-keys");
        browser.waitForPath("/admin/users/" + member + "/keys");
        browser.type("#key-name", "laptop");
        browser.driver.executeScript("document.getElementById('key-expires').type = 'text'; document.getElementById('key-expires').value = 'soon'");
        browser.click("#mint-key");
        assertTrue(browser.text("#expiresAt-error").contains("2027-01-31"), browser.text("#expiresAt-error"));
        assertEquals("laptop", browser.el("#key-name").getAttribute("value"));
        assertTrue(browser.present("#keys-empty"), "nothing was issued");

        browser.driver.executeScript("document.getElementById('key-expires').value = ''");
        browser.click("#mint-key");
        String key = browser.text("#new-key").strip();
        assertTrue(key.startsWith("amcp_"), key);
        browser.screenshot("user-keys");
        assertEquals(200, get("/api/tools", "Authorization", "Bearer " + key).statusCode());
        browser.open("/admin/users/" + member + "/keys");
        assertFalse(browser.present("#new-key"), "the key is shown only once");

        browser.click("tr[data-name='laptop'] button.revoke");
        assertTrue(browser.text("#flash").length() > 0);
        assertTrue(row("tr[data-name='laptop'] .status").getText().contains("revoked"));
        assertEquals(401, get("/api/tools", "Authorization", "Bearer " + key).statusCode());

        // Someone else's keys and the admin pages: refused by the services' gates, whatever the address typed.
        browser.open("/admin/users/" + tenant.getString("admin") + "/keys");
        assertTrue(browser.text("#error-message").contains("own API keys"), browser.text("#error-message"));
        assertFalse(browser.present("#user-key-form"));
        for (String page : List.of("/admin/users", "/admin/roles", "/admin/audit", "/admin/users/" + member)) {
            browser.open(page);
            assertTrue(browser.text("#error-message").contains("admins"), page + ": " + browser.text("#error-message"));
        }

        // An admin sees and manages anyone's keys.
        signIn(tenant, "admin");
        browser.open("/admin/users");
        browser.click("tr[data-user='" + member + "'] a.keys-link");
        browser.waitForPath("/admin/users/" + member + "/keys");
        assertTrue(row("tr[data-name='laptop'] .status").getText().contains("revoked"));
    }

    @Test
    void theAuditLogShowsChangesWithFiltersToAdminsAndOperators() throws Exception {
        JsonObject tenant = signedInAdmin();
        browser.open("/admin/roles");
        browser.type("#name", "audited");
        browser.click("#create-role");
        browser.waitForPath("/admin/roles/audited");
        addUser(tenant.getString("workspace") + "-bob", "member", "bob-password");

        browser.click("#nav-audit");
        browser.waitForPath("/admin/audit");
        assertTrue(browser.present("tr[data-kind='role'][data-subject='audited']"));
        assertTrue(browser.present("tr[data-kind='user']"));
        assertFalse(browser.present("#filter-workspace"), "the workspace filter is an operator's");
        browser.screenshot("audit");

        browser.select("#filter-kind", "role");
        browser.click("#filter-apply");
        browser.waitForUrlContaining("kind=role");
        assertTrue(browser.present("tr[data-kind='role'][data-subject='audited']"));
        assertFalse(browser.present("tr[data-kind='user']"), "only role changes");
        browser.type("#filter-actor", tenant.getString("member"));
        browser.click("#filter-apply");
        browser.waitForUrlContaining("actor=");
        assertTrue(browser.present("#audit-empty"), "the member changed nothing");

        browser.open("/admin/audit?limit=0");
        assertTrue(browser.text("#form-error").contains("1 to 500"), browser.text("#form-error"));
        browser.click("#lang-it");
        browser.waitForPath("/admin/audit");
        assertEquals("Registro di audit", browser.text("h1"));
        browser.open("/admin/audit?limit=0");
        assertTrue(browser.text("#form-error").contains("da 1 a 500"), browser.text("#form-error"));
        browser.click("#lang-de");
        browser.waitForPath("/admin/audit");
        assertEquals("Audit-Protokoll", browser.text("h1"));
        browser.open("/admin/users");
        assertEquals("Benutzer", browser.text("h1"));
        browser.open("/admin/roles");
        assertEquals("Rollen", browser.text("h1"));
        browser.click("#lang-en");

        // The operator reads every workspace's changes, and filters by one; they have no users or roles pages.
        JsonObject operator = seedOperator();
        browser.login(operator.getString("username"), operator.getString("password"));
        assertTrue(browser.present("#nav-audit"));
        assertFalse(browser.present("#nav-users") || browser.present("#nav-roles") || browser.present("#my-keys"));
        browser.open("/admin/audit?workspace=" + tenant.getString("workspace") + "&kind=role");
        assertTrue(browser.present("tr[data-kind='role'][data-subject='audited']"));
    }

    @Test
    void formsWithoutTheRightCsrfTokenAreRefusedAndNothingIsWritten() throws Exception {
        JsonObject tenant = signedInAdmin();
        String person = tenant.getString("workspace") + "-forged";
        browser.open("/admin/users");
        browser.type("#username", person);
        browser.type("#password", "forged-password");
        forgeCsrf("#user-form");
        browser.click("#add-user");
        assertTrue(browser.text("#error-message").contains("expired"), browser.text("#error-message"));

        browser.open("/admin/roles");
        browser.type("#name", "forged");
        forgeCsrf("#role-form");
        browser.click("#create-role");
        assertTrue(browser.text("#error-message").contains("expired"));

        browser.open("/admin/users/" + tenant.getString("admin") + "/keys");
        browser.type("#key-name", "forged");
        forgeCsrf("#user-key-form");
        browser.click("#mint-key");
        assertTrue(browser.text("#error-message").contains("expired"));

        browser.open("/admin/users");
        assertFalse(browser.present("tr[data-user='" + person + "']"));
        browser.open("/admin/roles");
        assertFalse(browser.present("tr[data-role='forged']"));
        browser.open("/admin/users/" + tenant.getString("admin") + "/keys");
        assertFalse(browser.present("tr[data-name='forged']"));
    }
}
