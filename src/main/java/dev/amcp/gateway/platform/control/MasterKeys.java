package dev.amcp.gateway.platform.control;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cryptography of {@link SecretBox}, apart from storage: AES-256-GCM with a fresh 96-bit nonce per encryption,
 * its output stored as base64 of nonce and ciphertext; the master key's id (a hash, never the key); and the reading
 * of a master key from its setting: 32 bytes in base64 ({@code openssl rand -base64 32}).
 */
public final class MasterKeys {

    static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A master key and its id. */
    public record MasterKey(String id, SecretKey key) {
        @Override
        public String toString() {
            return "MasterKey[" + id + "]"; // never the key
        }
    }

    private MasterKeys() {}

    /** Reads a master key written as base64 (standard or URL-safe) of exactly 32 bytes; the message names the setting. */
    public static MasterKey parse(String setting, String text) {
        byte[] raw;
        String compact = text.strip();
        try {
            raw = compact.contains("-") || compact.contains("_") ? Base64.getUrlDecoder().decode(compact)
                    : Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " is not base64; make one with: openssl rand -base64 32");
        }
        if (raw.length != KEY_BYTES) {
            throw new IllegalArgumentException(setting + " holds " + raw.length + " bytes, not 32; make one with: openssl rand -base64 32");
        }
        return of(raw);
    }

    /** Several keys, comma-separated (the previous master keys of a rotation). */
    public static List<MasterKey> parseList(String setting, String text) {
        List<MasterKey> keys = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                keys.add(parse(setting, part));
            }
        }
        return keys;
    }

    static MasterKey of(byte[] raw) {
        return new MasterKey(idOf(raw), new SecretKeySpec(raw, "AES"));
    }

    /** The first 16 hex digits of SHA-256 over a label and the key: names a key in rows and logs without revealing it. */
    static String idOf(byte[] raw) {
        try {
            var sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update("amcp master key id\0".getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(sha.digest(raw), 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fresh AES-256 key. */
    static SecretKey newKey() {
        byte[] raw = new byte[KEY_BYTES];
        RANDOM.nextBytes(raw);
        return new SecretKeySpec(raw, "AES");
    }

    /** AES-GCM of {@code plaintext} bound to {@code context} (its associated data): base64 of nonce and ciphertext. */
    public static String encrypt(SecretKey key, byte[] plaintext, String context) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** The plaintext, or an exception when the key, the context or a single bit of the text is not what sealed it. */
    public static byte[] decrypt(SecretKey key, String sealed, String context) throws GeneralSecurityException {
        byte[] in = Base64.getDecoder().decode(sealed);
        if (in.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new GeneralSecurityException("too short");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, in, 0, NONCE_BYTES));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        return cipher.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES);
    }

    /** The first 8 hex digits of HMAC-SHA256 under {@code key}: tells two values apart, and a guess is not checkable without the key. */
    static String fingerprint(SecretKey key, String value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
            mac.update("amcp secret fingerprint\0".getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)), 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Keys by id, the current one first. */
    static Map<String, MasterKey> byId(MasterKey current, List<MasterKey> previous) {
        Map<String, MasterKey> keys = new LinkedHashMap<>();
        if (current != null) {
            keys.put(current.id(), current);
        }
        previous.forEach(k -> keys.putIfAbsent(k.id(), k));
        return keys;
    }
}
