package dev.amcp.gateway.governance;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

/**
 * Signs licenses with the test key pair. Servers trust the test public key only when
 * {@code AMCP_LICENSE_EXTRA_TRUSTED_KEYS} names it, as the integration tests' settings do.
 */
public final class TestLicenses {

    public static final String TEST_PUBLIC_KEY = "MCowBQYDK2VwAyEAXlHeJ5KgWYwOMckL01qPufxRJEB+7CmWY6lMh6UN+/U=";
    private static final String TEST_PRIVATE_KEY = "MC4CAQAwBQYDK2VwBCIEIA/YjwMuvjBESZRhB8xGOYVNwaxMWAbaD9O61/If4lLp";

    private TestLicenses() {}

    public static String sign(String edition, int maxCodeTools, long monthlyCodeRuns) {
        Instant now = Instant.now();
        return signPayload("{\"edition\":\"" + edition + "\",\"licensee\":\"Test Corp\",\"issuedAt\":\"" + now.truncatedTo(ChronoUnit.SECONDS)
                + "\",\"expiresAt\":\"" + now.plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS)
                + "\",\"features\":{\"maxCodeTools\":" + maxCodeTools + ",\"monthlyCodeRuns\":" + monthlyCodeRuns + "}}");
    }

    public static String signPayload(String payloadJson) {
        try {
            PrivateKey key = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(TEST_PRIVATE_KEY)));
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            byte[] payload = payloadJson.getBytes(StandardCharsets.UTF_8);
            signer.update(payload);
            return "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\",\"signature\":\""
                    + Base64.getEncoder().encodeToString(signer.sign()) + "\"}";
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
