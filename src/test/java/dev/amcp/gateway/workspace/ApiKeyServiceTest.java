package dev.amcp.gateway.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.ApiKeyService;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeyServiceTest {

    @Test
    void parsesBearerHeaders() {
        assertEquals(Optional.of("abc"), ApiKeyService.bearerToken("Bearer abc"));
        assertEquals(Optional.of("abc"), ApiKeyService.bearerToken("bearer   abc "));
        assertTrue(ApiKeyService.bearerToken("Basic abc").isEmpty());
        assertTrue(ApiKeyService.bearerToken("Bearer ").isEmpty());
        assertTrue(ApiKeyService.bearerToken(null).isEmpty());
    }

    @Test
    void hashesAreStableHex() {
        assertEquals("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", ApiKeyService.sha256("hello"));
    }
}
