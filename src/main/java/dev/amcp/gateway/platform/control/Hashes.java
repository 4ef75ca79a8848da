package dev.amcp.gateway.platform.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** SHA-256 as lower-case hex (API key hashes and code hashes), and the random values and PKCE challenge of OAuth flows. */
public final class Hashes {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Hashes() {}

    public static String sha256(String text) {
        return HexFormat.of().formatHex(digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The PKCE {@code S256} challenge of a code verifier (RFC 7636, 4.2). */
    public static String codeChallenge(String verifier) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest(verifier.getBytes(StandardCharsets.US_ASCII)));
    }

    /** 32 random bytes, base64url without padding (43 characters): a state, a nonce, half a PKCE verifier. */
    public static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
