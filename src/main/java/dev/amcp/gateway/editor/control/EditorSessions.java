package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.MasterKeys;
import dev.amcp.gateway.platform.control.ScheduledWork;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The editor's sessions in {@code editor_sessions}, so that any node serves any editor request. The browser holds a
 * random cookie; the row is found by its SHA-256 and its attributes are sealed with AES-GCM under a key derived from
 * it, so the table alone opens no session. Each write names the version it read: of two nodes writing one session at
 * once, the second is told to read again ({@link #save} answers false). A session idle for {@value #IDLE_MINUTES}
 * minutes is gone.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRES_NEW)
public class EditorSessions {

    public static final int IDLE_MINUTES = 30;
    /** How stale a row's last access may be before a read moves it (a write per request would cost every page). */
    static final Duration TOUCH_AFTER = Duration.ofMinutes(1);
    static final int MAX_SEALED_CHARS = 16_000;
    private static final String CONTEXT = "amcp editor session";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** What a session may hold: strings, numbers, lists and maps of them, sign-ins under way, messages. */
    private static final ObjectInputFilter ALLOWED = ObjectInputFilter.Config.createFilter("maxdepth=8;maxrefs=2000;maxbytes=64000;"
            + "java.lang.*;java.util.*;java.time.*;dev.amcp.gateway.editor.entity.PendingSignIn;dev.amcp.gateway.upstreams.entity.PendingConnection;"
            + "dev.amcp.gateway.platform.entity.Message;!*");

    /** A session as read: its attributes and the version they had. */
    public record Stored(Map<String, Object> attributes, long version) {}

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** A new session holding {@code attributes}; answers its cookie value. */
    public String create(Map<String, Object> attributes) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String cookie = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        Timestamp now = Timestamp.from(Instant.now());
        em.createNativeQuery("insert into editor_sessions (id_hash, data, version, created_at, last_access_at) values (?1, ?2, 0, ?3, ?3)")
                .setParameter(1, idHash(cookie)).setParameter(2, seal(cookie, attributes)).setParameter(3, now).executeUpdate();
        return cookie;
    }

    /** The session of {@code cookie}, unless there is none or it has been idle too long (it is deleted then). */
    public Optional<Stored> find(String cookie) {
        if (cookie == null || cookie.length() != 43) {
            return Optional.empty();
        }
        List<?> rows = em.createNativeQuery("select data, version, last_access_at from editor_sessions where id_hash = ?1")
                .setParameter(1, idHash(cookie)).getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] row = (Object[]) rows.get(0);
        Instant lastAccess = ScheduledWork.instant(row[2]);
        Instant now = Instant.now();
        if (lastAccess.plus(Duration.ofMinutes(IDLE_MINUTES)).isBefore(now)) {
            delete(cookie);
            return Optional.empty();
        }
        if (lastAccess.plus(TOUCH_AFTER).isBefore(now)) {
            em.createNativeQuery("update editor_sessions set last_access_at = ?1 where id_hash = ?2")
                    .setParameter(1, Timestamp.from(now)).setParameter(2, idHash(cookie)).executeUpdate();
        }
        try {
            return Optional.of(new Stored(open(cookie, (String) row[0]), ((Number) row[1]).longValue()));
        } catch (IllegalStateException unreadable) {
            delete(cookie); // altered, or written by a version that kept other classes: start a new session
            return Optional.empty();
        }
    }

    /** Writes {@code attributes} if the row still has {@code version}; false when another request wrote it meanwhile. */
    public boolean save(String cookie, Map<String, Object> attributes, long version) {
        return em.createNativeQuery("update editor_sessions set data = ?1, version = ?2, last_access_at = ?3 where id_hash = ?4 and version = ?5")
                .setParameter(1, seal(cookie, attributes)).setParameter(2, version + 1).setParameter(3, Timestamp.from(Instant.now()))
                .setParameter(4, idHash(cookie)).setParameter(5, version).executeUpdate() == 1;
    }

    public void delete(String cookie) {
        em.createNativeQuery("delete from editor_sessions where id_hash = ?1").setParameter(1, idHash(cookie)).executeUpdate();
    }

    /** The row's key: the cookie's SHA-256, so the table names no usable session. */
    public static String idHash(String cookie) {
        return Hashes.sha256("amcp editor session id\0" + cookie);
    }

    /** The attributes sealed under the cookie's own key; refused when they outgrow a session's room. */
    static String seal(String cookie, Map<String, Object> attributes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new HashMap<>(attributes));
        } catch (IOException e) {
            throw new IllegalArgumentException("A session attribute cannot be kept: " + e.getMessage(), e);
        }
        String sealed = MasterKeys.encrypt(keyOf(cookie), bytes.toByteArray(), CONTEXT);
        if (sealed.length() > MAX_SEALED_CHARS) {
            throw new IllegalArgumentException("The editor session outgrew its room (" + sealed.length() + " of " + MAX_SEALED_CHARS + " characters)");
        }
        return sealed;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> open(String cookie, String sealed) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(MasterKeys.decrypt(keyOf(cookie), sealed, CONTEXT)))) {
            in.setObjectInputFilter(ALLOWED);
            return new HashMap<>((Map<String, Object>) in.readObject());
        } catch (GeneralSecurityException | IOException | ClassNotFoundException | ClassCastException | IllegalArgumentException e) {
            throw new IllegalStateException("The editor session does not open: " + e.getMessage(), e);
        }
    }

    private static SecretKey keyOf(String cookie) {
        try {
            byte[] key = MessageDigest.getInstance("SHA-256").digest(("amcp editor session key\0" + cookie).getBytes(StandardCharsets.UTF_8));
            return new SecretKeySpec(key, "AES");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
