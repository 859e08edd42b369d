package lab.continuationreplay.vectors;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The secret HMAC key of the fingerprint (at least 32 bytes). Its bytes are copied in and never printed. */
public final class FingerprintKey {
    public static final int MIN_BYTES = 32;
    public static final String SHORT_KEY = "fingerprint key must contain at least " + MIN_BYTES + " bytes";

    /** Per thread: one HmacSHA256 Mac and the key it was last initialised with (so a thread re-keys only on a change). */
    private static final ThreadLocal<KeyedMac> MACS = ThreadLocal.withInitial(KeyedMac::new);

    private final SecretKeySpec secret;

    private FingerprintKey(byte[] bytes) {
        this.secret = new SecretKeySpec(bytes, "HmacSHA256");
    }

    public static FingerprintKey of(byte[] bytes) {
        if (bytes == null || bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException(SHORT_KEY);
        }
        return new FingerprintKey(Arrays.copyOf(bytes, bytes.length));
    }

    /**
     * Reads a key from hexadecimal text held in the variable {@code variable} (named in every message, the value
     * never is).
     */
    public static FingerprintKey fromHex(String hex, String variable) {
        if (hex == null || hex.isEmpty()) {
            throw new IllegalArgumentException(variable + " is not set");
        }
        if (hex.length() % 2 != 0 || !hex.chars().allMatch(FingerprintKey::isHexDigit)) {
            throw new IllegalArgumentException(variable + " must be an even-length hexadecimal string");
        }
        if (hex.length() / 2 < MIN_BYTES) {
            throw new IllegalArgumentException(variable + " must contain at least " + MIN_BYTES + " bytes");
        }
        return new FingerprintKey(HexFormat.of().parseHex(hex));
    }

    private static boolean isHexDigit(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Lowercase hex of HMAC-SHA256 over {@code message}. */
    public String hmacHex(byte[] message) {
        return CanonicalWriter.hex(mac().doFinal(message));
    }

    /**
     * This thread's HmacSHA256 {@link Mac}, keyed with this key: initialised again only when the thread last used
     * another key. {@code doFinal} leaves it ready for the next message under the same key.
     */
    Mac mac() {
        KeyedMac keyed = MACS.get();
        if (keyed.key != this) {
            try {
                keyed.mac.init(secret);
            } catch (InvalidKeyException e) {
                throw new IllegalStateException("an HmacSHA256 key of " + MIN_BYTES + "+ bytes is always valid", e);
            }
            keyed.key = this;
        }
        return keyed.mac;
    }

    private static final class KeyedMac {
        final Mac mac;
        FingerprintKey key;

        KeyedMac() {
            try {
                mac = Mac.getInstance("HmacSHA256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
            }
        }
    }

    @Override
    public String toString() {
        return "FingerprintKey[redacted]";
    }
}
