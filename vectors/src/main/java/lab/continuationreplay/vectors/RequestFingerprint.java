package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The keyed request fingerprint (seed spec §2.4–2.5): the opaque fields are bound through HMAC-SHA256, the rest in
 * clear, and the digest is plain SHA-256 of the canonical payload. Byte-identical to
 * {@code ts-fixture/src/fingerprint.ts}.
 */
public final class RequestFingerprint {
    public static final String CONTINUATION_STATE = "continuation_state";
    public static final String INPUT_RESPONSES = "input_responses";

    private final FingerprintKey key;

    public RequestFingerprint(FingerprintKey key) {
        this.key = java.util.Objects.requireNonNull(key, "key");
    }

    /** 64 lowercase hex characters, no prefix. */
    public String digest(LogicalRequest request) {
        // The opaque fields bind first, so both languages report the same error when several parts are invalid.
        String boundState = bindOpaqueField(CONTINUATION_STATE, request.continuationState());
        String boundResponses = bindOpaqueField(INPUT_RESPONSES, request.inputResponses());
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.put("principal", request.principal());
        payload.put("tool_id", request.toolId());
        payload.put("tool_version", request.toolVersion());
        payload.set("arguments", request.arguments());
        payload.put(CONTINUATION_STATE, boundState);
        payload.put(INPUT_RESPONSES, boundResponses);
        return sha256Hex(CanonicalJson.canonical(payload).getBytes(StandardCharsets.UTF_8));
    }

    /** HMAC-SHA256(key, field || 0x00 || canonical(value)), lowercase hex. */
    public String bindOpaqueField(String field, JsonNode value) {
        byte[] canonical = CanonicalJson.canonical(value, "$." + field).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream message = new ByteArrayOutputStream(field.length() + 1 + canonical.length);
        message.writeBytes(field.getBytes(StandardCharsets.UTF_8));
        message.write(0);
        message.writeBytes(canonical);
        return key.hmacHex(message.toByteArray());
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
    }
}
