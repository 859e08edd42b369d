package lab.continuationreplay.store.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.GuardedIssueArguments;
import lab.continuationreplay.store.guard.InputResponses;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.readback.EffectState;
import lab.continuationreplay.store.readback.ReadBack;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WireObservationTest {
    private static final String BACKEND = "sqlite:guarded-matrix";
    private static final long NOW = 1_790_035_200L;
    private static final FingerprintKey KEY = FingerprintKey.fromHex(
            "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba", "WIRE_FINGERPRINT_KEY_HEX");
    private static final OperationIdentity CASE_01 = new OperationIdentity("case-01", "alice", BACKEND);
    private static final String SCOPE = "operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'";

    @TempDir
    Path dir;
    private IssueLedger ledger;
    private IssueGuard guard;
    /** The applied status of case-01 exactly as the real guard produces it, as wire text. */
    private String appliedText;

    @BeforeEach
    void applyCase01() throws Exception {
        ledger = IssueLedger.open(dir.resolve("wire.sqlite3"), BACKEND);
        guard = new IssueGuard(new GuardConfig("alice", BACKEND, NOW, 300, 360, KEY), ledger, FaultHook.NONE);
        GuardedIssueArguments arguments = GuardedIssueArguments.of("case-01", "guarded-01", null);
        ContinuationState state = guard.mint(arguments);
        guard.apply(arguments, state.toJson(), InputResponses.normalised("alpha"));
        appliedText = ExactJson.mapper().writeValueAsString(guard.status("case-01").toJson());
    }

    @AfterEach
    void closeLedger() throws Exception {
        ledger.close();
    }

    private ObjectNode applied() {
        return (ObjectNode) ExactJson.parse(appliedText);
    }

    private ObjectNode mutated(Consumer<ObjectNode> change) {
        ObjectNode status = applied();
        change.accept(status);
        return status;
    }

    private ObjectNode with(String member, String jsonValue) {
        return mutated(status -> status.set(member, ExactJson.parse(jsonValue)));
    }

    private static void rejects(JsonNode status, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireObservation.parse(status, CASE_01));
        assertEquals(message, e.getMessage());
    }

    @Test
    void theGuardsAppliedStatusIsTheExpectedWireText() {
        assertEquals("{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\","
                + "\"observedAt\":\"2026-09-22T00:00:00+00:00\",\"authoritative\":true,\"freshWriteAuthorized\":false,"
                + "\"scope\":\"" + SCOPE + "\","
                + "\"scopeBinding\":{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\"},"
                + "\"state\":\"applied\",\"matchingIds\":[1],\"detail\":\"operation ledger and effect row are present\","
                + "\"storedResult\":\"created 1\"}", appliedText);
    }

    @Test
    void theAppliedStatusRoundTrips() throws Exception {
        EffectObservation parsed = WireObservation.parse(applied(), CASE_01);
        EffectObservation expected = new EffectObservation(CASE_01, "2026-09-22T00:00:00+00:00", true, SCOPE,
                EffectState.APPLIED, List.of(1L), "operation ledger and effect row are present", "created 1", CASE_01);
        assertEquals(expected, parsed);
        assertEquals(new ReadBack(ledger, "alice", NOW).reconcileOperation(CASE_01), parsed);
    }

    @Test
    void theUnknownStatusRoundTrips() throws Exception {
        OperationIdentity never = new OperationIdentity("case-02", "alice", BACKEND);
        JsonNode status = ExactJson.parse(ExactJson.mapper().writeValueAsString(guard.status("case-02").toJson()));
        assertEquals(new ReadBack(ledger, "alice", NOW).reconcileOperation(never), WireObservation.parse(status, never));
    }

    @Test
    void thePartialStatusRoundTrips() throws Exception {
        GuardedIssueArguments arguments = GuardedIssueArguments.of("case-12", "guarded-12", "partial");
        guard.apply(arguments, guard.mint(arguments).toJson(), InputResponses.normalised("alpha"));
        OperationIdentity partial = new OperationIdentity("case-12", "alice", BACKEND);
        JsonNode status = ExactJson.parse(ExactJson.mapper().writeValueAsString(guard.status("case-12").toJson()));
        EffectObservation parsed = WireObservation.parse(status, partial);
        assertEquals(EffectState.PARTIAL, parsed.state());
        assertEquals(List.of(2L), parsed.matchingIds());
        assertEquals("partial 2; watcher failed; rollback failed", parsed.storedResult());
        assertEquals(new ReadBack(ledger, "alice", NOW).reconcileOperation(partial), parsed);
    }

    @Test
    void aMissingDetailDefaultsToEmpty() {
        EffectObservation parsed = WireObservation.parse(mutated(s -> s.remove("detail")), CASE_01);
        assertEquals("", parsed.detail());
        assertEquals("", WireObservation.parse(with("detail", "null"), CASE_01).detail());
    }

    @Test
    void aNonObjectIsRefused() {
        rejects(null, "status must be a JSON object");
        rejects(ExactJson.parse("[]"), "status must be a JSON object");
        rejects(ExactJson.parse("\"applied\""), "status must be a JSON object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"operationId", "principal", "backend"})
    void identityFieldsMustBeNonEmptyStrings(String member) {
        for (String bad : List.of("\"\"", "1", "null", "true", "[\"alice\"]")) {
            rejects(with(member, bad), "identity fields must be nonempty strings");
        }
        ObjectNode missing = applied();
        missing.remove(member);
        rejects(missing, "identity fields must be nonempty strings");
    }

    @Test
    void anotherIdentityIsRefused() {
        rejects(mutated(s -> {
            s.put("principal", "bob");
            s.set("scopeBinding", ExactJson.parse("{\"operationId\":\"case-01\",\"principal\":\"bob\",\"backend\":\"sqlite:guarded-matrix\"}"));
        }), "wire reconciliation identity does not match the attempt");
        rejects(with("operationId", "\"case-02\""), "wire reconciliation identity does not match the attempt");
        rejects(with("backend", "\"sqlite:other\""), "wire reconciliation identity does not match the attempt");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireObservation.parse(applied(), new OperationIdentity("case-01", "bob", BACKEND)));
        assertEquals("wire reconciliation identity does not match the attempt", e.getMessage());
    }

    @Test
    void scopeBindingMustBeExactlyTheIdentity() {
        String message = "structured scope does not match the attempt";
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).put("principal", "bob")), message);
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).put("operationId", "case-02")), message);
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).put("backend", "sqlite:other")), message);
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).put("operationId", 1)), message);
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).remove("backend")), message);
        rejects(mutated(s -> ((ObjectNode) s.get("scopeBinding")).put("extra", "x")), message);
        rejects(mutated(s -> s.remove("scopeBinding")), message);
        rejects(with("scopeBinding", "null"), message);
        rejects(with("scopeBinding", "\"" + SCOPE.replace("'", "\\u0027") + "\""), message);
        rejects(with("scopeBinding", "[\"case-01\",\"alice\",\"sqlite:guarded-matrix\"]"), message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "false", "\"true\"", "null", "0"})
    void onlyLiteralTrueIsAuthoritative(String value) {
        rejects(with("authoritative", value), "observation is not authoritative");
    }

    @Test
    void aMissingAuthoritativeIsNotAuthoritative() {
        rejects(mutated(s -> s.remove("authoritative")), "observation is not authoritative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "0", "\"false\"", "null"})
    void freshWriteMustBeLiteralFalse(String value) {
        rejects(with("freshWriteAuthorized", value), "observation must never authorize a fresh write");
    }

    @Test
    void aMissingFreshWriteFlagIsRefused() {
        rejects(mutated(s -> s.remove("freshWriteAuthorized")), "observation must never authorize a fresh write");
    }

    @Test
    void anUnknownStateIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WireObservation.parse(with("state", "\"done\""), CASE_01));
        assertTrue(e.getMessage().startsWith("unknown effect state"), e.getMessage());
        assertEquals("unknown effect state \"done\"", e.getMessage());
        rejects(with("state", "\"APPLIED\""), "unknown effect state \"APPLIED\"");
        rejects(with("state", "1"), "unknown effect state 1");
        rejects(mutated(s -> s.remove("state")), "unknown effect state null");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[true]", "[1.0]", "[0]", "[-1]", "[\"1\"]", "[null]", "[9223372036854775808]", "[[1]]"})
    void matchingIdsMustBePositiveIntegers(String ids) {
        rejects(with("matchingIds", ids), "matching ids must be positive integers");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"x\"", "1", "null", "{}", "true"})
    void matchingIdsMustBeAList(String ids) {
        rejects(with("matchingIds", ids), "matching ids must be a list of positive integers");
    }

    @Test
    void missingMatchingIdsIsNotAList() {
        rejects(mutated(s -> s.remove("matchingIds")), "matching ids must be a list of positive integers");
    }

    @Test
    void matchingIdsMustBeUnique() {
        rejects(with("matchingIds", "[1,1]"), "matching ids must be unique");
    }

    @Test
    void stateAndEffectCountMustAgree() {
        rejects(with("matchingIds", "[]"), "state and effect count disagree");
        rejects(with("matchingIds", "[1,2]"), "state and effect count disagree");
        rejects(mutated(s -> {
            s.put("state", "unknown");
            s.putNull("storedResult");
        }), "state and effect count disagree");
        rejects(mutated(s -> {
            s.put("state", "partial");
            s.set("matchingIds", ExactJson.parse("[]"));
            s.putNull("storedResult");
        }), "state and effect count disagree");
        rejects(mutated(s -> {
            s.put("state", "not_applied");
            s.putNull("storedResult");
        }), "state and effect count disagree");
    }

    @Test
    void appliedNeedsAStoredResult() {
        rejects(with("storedResult", "null"), "applied operation lacks a stored result");
        rejects(with("storedResult", "\"\""), "applied operation lacks a stored result");
        rejects(mutated(s -> s.remove("storedResult")), "applied operation lacks a stored result");
    }

    @Test
    void storedResultMustBeAStringOrNull() {
        rejects(with("storedResult", "1"), "stored result must be a string or null");
    }

    @Test
    void anUnsettledOperationCannotCarryAStoredResult() {
        rejects(mutated(s -> {
            s.put("state", "unknown");
            s.set("matchingIds", ExactJson.parse("[]"));
        }), "unsettled operation cannot carry a stored result");
        rejects(mutated(s -> {
            s.put("state", "not_applied");
            s.set("matchingIds", ExactJson.parse("[]"));
        }), "unsettled operation cannot carry a stored result");
    }

    @Test
    void theStoredResultMustFitStateAndEffect() {
        rejects(with("storedResult", "\"created 2\""), "stored result disagrees with state or effect");
        rejects(with("storedResult", "\"partial 1; watcher failed; rollback failed\""),
                "stored result disagrees with state or effect");
        rejects(mutated(s -> s.put("state", "partial")), "stored result disagrees with state or effect");
        rejects(mutated(s -> {
            s.put("state", "partial");
            s.putNull("storedResult");
        }), "stored result disagrees with state or effect");
    }

    @Test
    void observedAtMustBeAString() {
        rejects(with("observedAt", "5"), "observedAt must be a string");
        rejects(with("observedAt", "null"), "observedAt must be a string");
        rejects(mutated(s -> s.remove("observedAt")), "observedAt must be a string");
    }

    @Test
    void observedAtNeedsATimezone() {
        rejects(with("observedAt", "\"2026-09-22T00:00:00\""), "observedAt lacks timezone");
        rejects(with("observedAt", "\"2026-09-22T00:00\""), "observedAt lacks timezone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "", "2026-13-40T00:00:00+00:00", "1790035200"})
    void observedAtMustBeIso8601(String observedAt) {
        ObjectNode status = applied();
        status.put("observedAt", observedAt);
        rejects(status, "observedAt is not an ISO-8601 timestamp");
    }

    @Test
    void otherOffsetsAndZuluAreAccepted() {
        ObjectNode zulu = applied();
        zulu.put("observedAt", "2026-09-22T00:00:00Z");
        assertEquals("2026-09-22T00:00:00Z", WireObservation.parse(zulu, CASE_01).observedAt());
        ObjectNode offset = applied();
        offset.put("observedAt", "2026-09-22T02:00:00.123456+02:00");
        assertEquals("2026-09-22T02:00:00.123456+02:00", WireObservation.parse(offset, CASE_01).observedAt());
    }

    @Test
    void scopeMustBeANonEmptyString() {
        rejects(with("scope", "\"\""), "scope must be a nonempty string");
        rejects(with("scope", "null"), "scope must be a nonempty string");
        rejects(with("scope", "1"), "scope must be a nonempty string");
        rejects(mutated(s -> s.remove("scope")), "scope must be a nonempty string");
    }

    @Test
    void detailMustBeAString() {
        rejects(with("detail", "1"), "detail must be a string");
    }

    @Test
    void theScopeTextIsFreeButTheBindingIsNot() {
        ObjectNode status = applied();
        status.put("scope", "anything the server says");
        assertEquals("anything the server says", WireObservation.parse(status, CASE_01).scope());
    }

    @Test
    void anOldObservationOfATerminalRecordIsAccepted() {
        ObjectNode old = applied();
        old.put("observedAt", "2000-01-01T00:00:00+00:00");
        assertEquals(new EffectObservation(CASE_01, "2000-01-01T00:00:00+00:00", true, SCOPE, EffectState.APPLIED,
                List.of(1L), "operation ledger and effect row are present", "created 1", CASE_01),
                WireObservation.parse(old, CASE_01));
    }

    @Test
    void rulesApplyInTheSpecifiedOrder() {
        // identity before binding, binding before authority, authority before fresh write, then state, ids, result, time
        rejects(mutated(s -> {
            s.put("principal", "bob");
            s.remove("scopeBinding");
        }), "wire reconciliation identity does not match the attempt");
        rejects(mutated(s -> {
            s.remove("scopeBinding");
            s.put("authoritative", false);
        }), "structured scope does not match the attempt");
        rejects(mutated(s -> {
            s.put("authoritative", false);
            s.put("freshWriteAuthorized", true);
        }), "observation is not authoritative");
        rejects(mutated(s -> {
            s.put("freshWriteAuthorized", true);
            s.put("state", "done");
        }), "observation must never authorize a fresh write");
        rejects(mutated(s -> {
            s.set("matchingIds", ExactJson.parse("[0]"));
            s.put("observedAt", "yesterday");
        }), "matching ids must be positive integers");
        rejects(mutated(s -> {
            s.put("storedResult", "created 2");
            s.put("observedAt", "yesterday");
        }), "stored result disagrees with state or effect");
        rejects(mutated(s -> {
            s.put("observedAt", 5);
            s.put("scope", "");
        }), "observedAt must be a string");
    }
}
