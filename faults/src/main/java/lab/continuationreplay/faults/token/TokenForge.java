package lab.continuationreplay.faults.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import lab.continuationreplay.store.crypto.Hkdf;
import lab.continuationreplay.vectors.ExactJson;

/**
 * What an attacker who holds the state key could do: open a real token, change one claim and seal it again, in either
 * SDK's format (Java: AES-256-GCM as {@code SealedRequestState}; TypeScript: the SDK codec's HMAC). The lab holds its
 * own synthetic keys, so it can test the checks that sit behind the seal (tool, method, audience, expiry, principal)
 * and not only the seal itself. The Python SDK's {@code AESGCMRequestStateCodec} uses the Java server's sealed format
 * (the same HKDF info, key id, prefix and associated data), so {@link #openJava} and {@link #sealJava} serve the
 * Python fixture too; the Go fixture signs its own readable token ({@link #signGo}). Written from the formats in
 * docs/java-server.md, docs/python-fixture.md, docs/go-fixture.md and seed spec §4; the key stays in memory and never
 * reaches a file.
 */
public final class TokenForge {
    private static final String PREFIX = "v1.";
    private static final byte[] HKDF_INFO = "mcp/request-state/v1/aes-256-gcm".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KID_LABEL = "mcp/request-state/v1/kid:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PRINCIPAL_LABEL = "mcp/request-state/principal:".getBytes(StandardCharsets.US_ASCII);
    private static final String BIND_LABEL = "mcp.requestState.bind:";

    private final byte[] secret;
    private final SecretKeySpec aesKey;
    private final byte[] kid;
    private final SecureRandom random = new SecureRandom();

    public TokenForge(String keyHex) {
        this.secret = HexFormat.of().parseHex(keyHex);
        byte[] key = Hkdf.sha256(secret, HKDF_INFO, 32);
        this.aesKey = new SecretKeySpec(key, "AES");
        this.kid = Arrays.copyOf(sha256(concat(KID_LABEL, key)), 4);
    }

    @Override
    public String toString() {
        return "TokenForge[key hidden]";
    }

    // ---- Java: sealed claims ----

