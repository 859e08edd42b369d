package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.stream.Stream;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContinuationStateTest {
    private static final long NOW = 1_790_035_200L;
    private static final String NONCE = "52a4586917b67c9887155bc7f1f660fc";
    private static final String VALID = "{\"v\":1,\"operation_id\":\"case-01\",\"nonce\":\"" + NONCE + "\","
            + "\"issued_at\":1790035200,\"authority_expires_at\":1790035500,\"replay_expires_at\":1790035560}";

    private static ObjectNode valid() {
        return (ObjectNode) ExactJson.parse(VALID);
    }

    private static ObjectNode with(String member, String jsonValue) {
        ObjectNode state = valid();
        state.set(member, ExactJson.parse(jsonValue));
        return state;
    }

    private static void rejects(JsonNode state, String message) {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> ContinuationState.parse(state, "case-01", NOW));
        assertEquals(message, e.getMessage());
    }

    @Test
    void parsesAValidState() {
        ContinuationState state = ContinuationState.parse(valid(), "case-01", NOW);
        assertEquals(new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_500L, 1_790_035_560L), state);
        assertEquals(new Deadlines(1_790_035_200.0, 1_790_035_500.0, 1_790_035_560.0), state.deadlines());
    }

    @Test
    void parsesValidText() {
        assertEquals(new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_500L, 1_790_035_560L),
                ContinuationState.parseText(VALID, "case-01", NOW));
    }

    @Test
    void issuedAtEqualToNowIsAccepted() {
        ContinuationState state = ContinuationState.parse(with("issued_at", "1790035200"), "case-01", 1_790_035_200L);
        assertEquals(1_790_035_200L, state.issuedAt());
    }

    @Test
    void issuedAtInThePastIsAccepted() {
        ContinuationState state = ContinuationState.parse(valid(), "case-01", 1_790_035_499L);
        assertEquals(1_790_035_200L, state.issuedAt());
    }

    @Test
    void keyOrderOfTheInputDoesNotMatter() {
        JsonNode sorted = ExactJson.parse("{\"authority_expires_at\":1790035500,\"issued_at\":1790035200,\"nonce\":\""
                + NONCE + "\",\"operation_id\":\"case-01\",\"replay_expires_at\":1790035560,\"v\":1}");
        assertEquals(ContinuationState.parse(valid(), "case-01", NOW), ContinuationState.parse(sorted, "case-01", NOW));
    }

    @Test
    void notAnObjectIsInvalid() {
        rejects(null, "invalid application requestState");
        rejects(ExactJson.parse("[1]"), "invalid application requestState");
        rejects(TextNode.valueOf(VALID), "invalid application requestState");
        rejects(ExactJson.parse("1"), "invalid application requestState");
        rejects(JsonNodeFactory.instance.nullNode(), "invalid application requestState");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "{", "{\"v\":1,}", "[1,2]", "\"text\"", "null", "42", VALID + " x"})
    void unparsableOrNonObjectTextIsInvalid(String text) {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> ContinuationState.parseText(text, "case-01", NOW));
        assertEquals("invalid application requestState", e.getMessage());
    }

    @Test
    void anExtraMemberIsABindingMismatch() {
        rejects(with("extra", "1"), "requestState operation binding mismatch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v", "operation_id", "nonce", "issued_at", "authority_expires_at", "replay_expires_at"})
    void aMissingMemberIsABindingMismatch(String member) {
        ObjectNode state = valid();
        state.remove(member);
        rejects(state, "requestState operation binding mismatch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "0", "true", "\"1\"", "1.0", "null", "{}", "[1]"})
    void onlyIntegerVersionOneIsAccepted(String version) {
        rejects(with("v", version), "requestState operation binding mismatch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"case-02\"", "\"CASE-01\"", "\"case-01 \"", "\"\"", "1", "null", "true", "[\"case-01\"]"})
    void operationIdMustEqualTheExpectedString(String operationId) {
        rejects(with("operation_id", operationId), "requestState operation binding mismatch");
    }

    @Test
    void theExpectedOperationIdIsTheToolArgument() {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> ContinuationState.parse(valid(), "case-02", NOW));
        assertEquals("requestState operation binding mismatch", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "1", "null", "true", "{}", "[\"a\"]"})
    void nonceMustBeANonEmptyString(String nonce) {
        rejects(with("nonce", nonce), "requestState nonce missing");
    }

    static Stream<Arguments> invalidTimes() {
        return Stream.of("issued_at", "authority_expires_at", "replay_expires_at")
                .flatMap(member -> Stream.of("true", "false", "\"1790035200\"", "1.5", "1e400", "null", "{}", "[1]",
                                "9007199254740992", "-9007199254740992", "1790035200.5")
                        .map(value -> Arguments.of(member, value)));
    }

    @ParameterizedTest
    @MethodSource("invalidTimes")
    void timesMustBeWholeNumbersInTheSafeRange(String member, String value) {
        rejects(with(member, value), "requestState " + member + " is invalid");
    }

    @Test
    void wholeDecimalTimesAreWholeSeconds() {
        // "fractions are not times": an exact decimal with only zero decimals (a Python-style float) is a whole second
        ObjectNode state = with("issued_at", "1790035200.0");
        state.set("authority_expires_at", ExactJson.parse("1.7900355E9"));
        assertEquals(new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_500L, 1_790_035_560L),
                ContinuationState.parse(state, "case-01", NOW));
    }

    @Test
    void aBinaryDoubleTimeIsInvalid() {
        ObjectNode state = valid();
        state.set("issued_at", DoubleNode.valueOf(1_790_035_200.0));
        rejects(state, "requestState issued_at is invalid");
    }

    @Test
    void issuedAtInTheFutureIsRefused() {
        rejects(with("issued_at", "1790035201"), "requestState issued_at is in the future");
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> ContinuationState.parse(valid(), "case-01", NOW - 1));
        assertEquals("requestState issued_at is in the future", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1790035200", "1790035199", "0"})
    void authorityDeadlineMustFollowIssuedAt(String authority) {
        rejects(with("authority_expires_at", authority), "requestState authority deadline is invalid");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1790035200", "1790035199", "0"})
    void replayDeadlineMustFollowIssuedAt(String replay) {
        rejects(with("replay_expires_at", replay), "requestState replay deadline is invalid");
    }

    @Test
    void deadlinesOneSecondAfterIssuedAtAreAccepted() {
        ObjectNode state = with("authority_expires_at", "1790035201");
        state.set("replay_expires_at", ExactJson.parse("1790035201"));
        assertEquals(new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_201L, 1_790_035_201L),
                ContinuationState.parse(state, "case-01", NOW));
    }

    @Test
    void rulesApplyInTheSpecifiedOrder() {
        // binding before nonce
        ObjectNode state = with("v", "2");
        state.set("nonce", ExactJson.parse("\"\""));
        rejects(state, "requestState operation binding mismatch");
        // nonce before times
        state = with("nonce", "\"\"");
        state.set("issued_at", ExactJson.parse("true"));
        rejects(state, "requestState nonce missing");
        // time validity before the future check
        state = with("issued_at", "1790035300");
        state.set("replay_expires_at", ExactJson.parse("1.5"));
        rejects(state, "requestState replay_expires_at is invalid");
        // future before deadlines
        state = with("issued_at", "1790035600");
        rejects(state, "requestState issued_at is in the future");
        // authority before replay
        state = with("authority_expires_at", "1");
        state.set("replay_expires_at", ExactJson.parse("1"));
        rejects(state, "requestState authority deadline is invalid");
    }

    /** A SecureRandom whose bytes are fixed, so the nonce is predictable. */
    private static SecureRandom fixedRandom(byte value) {
        return new SecureRandom() {
            private static final long serialVersionUID = 1L;

            @Override
            public void nextBytes(byte[] bytes) {
                Arrays.fill(bytes, value);
            }
        };
    }

    @Test
    void mintUsesSixteenRandomBytesAsLowercaseHex() {
        ContinuationState state = ContinuationState.mint("case-01", NOW, 300, 360, fixedRandom((byte) 0xAB));
        assertEquals(new ContinuationState("case-01", "abababababababababababababababab", NOW, NOW + 300, NOW + 360), state);
    }

    @Test
    void mintDeadlinesAreNowPlusTheTtls() {
        ContinuationState state = ContinuationState.mint("case-07", 1_000L, 5L, 9L, new SecureRandom());
        assertEquals("case-07", state.operationId());
        assertEquals(1_000L, state.issuedAt());
        assertEquals(1_005L, state.authorityExpiresAt());
        assertEquals(1_009L, state.replayExpiresAt());
        assertTrue(state.nonce().matches("[0-9a-f]{32}"), state.nonce());
    }

    @Test
    void twoMintsDiffer() {
        SecureRandom random = new SecureRandom();
        ContinuationState first = ContinuationState.mint("case-05", NOW, 300, 360, random);
        ContinuationState second = ContinuationState.mint("case-05", NOW, 300, 360, random);
        assertTrue(first.nonce().matches("[0-9a-f]{32}"), first.nonce());
        assertTrue(second.nonce().matches("[0-9a-f]{32}"), second.nonce());
        assertNotEquals(first.nonce(), second.nonce());
        assertNotEquals(first, second);
        assertNotEquals(first.canonicalText(), second.canonicalText());
    }

    @Test
    void toJsonKeepsMintingOrder() throws Exception {
        ContinuationState state = new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_500L, 1_790_035_560L);
        assertEquals(VALID, ExactJson.mapper().writeValueAsString(state.toJson()));
    }

    @Test
    void canonicalTextHasSortedKeysAndIntegerTimes() {
        ContinuationState state = new ContinuationState("case-01", NONCE, 1_790_035_200L, 1_790_035_500L, 1_790_035_560L);
        assertEquals("{\"authority_expires_at\":1790035500,\"issued_at\":1790035200,\"nonce\":\"" + NONCE
                + "\",\"operation_id\":\"case-01\",\"replay_expires_at\":1790035560,\"v\":1}", state.canonicalText());
    }

    @Test
    void canonicalTextMatchesTheSpecsTypeScriptExample() {
        ContinuationState state = new ContinuationState("case-05", "661eed17995cd1b77e6812a2fd567408",
                1_790_035_200L, 1_790_035_500L, 1_790_035_560L);
        assertEquals("{\"authority_expires_at\":1790035500,\"issued_at\":1790035200,"
                + "\"nonce\":\"661eed17995cd1b77e6812a2fd567408\",\"operation_id\":\"case-05\","
                + "\"replay_expires_at\":1790035560,\"v\":1}", state.canonicalText());
    }

    @Test
    void aMintedStateRoundTripsThroughParse() throws Exception {
        ContinuationState minted = ContinuationState.mint("case-01", NOW, 300, 360, new SecureRandom());
        assertEquals(minted, ContinuationState.parse(minted.toJson(), "case-01", NOW));
        assertEquals(minted, ContinuationState.parseText(minted.canonicalText(), "case-01", NOW));
        assertEquals(minted, ContinuationState.parseText(
                ExactJson.mapper().writeValueAsString(minted.toJson()), "case-01", NOW + 299));
    }
}
