package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The application's continuation state, the plaintext a server seals into {@code requestState} (seed spec §3).
 * Times are whole epoch seconds from the injected clock; a fresh 16-byte nonce per first round makes two first rounds
 * of the same call different operations (case 05).
 */
public record ContinuationState(String operationId, String nonce, long issuedAt, long authorityExpiresAt, long replayExpiresAt) {
    public static final int VERSION = 1;
    static final Set<String> MEMBERS = Set.of(
            "v", "operation_id", "nonce", "issued_at", "authority_expires_at", "replay_expires_at");
    private static final BigDecimal MAX_SAFE = BigDecimal.valueOf(9007199254740991L);

    public static ContinuationState mint(String operationId, long now, long authorityTtl, long retentionTtl, SecureRandom random) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        return new ContinuationState(operationId, HexFormat.of().formatHex(nonce), now, now + authorityTtl, now + retentionTtl);
    }

    /** Members in minting order (v, operation_id, nonce, issued_at, authority_expires_at, replay_expires_at). */
    public ObjectNode toJson() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.put("v", VERSION);
        state.put("operation_id", operationId);
        state.put("nonce", nonce);
        state.put("issued_at", issuedAt);
        state.put("authority_expires_at", authorityExpiresAt);
        state.put("replay_expires_at", replayExpiresAt);
        return state;
    }

    /** The string the fingerprint binds as {@code continuation_state}: canonical JSON of the state object. */
    public String canonicalText() {
        return CanonicalJson.canonical(toJson());
    }

    public Deadlines deadlines() {
        return Deadlines.of(issuedAt, authorityExpiresAt, replayExpiresAt);
    }

    /** Parses the state from JSON text (the Java server's unsealed plaintext). */
    public static ContinuationState parseText(String text, String expectedOperationId, long now) {
        JsonNode value;
        try {
            value = ExactJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidApplicationRequest("invalid application requestState");
        }
        return parse(value, expectedOperationId, now);
    }

    /** Checks every rule of seed spec §3 against the call's operation id and the injected clock. */
    public static ContinuationState parse(JsonNode value, String expectedOperationId, long now) {
        if (value == null || !value.isObject()) {
            throw new InvalidApplicationRequest("invalid application requestState");
        }
        Set<String> keys = new TreeSet<>();
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            keys.add(names.next());
        }
        JsonNode version = value.get("v");
        JsonNode operationId = value.get("operation_id");
        boolean versionOne = version != null && version.isIntegralNumber() && version.canConvertToInt() && version.intValue() == VERSION;
        if (!keys.equals(MEMBERS) || !versionOne || !operationId.isTextual()
                || !operationId.textValue().equals(expectedOperationId)) {
            throw new InvalidApplicationRequest("requestState operation binding mismatch");
        }
        JsonNode nonce = value.get("nonce");
        if (!nonce.isTextual() || nonce.textValue().isEmpty()) {
            throw new InvalidApplicationRequest("requestState nonce missing");
        }
        long issuedAt = epochSeconds(value, "issued_at");
        long authority = epochSeconds(value, "authority_expires_at");
        long replay = epochSeconds(value, "replay_expires_at");
        if (issuedAt > now) {
            throw new InvalidApplicationRequest("requestState issued_at is in the future");
        }
        if (authority <= issuedAt) {
            throw new InvalidApplicationRequest("requestState authority deadline is invalid");
        }
        if (replay <= issuedAt) {
            throw new InvalidApplicationRequest("requestState replay deadline is invalid");
        }
        return new ContinuationState(operationId.textValue(), nonce.textValue(), issuedAt, authority, replay);
    }

    /** A whole number of seconds within the interoperable range; booleans, text and fractions are not times. */
    private static long epochSeconds(JsonNode state, String member) {
        JsonNode time = state.get(member);
        if (time.isNumber() && !time.isDouble() && !time.isFloat()) {
            BigDecimal exact = time.decimalValue();
            boolean integral = exact.signum() == 0 || exact.stripTrailingZeros().scale() <= 0;
            if (integral && exact.abs().compareTo(MAX_SAFE) <= 0) {
                return exact.longValueExact();
            }
        }
        throw new InvalidApplicationRequest("requestState " + member + " is invalid");
    }
}