    /** The claims inside a Java token, or throws if it was not sealed with this key. */
    public ObjectNode openJava(String token) throws GeneralSecurityException {
        byte[] raw = Base64.getUrlDecoder().decode(token.substring(PREFIX.length()));
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, raw, 4, 12));
        cipher.updateAAD(concat(PREFIX.getBytes(StandardCharsets.US_ASCII), kid));
        byte[] plain = cipher.doFinal(raw, 16, raw.length - 16);
        return (ObjectNode) ExactJson.parse(new String(plain, StandardCharsets.UTF_8));
    }

    /** Seals any plaintext (claims or not) as a Java token under this key. */
    public String sealJava(String plaintext) throws GeneralSecurityException {
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, nonce));
        cipher.updateAAD(concat(PREFIX.getBytes(StandardCharsets.US_ASCII), kid));
        byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(concat(kid, nonce, sealed));
    }

    /** The Java principal claim for {@code principal}: salt and salted digest. */
    public String javaPrincipalTag(String principal) {
        byte[] salt = new byte[8];
        random.nextBytes(salt);
        byte[] digest = Arrays.copyOf(sha256(concat(PRINCIPAL_LABEL, salt, principal.getBytes(StandardCharsets.UTF_8))), 16);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(concat(salt, digest));
    }

    // ---- TypeScript: signed envelope ----

    /** The signed envelope {@code {"p":…,"exp":…,"b":…}} of a TypeScript token (readable without the key). */
    public static ObjectNode readTypeScript(String token) {
        String body = token.substring(PREFIX.length(), token.lastIndexOf('.'));
        return (ObjectNode) ExactJson.parse(new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8));
    }

    /** Signs {@code envelope} (any JSON text) as a TypeScript token under this key. */
    public String signTypeScript(String envelope) throws GeneralSecurityException {
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(envelope.getBytes(StandardCharsets.UTF_8));
        return PREFIX + body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(hmac((PREFIX + body).getBytes(StandardCharsets.UTF_8)));
    }

    /** The TypeScript bind tag of {@code principal}. */
    public String typeScriptBindTag(String principal) throws GeneralSecurityException {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(
                Arrays.copyOf(hmac((BIND_LABEL + principal).getBytes(StandardCharsets.UTF_8)), 16));
    }

    /** True if re-signing the token's own body gives its signature: the forge holds the server's key. */
    public boolean signsLike(String typeScriptToken) throws GeneralSecurityException {
        String body = typeScriptToken.substring(PREFIX.length(), typeScriptToken.lastIndexOf('.'));
        return typeScriptToken.equals(PREFIX + body + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(hmac((PREFIX + body).getBytes(StandardCharsets.UTF_8))));
    }

    // ---- Go: the fixture's own signed payload ----

    /** The label the Go fixture's MAC covers before the prefix and the payload segment. */
    private static final String GO_MAC_LABEL = "continuation-replay-go-fixture requestState\u0000";

    /** The payload of a Go token (readable without the key). */
    public static ObjectNode readGo(String token) {
        return readTypeScript(token);
    }

    /** Signs {@code payload} (any JSON text) as a Go fixture token under this key. */
    public String signGo(String payload) throws GeneralSecurityException {
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return PREFIX + body + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(hmac((GO_MAC_LABEL + PREFIX + body).getBytes(StandardCharsets.UTF_8)));
    }

    /** True if re-signing the Go token's own payload gives its MAC: the forge holds the Go fixture's key and label. */
    public boolean signsLikeGo(String goToken) throws GeneralSecurityException {
        String body = goToken.substring(PREFIX.length(), goToken.lastIndexOf('.'));
        return goToken.equals(signGo(new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8)));
    }

    // ---- Rust: the SDK's codec (rmcp's RequestStateCodec, rs1) over the fixture's payload ----

    private static final String RUST_PREFIX = "rs1.";
    private static final byte[] RUST_DOMAIN = "rmcp/mrtr/request-state/v1".getBytes(StandardCharsets.US_ASCII);

    /**
     * What the Rust fixture binds a state to, as the codec's associated data: its canonical JSON (members sorted, no
     * whitespace) of the arguments digest, the audience, the method, the principal and the tool.
     */
    public static String rustBinding(String argumentsDigest, String audience, String method, String principal, String tool) {
        ObjectNode binding = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        binding.put("arguments_digest", argumentsDigest).put("audience", audience).put("method", method)
                .put("principal", principal).put("tool", tool);
        return lab.continuationreplay.vectors.CanonicalJson.canonical(binding);
    }

    /** The payload of a Rust token (readable without the key): the bytes after the codec's 8-byte expiry. */
    public static ObjectNode readRust(String token) {
        byte[] body = Base64.getUrlDecoder().decode(token.substring(RUST_PREFIX.length(), token.lastIndexOf('.')));
        return (ObjectNode) ExactJson.parse(new String(body, 8, body.length - 8, StandardCharsets.UTF_8));
    }

    /** Signs {@code payload} under {@code binding} as the Rust fixture's codec does (no codec expiry: the payload has its own). */
    public String signRust(String binding, String payload) throws GeneralSecurityException {
        byte[] json = payload.getBytes(StandardCharsets.UTF_8);
        byte[] body = ByteBuffer.allocate(8 + json.length).putLong(0).put(json).array();
        byte[] bound = binding.getBytes(StandardCharsets.UTF_8);
        byte[] tag = hmac(concat(RUST_DOMAIN, ByteBuffer.allocate(8).putLong(bound.length).array(), bound, body));
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return RUST_PREFIX + b64.encodeToString(body) + "." + b64.encodeToString(tag);
    }

    /** True if signing the Rust token's own payload under {@code binding} gives the token: the forge holds the key. */
    public boolean signsLikeRust(String token, String binding) throws GeneralSecurityException {
        return token.equals(signRust(binding, readRust(token).toString()));
    }

    public static String json(JsonNode node) {
        return node.toString();
    }

    private byte[] hmac(byte[] data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return mac.doFinal(data);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
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
}
