package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.ApiKeyService;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Bearer API keys on the admin REST API: good, missing, unknown and revoked keys. */
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
