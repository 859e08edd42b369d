package lab.continuationreplay.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SealedRequestStateTest {
    static final byte[] KEY = HexFormat.of().parseHex("8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc");
    static final long NOW = 1790035200L;
    static final SealedRequestState SEALER = new SealedRequestState(KEY, 600, "lab-audience");

    static ObjectNode arguments(String title) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", "case-01").put("title", title).put("mode", "atomic");
    }

    static final StateBinding BINDING = StateBinding.toolCall("create_guarded_issue", arguments("guarded-01"), "alice");

    static String reason(Object token, StateBinding binding, long now) {
        return assertThrows(InvalidRequestState.class, () -> SEALER.open(token, binding, now)).getMessage();
    }

    @Test
    void hkdfMatchesTheRfc5869VectorWithoutSalt() {
        // RFC 5869, test case 3: IKM = 22 x 0x0b, no salt, no info, L = 42
        byte[] okm = SealedRequestState.hkdfSha256(HexFormat.of().parseHex("0b".repeat(22)), new byte[0], 42);
        assertEquals("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
                HexFormat.of().formatHex(okm));
    }

    @Test
    void opensWhatItSealedForTheSameBinding() throws Exception {
        String token = SEALER.seal("{\"state\":1}", BINDING, NOW);
        assertTrue(token.startsWith("v1."));
        assertEquals("{\"state\":1}", SEALER.open(token, BINDING, NOW));
        assertEquals("{\"state\":1}", SEALER.open(token, BINDING, NOW + 599));
        assertNotEquals(token, SEALER.seal("{\"state\":1}", BINDING, NOW), "a fresh nonce every time");
    }

    @Test
    void theStateIsNotReadableInTheToken() {
        String token = SEALER.seal("secret-state-marker", BINDING, NOW);
        byte[] raw = Base64.getUrlDecoder().decode(token.substring(3));
        assertFalse(new String(raw, StandardCharsets.ISO_8859_1).contains("secret-state-marker"));
        assertFalse(new String(raw, StandardCharsets.ISO_8859_1).contains("alice"));
    }

    @Test
    void refusesEveryChangeOfBindingClockOrKey() {
        String token = SEALER.seal("s", BINDING, NOW);
        assertEquals("expired", reason(token, BINDING, NOW + 600));
        assertEquals("issued in the future", reason(token, BINDING, NOW - 61));
        assertEquals("arguments differ", reason(token, StateBinding.toolCall("create_guarded_issue", arguments("other"), "alice"), NOW));
        assertEquals("principal differs", reason(token, StateBinding.toolCall("create_guarded_issue", arguments("guarded-01"), "bob"), NOW));
        assertEquals("method or tool differs", reason(token, StateBinding.toolCall("create_issue", arguments("guarded-01"), "alice"), NOW));
        assertEquals("method or tool differs", reason(token,
                new StateBinding("prompts/get", "create_guarded_issue", BINDING.argumentsDigest(), "alice"), NOW));
        SealedRequestState otherAudience = new SealedRequestState(KEY, 600, "other-audience");
        assertEquals("audience differs", assertThrows(InvalidRequestState.class,
                () -> otherAudience.open(token, BINDING, NOW)).getMessage());
        byte[] otherKey = KEY.clone();
        otherKey[0] ^= 1;
        assertEquals("unknown key id", assertThrows(InvalidRequestState.class,
                () -> new SealedRequestState(otherKey, 600, "lab-audience").open(token, BINDING, NOW)).getMessage());
    }

    @Test
    void refusesMalformedTokens() {
        String token = SEALER.seal("s", BINDING, NOW);
        assertEquals("not a string", reason(42, BINDING, NOW));
        assertEquals("not a string", reason(null, BINDING, NOW));
        assertEquals("unknown prefix", reason("v2." + token.substring(3), BINDING, NOW));
        assertEquals("not base64url", reason("v1.***", BINDING, NOW));
        assertEquals("not base64url", reason(token + "=", BINDING, NOW));
        assertEquals("non-canonical base64url", reason(withNonZeroTrailingBits(), BINDING, NOW));
        assertEquals("truncated", reason("v1." + token.substring(3, 23), BINDING, NOW));
        assertEquals("truncated", reason("v1.", BINDING, NOW));
    }

    /** A token whose last character differs only in the unused low bits: same bytes, another spelling. */
    static String withNonZeroTrailingBits() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (String state = "s"; ; state += "s") {
            String body = SEALER.seal(state, BINDING, NOW).substring(3);
            if (body.length() % 4 != 0) {
                int last = alphabet.indexOf(body.charAt(body.length() - 1));
                return "v1." + body.substring(0, body.length() - 1) + alphabet.charAt(last ^ 1);
            }
        }
    }

    @Test
    void everyBitFlipOfTheSealedBytesIsRefused() {
        String token = SEALER.seal("s", BINDING, NOW);
        byte[] raw = Base64.getUrlDecoder().decode(token.substring(3));
        for (int i = 0; i < raw.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = raw.clone();
                flipped[i] ^= (byte) (1 << bit);
                String mutated = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(flipped);
                int index = i;
                String why = reason(mutated, BINDING, NOW);
                assertTrue(why.equals("unknown key id") || why.equals("authentication failed"), index + ": " + why);
            }
        }
    }

    /** The thread's cipher is reused: a refused token, or a key of another sealer, must leave nothing behind. */
    @Test
    void aRefusalOrAnotherKeyOnTheSameThreadLeavesTheNextSealAndOpenIntact() throws Exception {
        String token = SEALER.seal("{\"state\":2}", BINDING, NOW);
        byte[] raw = Base64.getUrlDecoder().decode(token.substring(3));
        raw[raw.length - 1] ^= 1;
        String forged = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        SealedRequestState other = new SealedRequestState(HexFormat.of().parseHex("11".repeat(32)), 600, "lab-audience");
        for (int i = 0; i < 3; i++) {
            assertEquals("authentication failed", reason(forged, BINDING, NOW));
            String theirs = other.seal("{\"state\":3}", BINDING, NOW);
            assertEquals("{\"state\":2}", SEALER.open(token, BINDING, NOW));
            assertEquals("{\"state\":3}", other.open(theirs, BINDING, NOW));
            assertEquals("unknown key id", reason(theirs, BINDING, NOW));
            String fresh = SEALER.seal("{\"state\":4}", BINDING, NOW);
            assertEquals("{\"state\":4}", SEALER.open(fresh, BINDING, NOW));
        }
    }

    @Test
    void threadsSealAndOpenAtOnce() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<Boolean>> done = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        String state = "{\"t\":" + thread + ",\"i\":" + i + "}";
                        if (!state.equals(SEALER.open(SEALER.seal(state, BINDING, NOW), BINDING, NOW))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (var f : done) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesWeakConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new SealedRequestState(new byte[31], 600, "a"));
        assertThrows(IllegalArgumentException.class, () -> new SealedRequestState(KEY, 0, "a"));
    }
}
