package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/** The cryptography of the secret store: AES-GCM bound to its context, master keys as operators write them, fingerprints. */
class MasterKeysTest {

    static final String KEY_A = Base64.getEncoder().encodeToString("a".repeat(32).getBytes(StandardCharsets.US_ASCII));
    static final String KEY_B = Base64.getUrlEncoder().encodeToString(new byte[] {-1, -2, -3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
            14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29});

    @Test
    void aSealedSecretOpensOnlyWithItsKeyAndContext() throws Exception {
        SecretKey key = MasterKeys.newKey();
        String sealed = MasterKeys.encrypt(key, "s3cret".getBytes(StandardCharsets.UTF_8), "upstream 1");
        assertEquals("s3cret", new String(MasterKeys.decrypt(key, sealed, "upstream 1"), StandardCharsets.UTF_8));
        assertNotEquals(sealed, MasterKeys.encrypt(key, "s3cret".getBytes(StandardCharsets.UTF_8), "upstream 1"), "a fresh nonce each time");
        assertTrue(!new String(Base64.getDecoder().decode(sealed), StandardCharsets.ISO_8859_1).contains("s3cret"));
        assertThrows(GeneralSecurityException.class, () -> MasterKeys.decrypt(key, sealed, "upstream 2"), "another row's context");
        assertThrows(GeneralSecurityException.class, () -> MasterKeys.decrypt(MasterKeys.newKey(), sealed, "upstream 1"), "another key");
        byte[] raw = Base64.getDecoder().decode(sealed);
        raw[raw.length - 1] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> MasterKeys.decrypt(key, Base64.getEncoder().encodeToString(raw), "upstream 1"), "one bit");
    }

    @Test
    void masterKeysAreThirtyTwoBytesOfBase64AndNamedByAnIdNotTheKey() {
        MasterKeys.MasterKey a = MasterKeys.parse("AMCP_MASTER_KEY", " " + KEY_A + "\n");
        MasterKeys.MasterKey b = MasterKeys.parse("AMCP_MASTER_KEY", KEY_B);
        assertTrue(a.id().matches("[0-9a-f]{16}") && !a.id().equals(b.id()));
        assertEquals(a.id(), MasterKeys.parse("X", KEY_A).id(), "the id depends on the key alone");
        assertTrue(!a.toString().contains(KEY_A) && a.toString().contains(a.id()));
        assertEquals("AMCP_MASTER_KEY holds 16 bytes, not 32; make one with: openssl rand -base64 32",
                assertThrows(IllegalArgumentException.class, () -> MasterKeys.parse("AMCP_MASTER_KEY", Base64.getEncoder().encodeToString(new byte[16]))).getMessage());
        assertEquals("AMCP_MASTER_KEY is not base64; make one with: openssl rand -base64 32",
                assertThrows(IllegalArgumentException.class, () -> MasterKeys.parse("AMCP_MASTER_KEY", "not a key!")).getMessage());
        assertEquals(List.of(a.id(), b.id()), MasterKeys.parseList("AMCP_MASTER_KEY_PREVIOUS", KEY_A + ", " + KEY_B).stream().map(MasterKeys.MasterKey::id).toList());
    }

    @Test
    void aWrappedDataKeyRewrappedUnderANewMasterKeyIsTheSameKey() throws Exception {
        MasterKeys.MasterKey a = MasterKeys.parse("A", KEY_A);
        MasterKeys.MasterKey b = MasterKeys.parse("B", KEY_B);
        SecretKey data = MasterKeys.newKey();
        String secret = MasterKeys.encrypt(data, "token".getBytes(StandardCharsets.UTF_8), "ctx");
        String underA = MasterKeys.encrypt(a.key(), data.getEncoded(), SecretBox.WRAP_CONTEXT);
        byte[] unwrapped = MasterKeys.decrypt(a.key(), underA, SecretBox.WRAP_CONTEXT);
        String underB = MasterKeys.encrypt(b.key(), unwrapped, SecretBox.WRAP_CONTEXT);
        assertArrayEquals(data.getEncoded(), MasterKeys.decrypt(b.key(), underB, SecretBox.WRAP_CONTEXT));
        assertThrows(GeneralSecurityException.class, () -> MasterKeys.decrypt(a.key(), underB, SecretBox.WRAP_CONTEXT));
        SecretKey back = new javax.crypto.spec.SecretKeySpec(MasterKeys.decrypt(b.key(), underB, SecretBox.WRAP_CONTEXT), "AES");
        assertEquals("token", new String(MasterKeys.decrypt(back, secret, "ctx"), StandardCharsets.UTF_8), "the secret itself untouched");
    }

    @Test
    void fingerprintsTellValuesApartUnderOneKeyOnly() {
        SecretKey key = MasterKeys.newKey();
        String f = MasterKeys.fingerprint(key, "value-1");
        assertTrue(f.matches("[0-9a-f]{8}"));
        assertEquals(f, MasterKeys.fingerprint(key, "value-1"));
        assertNotEquals(f, MasterKeys.fingerprint(key, "value-2"));
        assertNotEquals(f, MasterKeys.fingerprint(MasterKeys.newKey(), "value-1"), "not a plain hash a guess could be checked against");
    }
}
