package lab.continuationreplay.server.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import lab.continuationreplay.store.crypto.Hkdf;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The Java server's {@code requestState}: the application state sealed with AES-256-GCM, so a client can neither read
 * nor change it (the construction follows the Python SDK's, seed spec §4.1).
 *
 * <pre>token = "v1." + base64url(kid[4] || nonce[12] || ciphertext+tag[16])</pre>
 *
 * The AES key is HKDF-SHA256 of the configured secret; {@code kid} names that key; the additional data is
 * {@code "v1." || kid}. The sealed claims bind issue and expiry times from the injected clock, the method, the tool,
 * a digest of the arguments, an audience and a salted tag of the principal.
 */
public final class SealedRequestState {
    static final String PREFIX = "v1.";
    static final int KID_BYTES = 4;
    static final int NONCE_BYTES = 12;
    static final int TAG_BYTES = 16;
    /** A token may be issued at most this far in the future of the verifier's clock. */
    static final long CLOCK_SKEW_SECONDS = 60;
    private static final byte[] HKDF_INFO = "mcp/request-state/v1/aes-256-gcm".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KID_LABEL = "mcp/request-state/v1/kid:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PRINCIPAL_LABEL = "mcp/request-state/principal:".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> CLAIMS = Set.of("v", "iat", "exp", "m", "t", "a", "s", "aud", "p");

    /**
     * One AES-GCM cipher per thread, initialised afresh for every seal and open (a new nonce each time, so no key and
     * nonce pair is reused): looking a cipher up by name per call, and expanding the same key again, was about a
     * twentieth of the HTTP server's CPU under 16 clients.
     */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every Java 17 runtime", e);
        }
    });

    private final SecretKeySpec aesKey;
    private final byte[] kid;
    private final long ttlSeconds;
    private final String audience;
    private final SecureRandom random = new SecureRandom();

    public SealedRequestState(byte[] secret, long ttlSeconds, String audience) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("the state key must contain at least 32 bytes");
        }
        if (ttlSeconds <= 0) {
            throw new IllegalArgumentException("the state TTL must be positive");
        }
        byte[] key = hkdfSha256(secret, HKDF_INFO, 32);
        this.aesKey = new SecretKeySpec(key, "AES");
        this.kid = Arrays.copyOf(sha256(concat(KID_LABEL, key)), KID_BYTES);
        this.ttlSeconds = ttlSeconds;
        this.audience = audience;
    }

    /** Seals {@code state} for a request with this binding, issued at {@code now} (epoch seconds). */
    public String seal(String state, StateBinding binding, long now) {
        ObjectNode claims = JsonNodeFactory.instance.objectNode();
        claims.put("v", 1);
        claims.put("iat", now);
        claims.put("exp", now + ttlSeconds);
        claims.put("m", binding.method());
        claims.put("t", binding.tool());
        claims.put("a", binding.argumentsDigest());
        claims.put("s", state);
        claims.put("aud", audience);
        claims.put("p", principalTag(binding.principal()));
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(TAG_BYTES * 8, nonce));
            cipher.updateAAD(additionalData());
            byte[] sealed = cipher.doFinal(claims.toString().getBytes(StandardCharsets.UTF_8));
            return PREFIX + base64Url(concat(kid, nonce, sealed));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every Java 17 runtime", e);
        }
    }

    /** The state inside {@code token}, if it was sealed here for exactly this binding and has not expired at {@code now}. */
    public String open(Object token, StateBinding binding, long now) throws InvalidRequestState {
        if (!(token instanceof String text)) {
            throw new InvalidRequestState("not a string");
        }
        if (!text.startsWith(PREFIX)) {
            throw new InvalidRequestState("unknown prefix");
        }
        String body = text.substring(PREFIX.length());
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestState("not base64url");
        }
        // Only the one canonical spelling opens: no padding, no trailing bits, no alternative alphabet.
        if (!base64Url(raw).equals(body)) {
            throw new InvalidRequestState("non-canonical base64url");
        }
        if (raw.length < KID_BYTES + NONCE_BYTES + TAG_BYTES) {
            throw new InvalidRequestState("truncated");
        }
        if (!MessageDigest.isEqual(Arrays.copyOf(raw, KID_BYTES), kid)) {
            throw new InvalidRequestState("unknown key id");
        }
        byte[] plaintext;
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(TAG_BYTES * 8, raw, KID_BYTES, NONCE_BYTES));
            cipher.updateAAD(additionalData());
            plaintext = cipher.doFinal(raw, KID_BYTES + NONCE_BYTES, raw.length - KID_BYTES - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new InvalidRequestState("authentication failed");
        }
        JsonNode claims;
        try {
            claims = ExactJson.parse(new String(plaintext, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestState("claims are not JSON");
        }
        return checkClaims(claims, binding, now);
    }

    private String checkClaims(JsonNode claims, StateBinding binding, long now) throws InvalidRequestState {
        if (!claims.isObject()) {
            throw new InvalidRequestState("claims are not an object");
        }
        Set<String> names = new TreeSet<>();
        claims.fieldNames().forEachRemaining(names::add);
        if (!names.equals(CLAIMS) || claims.get("v").asInt(-1) != 1 || !claims.get("v").isIntegralNumber()) {
            throw new InvalidRequestState("unexpected claims");
        }
        if (!claims.get("s").isTextual()) {
            throw new InvalidRequestState("state is not a string");
        }
        if (!claims.get("iat").isIntegralNumber() || !claims.get("exp").isIntegralNumber()) {
            throw new InvalidRequestState("times are not integers");
        }
        if (claims.get("iat").longValue() > now + CLOCK_SKEW_SECONDS) {
            throw new InvalidRequestState("issued in the future");
        }
        if (now >= claims.get("exp").longValue()) {
            throw new InvalidRequestState("expired");
        }
        if (!binding.method().equals(claims.get("m").textValue()) || !binding.tool().equals(claims.get("t").textValue())) {
            throw new InvalidRequestState("method or tool differs");
        }
        if (!binding.argumentsDigest().equals(claims.get("a").textValue())) {
            throw new InvalidRequestState("arguments differ");
        }
        if (!audience.equals(claims.get("aud").textValue())) {
            throw new InvalidRequestState("audience differs");
        }
        if (!principalMatches(claims.get("p").textValue(), binding.principal())) {
            throw new InvalidRequestState("principal differs");
        }
        return claims.get("s").textValue();
    }

    /** base64url(salt[8] || SHA-256(label || salt || principal)[0:16]): equality only, not the name. */
    private String principalTag(String principal) {
        byte[] salt = new byte[8];
        random.nextBytes(salt);
        return base64Url(concat(salt, principalDigest(salt, principal)));
    }

    private static boolean principalMatches(String tag, String principal) {
        if (tag == null) {
            return false;
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(tag);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (raw.length != 24) {
            return false;
        }
        byte[] salt = Arrays.copyOf(raw, 8);
        return MessageDigest.isEqual(Arrays.copyOfRange(raw, 8, 24), principalDigest(salt, principal));
    }

    private static byte[] principalDigest(byte[] salt, String principal) {
        return Arrays.copyOf(sha256(concat(PRINCIPAL_LABEL, salt, principal.getBytes(StandardCharsets.UTF_8))), 16);
    }

    private byte[] additionalData() {
        return concat(PREFIX.getBytes(StandardCharsets.US_ASCII), kid);
    }

    /** RFC 5869 with an all-zero salt (no salt given). */
    static byte[] hkdfSha256(byte[] inputKey, byte[] info, int length) {
        return Hkdf.sha256(inputKey, info, length);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        for (byte[] part : parts) {
            out.put(part);
        }
        return out.array();
    }

    private static String base64Url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
