package dev.amcp.gateway.workspace.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The parts of {@link BearerAuthenticator} that need no container; the rest runs in {@code OAuthMcpIT}. */
class BearerAuthenticatorTest {

    @Test
    void jwtsAreToldApartFromApiKeys() {
        assertTrue(BearerAuthenticator.looksLikeJwt("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln"));
        assertFalse(BearerAuthenticator.looksLikeJwt("amcp_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"));
        assertFalse(BearerAuthenticator.looksLikeJwt("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0"), "two parts: a JWS has three");
        assertFalse(BearerAuthenticator.looksLikeJwt("eyJ.a.b.c.d"), "five parts is a JWE, not accepted");
    }

    @Test
    void thePublicUrlIsAnAbsoluteHttpUrlWithoutTrailingSlash() {
        assertEquals("https://mcp.example.com", BearerAuthenticator.publicUrl(" https://mcp.example.com/ "));
        assertEquals("https://example.com/gw", BearerAuthenticator.publicUrl("https://example.com/gw"));
        assertThrows(IllegalStateException.class, () -> BearerAuthenticator.publicUrl("mcp.example.com"));
        assertThrows(IllegalStateException.class, () -> BearerAuthenticator.publicUrl("ftp://mcp.example.com"));
        assertThrows(IllegalStateException.class, () -> BearerAuthenticator.publicUrl("https://mcp.example.com/?a=1"));
    }

    @Test
    void onlyPathsAServerCanHaveGetMetadata() {
        assertTrue(BearerAuthenticator.ENDPOINT.matcher("/mcp").matches());
        assertTrue(BearerAuthenticator.ENDPOINT.matcher("/mcp/shop_2-x").matches());
        assertFalse(BearerAuthenticator.ENDPOINT.matcher("/mcp/Shop").matches());
        assertFalse(BearerAuthenticator.ENDPOINT.matcher("/mcp/a\"b").matches());
        assertFalse(BearerAuthenticator.ENDPOINT.matcher("/mcp/a/b").matches());
    }
}
