package dev.amcp.gateway.editor.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** Synchronizer tokens: one random token per session, sent back in a hidden field of every state-changing form. */
public final class CsrfTokens {

    /** Name of the hidden form field and of the session attribute. */
    public static final String FIELD = "_csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfTokens() {}

    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Constant-time comparison; a missing token never matches. */
    public static boolean matches(String expected, String presented) {
        if (expected == null || presented == null) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), presented.getBytes(StandardCharsets.US_ASCII));
    }
}
