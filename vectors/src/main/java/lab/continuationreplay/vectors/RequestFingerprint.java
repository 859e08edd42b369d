package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;

/**
 * The keyed request fingerprint (seed spec §2.4–2.5): the opaque fields are bound through HMAC-SHA256, the rest in
 * clear, and the digest is plain SHA-256 of the canonical payload. Byte-identical to
 * {@code ts-fixture/src/fingerprint.ts}.
 *
 * <p>The payload's members are fixed, so it is written directly in its canonical key order ({@code arguments},
 * {@code continuation_state}, {@code input_responses}, {@code principal}, {@code tool_id}, {@code tool_version}) into
 * the thread's reused {@link CanonicalWriter}; the HMAC {@link Mac} and the SHA-256 {@link MessageDigest} are reused
 * per thread too. Checks and messages are those of canonicalising the payload object: the same paths, the same order.
 */
public final class RequestFingerprint {
    public static final String CONTINUATION_STATE = "continuation_state";
    public static final String INPUT_RESPONSES = "input_responses";

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(RequestFingerprint::newSha256);

    private final FingerprintKey key;

    public RequestFingerprint(FingerprintKey key) {
        this.key = java.util.Objects.requireNonNull(key, "key");
    }

    /** 64 lowercase hex characters, no prefix. */
    public String digest(LogicalRequest request) {
        CanonicalWriter out = CanonicalWriter.acquire();
        try {
            Mac mac = key.mac();
            // The opaque fields bind first, so both languages report the same error when several parts are invalid.
            byte[] boundState = bind(out, mac, CONTINUATION_STATE, request.continuationState());
            byte[] boundResponses = bind(out, mac, INPUT_RESPONSES, request.inputResponses());
            out.reset();
            out.ascii("{\"arguments\":");
            out.value(request.arguments(), "$.arguments", null, 1); // a member of the payload: one level down
            out.ascii(",\"continuation_state\":");
            out.hexString(boundState);
            out.ascii(",\"input_responses\":");
            out.hexString(boundResponses);
            out.ascii(",\"principal\":");
            if (request.principal() == null) {
                out.ascii("null");
            } else {
                out.string(request.principal(), "$.principal", null);
            }
            out.ascii(",\"tool_id\":");
            out.string(request.toolId(), "$.tool_id", null);
            out.ascii(",\"tool_version\":");
            out.string(request.toolVersion(), "$.tool_version", null);
            out.rawByte('}');
            MessageDigest sha256 = SHA256.get();
            sha256.update(out.buffer(), 0, out.length());
            return CanonicalWriter.hex(sha256.digest());
        } finally {
            out.release();
        }
    }

    /** HMAC-SHA256(key, field || 0x00 || canonical(value)), lowercase hex. */
    public String bindOpaqueField(String field, JsonNode value) {
        CanonicalWriter out = CanonicalWriter.acquire();
        try {
            return CanonicalWriter.hex(bind(out, key.mac(), field, value));
        } finally {
            out.release();
        }
    }

    private static byte[] bind(CanonicalWriter out, Mac mac, String field, JsonNode value) {
        out.reset();
        out.utf8(field);
        out.rawByte(0);
        out.value(value, "$.", field, 0);
        mac.update(out.buffer(), 0, out.length());
        return mac.doFinal();
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
    }
}
