package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Edition;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;

/**
 * Verifies signed license documents with Ed25519 (built into the JDK). A document is
 * {@code {"payload": base64(license JSON), "signature": base64(Ed25519 over the payload bytes)}}; signing the
 * exact bytes avoids any JSON canonicalisation question.
 */
public class LicenseVerifier {

    /** AMCP's license-signing public key; the private half is held by the vendor, never in this repository. */
    public static final String PRODUCTION_KEY = "MCowBQYDK2VwAyEAvPWxX5eP8kNI21lQAOQD8MmGO0gWM8CvIPYC0YTzWNc=";

    private final List<PublicKey> trusted;

    public LicenseVerifier(List<String> base64Keys) {
        this.trusted = base64Keys.stream().map(LicenseVerifier::publicKey).toList();
    }

    /** A verified document with its terms, as read. */
    public record Verified(LicenseTerms terms, String payloadJson, String signature) {}

    public Verified verify(String document) {
        JsonObject doc;
        try {
            doc = JsonSupport.parseObject(document == null ? "" : document.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The license is not a JSON document: " + e.getMessage());
        }
        String payload = JsonSupport.string(doc, "payload", null);
        String signature = JsonSupport.string(doc, "signature", null);
        if (payload == null || signature == null) {
            throw new IllegalArgumentException("The license needs both \"payload\" and \"signature\"");
        }
        byte[] payloadBytes;
        byte[] signatureBytes;
        try {
            payloadBytes = Base64.getDecoder().decode(payload);
            signatureBytes = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The license payload and signature must be base64");
        }
        if (trusted.stream().noneMatch(key -> signedBy(key, payloadBytes, signatureBytes))) {
            throw new IllegalArgumentException("The license signature is not valid for this product");
        }
        String json = new String(payloadBytes, StandardCharsets.UTF_8);
        return new Verified(terms(JsonSupport.parseObject(json)), json, signature);
    }

    static LicenseTerms terms(JsonObject license) {
        try {
            Edition edition = Edition.fromWire(license.getString("edition"));
            JsonObject features = license.containsKey("features") ? license.getJsonObject("features") : JsonObject.EMPTY_JSON_OBJECT;
            LicenseTerms base = LicenseTerms.community();
            return new LicenseTerms(edition, license.getString("licensee"), Instant.parse(license.getString("issuedAt")),
                    license.containsKey("expiresAt") ? Instant.parse(license.getString("expiresAt")) : null,
                    features.getInt("maxCodeTools", base.maxCodeTools()),
                    features.containsKey("monthlyCodeRuns") ? features.getJsonNumber("monthlyCodeRuns").longValue() : base.monthlyCodeRuns());
        } catch (NullPointerException | ClassCastException | DateTimeParseException e) {
            throw new IllegalArgumentException("The license payload lacks edition, licensee or a valid issuedAt/expiresAt");
        }
    }

    private static boolean signedBy(PublicKey key, byte[] payload, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(payload);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static PublicKey publicKey(String base64) {
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64.strip())));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("Invalid Ed25519 public key in configuration", e);
        }
    }
}
