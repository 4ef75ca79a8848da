package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Stateless {@code Mcp-Session-Id}s. A session id is a signed token, never an entry in a node's memory, so any
 * gateway node can check it: {@code base64url(payload).base64url(HMAC-SHA256)}. The payload holds the negotiated
 * revision, the workspace, the API key id, the endpoint, the issue time and a nonce. The HMAC key is derived from
 * {@code AMCP_SESSION_SECRET} (optional; the same on every node) and the presented API key, so a session id is
 * worthless without its key and a leaked id cannot be replayed by another caller.
 */
@ApplicationScoped
public class McpSessions {

    public static final String SECRET_SETTING = "AMCP_SESSION_SECRET";
    public static final String TTL_SETTING = "AMCP_SESSION_TTL_HOURS";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final int MAX_LENGTH = 512;
    // Kept per thread: getInstance searches the security providers on every call (about 2 % of a tools/call's CPU).
    // Each use leaves them reset: digest() and doFinal() do, and init() replaces the key.
    private static final ThreadLocal<MessageDigest> SHA_256 = perThread(() -> MessageDigest.getInstance("SHA-256"));
    private static final ThreadLocal<Mac> HMAC_SHA_256 = perThread(() -> Mac.getInstance("HmacSHA256"));

    @Inject
    Settings settings;

    /** A verified session. */
    public record Session(String id, ProtocolVersion version, String nonce) {}

    public String issue(ProtocolVersion version, Caller caller, String endpoint, String bearerToken) {
        byte[] nonce = new byte[9];
        RANDOM.nextBytes(nonce);
        String payload = String.join("|", "v1", version.wire(), Long.toString(caller.workspaceId()),
                String.valueOf(caller.apiKeyId()), endpoint, Long.toString(Instant.now().getEpochSecond()), B64.encodeToString(nonce));
        String body = B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return body + "." + B64.encodeToString(mac(bearerToken, body));
    }

    /** The session if the id is well-formed, correctly signed for this key, bound to this caller and endpoint, and not expired. */
    public Optional<Session> verify(String id, Caller caller, String endpoint, String bearerToken) {
        if (id == null || id.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        int dot = id.indexOf('.');
        if (dot <= 0 || dot != id.lastIndexOf('.')) {
            return Optional.empty();
        }
        String body = id.substring(0, dot);
        try {
            byte[] signature = Base64.getUrlDecoder().decode(id.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, mac(bearerToken, body))) {
                return Optional.empty();
            }
            String[] parts = new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8).split("\\|", -1);
            if (parts.length != 7 || !"v1".equals(parts[0])) {
                return Optional.empty();
            }
            ProtocolVersion version = ProtocolVersion.of(parts[1]);
            Instant issued = Instant.ofEpochSecond(Long.parseLong(parts[5]));
            Duration ttl = Duration.ofHours(settings.getLong(TTL_SETTING, 24 * 7));
            boolean bound = parts[2].equals(Long.toString(caller.workspaceId()))
                    && parts[3].equals(String.valueOf(caller.apiKeyId())) && parts[4].equals(endpoint);
            if (version == null || !bound || issued.plus(ttl).isBefore(Instant.now())) {
                return Optional.empty();
            }
            return Optional.of(new Session(id, version, parts[6]));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private byte[] mac(String bearerToken, String body) {
        MessageDigest sha = SHA_256.get();
        sha.update(settings.get(SECRET_SETTING, "").getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(bearerToken.getBytes(StandardCharsets.UTF_8));
        Mac mac = HMAC_SHA_256.get();
        try {
            mac.init(new SecretKeySpec(sha.digest(), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
        }
        return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
    }

    /** An algorithm's instance; every JDK has SHA-256 and HmacSHA256. */
    private interface Algorithm<T> {
        T get() throws GeneralSecurityException;
    }

    private static <T> ThreadLocal<T> perThread(Algorithm<T> algorithm) {
        return ThreadLocal.withInitial(() -> {
            try {
                return algorithm.get();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A short, non-reversible tag of a session for logs and cancellation keys. */
    public static String tag(String sessionId) {
        byte[] digest = SHA_256.get().digest(sessionId.getBytes(StandardCharsets.US_ASCII));
        return HexFormat.of().formatHex(digest, 0, 8);
    }
}
