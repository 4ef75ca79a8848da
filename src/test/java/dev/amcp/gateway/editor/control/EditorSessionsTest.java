package dev.amcp.gateway.editor.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.editor.entity.PendingSignIn;
import dev.amcp.gateway.platform.entity.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a stored editor session keeps, and that the row alone neither opens nor reveals it. */
class EditorSessionsTest {

    static final String COOKIE = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    static final String OTHER_COOKIE = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    static Map<String, Object> everyKind() {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("amcp.signedIn", "alice");
        attributes.put("amcp.loginRetryAt", 1_800_000_000_000L);
        attributes.put("amcp.flashWarnings", new ArrayList<>(List.of("one", "two")));
        attributes.put("newKey", "amcp_secret-key-shown-once-0123456789");
        Map<String, PendingSignIn> pending = new LinkedHashMap<>();
        pending.put("state-1", new PendingSignIn("state-1", "nonce", "verifier", "http://x/cb", "http://idp/auth", Instant.parse("2026-12-06T09:00:00Z")));
        attributes.put("amcp.sso.pending", pending);
        attributes.put("refusal", Message.of("sso.refused.state", "The sign-in took too long ({0}).", "x"));
        return attributes;
    }

    @Test
    void everyKindOfAttributeComesBackAsItWasKept() {
        Map<String, Object> kept = everyKind();
        assertEquals(kept, EditorSessions.open(COOKIE, EditorSessions.seal(COOKIE, kept)));
    }

    @Test
    void theSealedRowNamesNoValueAndOpensOnlyWithItsCookie() {
        String sealed = EditorSessions.seal(COOKIE, everyKind());
        String decoded = new String(Base64.getDecoder().decode(sealed), java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String clear : List.of("alice", "amcp_secret-key-shown-once", "verifier", "amcp.signedIn")) {
            assertFalse(sealed.contains(clear) || decoded.contains(clear), clear + " is in the row");
        }
        assertThrows(IllegalStateException.class, () -> EditorSessions.open(OTHER_COOKIE, sealed), "another cookie's key");
        char[] altered = sealed.toCharArray();
        altered[40] = altered[40] == 'A' ? 'B' : 'A';
        assertThrows(IllegalStateException.class, () -> EditorSessions.open(COOKIE, new String(altered)), "one altered character");
        assertFalse(EditorSessions.idHash(COOKIE).contains(COOKIE));
        assertTrue(EditorSessions.idHash(COOKIE).matches("[0-9a-f]{64}"));
    }

    /** A class outside what a session may hold is refused when read, even from a correctly sealed row. */
    @Test
    void aClassOutsideTheAllowedOnesIsRefused() {
        Map<String, Object> odd = new HashMap<>();
        odd.put("file", new java.io.File("/etc/passwd"));
        assertThrows(IllegalStateException.class, () -> EditorSessions.open(COOKIE, EditorSessions.seal(COOKIE, odd)));
    }

    @Test
    void aSessionThatOutgrowsItsRoomIsRefusedWhenWritten() {
        Map<String, Object> big = new HashMap<>();
        big.put("x", "y".repeat(20_000));
        assertThrows(IllegalArgumentException.class, () -> EditorSessions.seal(COOKIE, big));
    }
}
