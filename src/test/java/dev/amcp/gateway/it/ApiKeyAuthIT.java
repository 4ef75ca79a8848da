package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.UserAdministration;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.UserChange;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Bearer API keys on the admin REST API and MCP: good, missing, unknown and revoked keys, and access changes. */
@ExtendWith(ArquillianExtension.class)
class ApiKeyAuthIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    WorkspaceService workspaces;

    @Inject
    UserAdministration userAdministration;

    @Test
    void goodKeyListsTools() throws Exception {
        var tenant = fixtures.tenant();
        HttpResponse<String> response = fixtures.get("/api/tools", "Bearer " + tenant.viewerKey());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"tools\""), response.body());
    }

    @Test
    void missingKeyGets401WithChallenge() throws Exception {
        HttpResponse<String> response = fixtures.get("/api/tools", null);
        assertEquals(401, response.statusCode());
        assertEquals("Bearer realm=\"amcp\"", response.headers().firstValue("WWW-Authenticate").orElse(""));
    }

    @Test
    void unknownKeyGets401InvalidToken() throws Exception {
        HttpResponse<String> response = fixtures.get("/api/tools", "Bearer amcp_not-a-real-key-at-all-0000000000");
        assertEquals(401, response.statusCode());
        assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
    }

    @Test
    void revokedKeyStopsWorking() throws Exception {
        var tenant = fixtures.tenant();
        assertEquals(200, fixtures.get("/api/tools", "Bearer " + tenant.memberKey()).statusCode());
        assertTrue(apiKeys.revoke(tenant.workspace().getId(), tenant.member().apiKeyId()));
        assertEquals(401, fixtures.get("/api/tools", "Bearer " + tenant.memberKey()).statusCode());
        assertTrue(apiKeys.authenticateKey(tenant.memberKey()).isEmpty());
    }

    /** Authentication answers are kept for a few seconds, but a change on this node must count at once. */
    @Test
    void roleAndServerChangesCountAtOnceDespiteTheAccessCache() throws Exception {
        var tenant = fixtures.tenant();
        String endpoint = "/mcp/" + tenant.server().getSlug();
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        assertEquals(200, fixtures.post(endpoint, "Bearer " + tenant.memberKey(), list).statusCode());
        var member = workspaces.role(tenant.workspace().getId(), "member");
        workspaces.updateRole(member.getId(), member.getCapabilities(), false, Set.of());
        var narrowed = fixtures.post(endpoint, "Bearer " + tenant.memberKey(), list);
        assertEquals(404, narrowed.statusCode(), "the role no longer reaches the server: " + narrowed.body());
        workspaces.updateRole(member.getId(), member.getCapabilities(), false, Set.of(tenant.server().getId()));
        assertEquals(200, fixtures.post(endpoint, "Bearer " + tenant.memberKey(), list).statusCode(), "a granted server counts at once");
        workspaces.setCodeMode(tenant.server().getId(), McpServerConfig.CodeMode.INLINE);
        var inline = workspaces.role(tenant.workspace().getId(), "admin");
        var caps = new TreeSet<>(inline.getCapabilities());
        caps.add("inlineCode");
        workspaces.updateRole(inline.getId(), caps, true, Set.of());
        assertTrue(fixtures.post(endpoint, "Bearer " + tenant.adminKey(), list).body().contains("code_execute"));
        workspaces.setCodeMode(tenant.server().getId(), McpServerConfig.CodeMode.OFF);
        assertFalse(fixtures.post(endpoint, "Bearer " + tenant.adminKey(), list).body().contains("code_execute"),
                "switching code mode off hides code_execute at once");
    }

    @Test
    void loweringAUsersRoleNarrowsTheKeysMintedBeforeIt() {
        var tenant = fixtures.tenant();
        // the admin's key, narrowed to member (tools.write), minted while the admin held more
        String narrowed = apiKeys.issue(tenant.admin().userId(), "narrowed", "member").plaintext();
        assertTrue(apiKeys.authenticateKey(narrowed).orElseThrow().has("tools.write"));
        userAdministration.update(tenant.admin(), tenant.member().username(), new UserChange("admin", null, null)); // keep an admin
        userAdministration.update(tenant.admin(), tenant.admin().username(), new UserChange("viewer", null, null));
        var caller = apiKeys.authenticateKey(narrowed).orElseThrow();
        assertFalse(caller.has("tools.write"), "the key carries no more than its user's role now: " + caller.role());
        assertEquals("member", caller.role().name());
    }

    @Test
    void keyOfAnotherWorkspaceCannotRevoke() {
        var a = fixtures.tenant();
        var b = fixtures.tenant();
        assertEquals(false, apiKeys.revoke(a.workspace().getId(), b.admin().apiKeyId()));
        assertTrue(apiKeys.authenticateKey(b.adminKey()).isPresent());
    }

    @Test
    void storedHashIsNotTheKey() {
        var tenant = fixtures.tenant();
        var stored = apiKeys.keys(tenant.workspace().getId());
        assertEquals(3, stored.size());
        stored.forEach(k -> {
            assertEquals(64, k.getKeyHash().length());
            assertTrue(!k.getKeyHash().contains(tenant.adminKey()) && !tenant.adminKey().equals(k.getKeyHash()));
        });
    }
}
