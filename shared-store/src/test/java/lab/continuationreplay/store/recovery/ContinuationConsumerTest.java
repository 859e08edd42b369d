package lab.continuationreplay.store.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeoutException;
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

class ContinuationConsumerTest {
    private static final String BACKEND = "sqlite:guarded-matrix";
    private static final long NOW = 1_790_035_200L;
    private static final FingerprintKey KEY = FingerprintKey.fromHex(
            "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba", "WIRE_FINGERPRINT_KEY_HEX");
    private static final OperationIdentity CASE_01 = new OperationIdentity("case-01", "alice", BACKEND);
    private static final String SCOPE = "operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'";
    private static final String SETTLED = "identity-bound read-only evidence; no repeat execution authorized";

    @TempDir
    Path dir;
    private IssueLedger ledger;
    private IssueGuard guard;
    private ReadBack readBack;

    @BeforeEach
    void open() throws Exception {
        ledger = IssueLedger.open(dir.resolve("consumer.sqlite3"), BACKEND);
        guard = new IssueGuard(new GuardConfig("alice", BACKEND, NOW, 300, 360, KEY), ledger, FaultHook.NONE);
        readBack = new ReadBack(ledger, "alice", NOW);
    }

    @AfterEach
    void close() throws Exception {
        ledger.close();
    }

    private void apply(String operationId, String mode) throws Exception {
        GuardedIssueArguments arguments = GuardedIssueArguments.of(operationId, "title-" + operationId, mode);
        ContinuationState state = guard.mint(arguments);
        guard.apply(arguments, state.toJson(), InputResponses.normalised("alpha"));
    }

    private static EffectObservation observation(OperationIdentity identity, String observedAt, boolean authoritative,
            String scope, EffectState state, List<Long> ids, String storedResult, OperationIdentity binding) {
        return new EffectObservation(identity, observedAt, authoritative, scope, state, ids, "d", storedResult, binding);
    }

    private static EffectObservation appliedWith(String observedAt, List<Long> ids, String storedResult) {
        return observation(CASE_01, observedAt, true, SCOPE, EffectState.APPLIED, ids, storedResult, CASE_01);
    }

    private static void refuses(EffectObservation observation, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ContinuationConsumer(CASE_01).reconcile(identity -> observation));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aLostReplyLeavesEverythingUnknownAndOnlyReconciles() {
        RecoveryState state = new ContinuationConsumer(CASE_01).transportFailed(new IOException());
        assertEquals(new RecoveryState(CASE_01, SubmissionState.UNKNOWN, EffectState.UNKNOWN, null, RecoveryAction.RECONCILE,
                "no terminal reply received (IOException)", null), state);
        assertFalse(state.freshWriteAuthorized());
        assertEquals("no terminal reply received (TimeoutException)",
                new ContinuationConsumer(CASE_01).transportFailed(new TimeoutException("late")).detail());
    }

    @Test
    void anAppliedObservationReturnsTheStoredResult() throws Exception {
        apply("case-01", null);
        EffectObservation observation = readBack.reconcileOperation(CASE_01);
        RecoveryState state = new ContinuationConsumer(CASE_01).reconcile(readBack::reconcileOperation);
        assertEquals(new RecoveryState(CASE_01, SubmissionState.UNKNOWN, EffectState.APPLIED, observation,
                RecoveryAction.RETURN_STORED_RESULT, SETTLED, "created 1"), state);
        assertFalse(state.freshWriteAuthorized());
    }

    @Test
    void theObserverIsAskedAboutTheAttemptsIdentity() throws Exception {
        apply("case-01", null);
        OperationIdentity[] asked = new OperationIdentity[1];
        new ContinuationConsumer(CASE_01).reconcile(identity -> {
            asked[0] = identity;
            return readBack.reconcileOperation(identity);
        });
        assertSame(CASE_01, asked[0]);
    }

    @Test
    void theWireRoundTripSettlesTheSameWay() throws Exception {
        apply("case-01", null);
        RecoveryState state = new ContinuationConsumer(CASE_01).reconcile(identity -> WireObservation.parse(
                ExactJson.parse(ExactJson.mapper().writeValueAsString(guard.status(identity.operationId()).toJson())),
                identity));
        assertEquals(RecoveryAction.RETURN_STORED_RESULT, state.action());
        assertEquals("created 1", state.storedResult());
        assertEquals(EffectState.APPLIED, state.effect());
        assertEquals(SubmissionState.UNKNOWN, state.submission());
    }

    @Test
    void aPartialObservationStopsWithoutResult() throws Exception {
        apply("case-12", "partial");
        OperationIdentity partial = new OperationIdentity("case-12", "alice", BACKEND);
        EffectObservation observation = readBack.reconcileOperation(partial);
        assertEquals("partial 1; watcher failed; rollback failed", observation.storedResult());
        RecoveryState state = new ContinuationConsumer(partial).reconcile(readBack::reconcileOperation);
        assertEquals(new RecoveryState(partial, SubmissionState.UNKNOWN, EffectState.PARTIAL, observation,
                RecoveryAction.STOP, SETTLED, null), state);
        assertFalse(state.freshWriteAuthorized());
    }

    @Test
    void anUnknownObservationStops() throws Exception {
        EffectObservation observation = readBack.reconcileOperation(CASE_01);
        RecoveryState state = new ContinuationConsumer(CASE_01).reconcile(readBack::reconcileOperation);
        assertEquals(new RecoveryState(CASE_01, SubmissionState.UNKNOWN, EffectState.UNKNOWN, observation,
                RecoveryAction.STOP, SETTLED, null), state);
        assertFalse(state.freshWriteAuthorized());
    }

    @Test
    void anAuthoritativeNotAppliedObservationStillOnlyStops() throws Exception {
        EffectObservation notApplied = observation(CASE_01, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.NOT_APPLIED,
                List.of(), null, CASE_01);
        RecoveryState state = new ContinuationConsumer(CASE_01).reconcile(identity -> notApplied);
        assertEquals(RecoveryAction.STOP, state.action());
        assertEquals(EffectState.NOT_APPLIED, state.effect());
        assertNull(state.storedResult());
        assertFalse(state.freshWriteAuthorized());
    }

    @Test
    void diagnosticsCannotSettle() throws Exception {
        apply("case-01", null);
        EffectObservation diagnostic = readBack.observeByTitle("title-case-01", "case-01");
        assertEquals(CASE_01, diagnostic.identity());
        refuses(diagnostic, "diagnostic observations cannot settle an uncertain operation");
        refuses(observation(CASE_01, "2026-09-22T00:00:00+00:00", false, SCOPE, EffectState.APPLIED, List.of(1L),
                "created 1", CASE_01), "diagnostic observations cannot settle an uncertain operation");
    }

    @Test
    void anotherIdentityIsRefused() throws Exception {
        OperationIdentity bob = new OperationIdentity("case-01", "bob", BACKEND);
        refuses(observation(bob, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.UNKNOWN, List.of(), null, bob),
                "observation identity does not match the attempt");
        OperationIdentity otherOp = new OperationIdentity("case-02", "alice", BACKEND);
        refuses(readBack.reconcileOperation(otherOp), "observation identity does not match the attempt");
        refuses(null, "observation identity does not match the attempt");
    }

    @Test
    void theScopeBindingMustBeTheAttempt() {
        refuses(observation(CASE_01, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.APPLIED, List.of(1L),
                "created 1", null), "observation scope binding does not match the attempt");
        refuses(observation(CASE_01, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.APPLIED, List.of(1L), "created 1",
                new OperationIdentity("case-01", "bob", BACKEND)), "observation scope binding does not match the attempt");
    }

    @Test
    void theObservationMustBeConsistent() {
        String at = "2026-09-22T00:00:00+00:00";
        refuses(observation(CASE_01, at, true, SCOPE, null, List.of(), null, CASE_01), "observation has no effect state");
        refuses(observation(CASE_01, at, true, "", EffectState.APPLIED, List.of(1L), "created 1", CASE_01),
                "scope must be a nonempty string");
        refuses(observation(CASE_01, at, true, null, EffectState.APPLIED, List.of(1L), "created 1", CASE_01),
                "scope must be a nonempty string");
        refuses(appliedWith(null, List.of(1L), "created 1"), "observedAt must be a string");
        refuses(appliedWith("2026-09-22T00:00:00", List.of(1L), "created 1"), "observedAt lacks timezone");
        refuses(appliedWith("yesterday", List.of(1L), "created 1"), "observedAt is not an ISO-8601 timestamp");
        refuses(appliedWith(at, List.of(0L), "created 0"), "matching ids must be positive integers");
        refuses(appliedWith(at, List.of(-1L), "created -1"), "matching ids must be positive integers");
        refuses(appliedWith(at, List.of(1L, 1L), "created 1"), "matching ids must be unique");
        refuses(appliedWith(at, List.of(), "created 1"), "state and effect count disagree");
        refuses(appliedWith(at, List.of(1L, 2L), "created 1"), "state and effect count disagree");
        refuses(observation(CASE_01, at, true, SCOPE, EffectState.UNKNOWN, List.of(1L), null, CASE_01),
                "state and effect count disagree");
        refuses(appliedWith(at, List.of(1L), null), "applied operation lacks a stored result");
        refuses(appliedWith(at, List.of(1L), ""), "applied operation lacks a stored result");
        refuses(observation(CASE_01, at, true, SCOPE, EffectState.UNKNOWN, List.of(), "created 1", CASE_01),
                "unsettled operation cannot carry a stored result");
        refuses(appliedWith(at, List.of(1L), "created 2"), "stored result disagrees with state or effect");
        refuses(observation(CASE_01, at, true, SCOPE, EffectState.PARTIAL, List.of(1L), "created 1", CASE_01),
                "stored result disagrees with state or effect");
    }

    @Test
    void anOldObservationOfATerminalRecordStillSettles() throws Exception {
        RecoveryState state = new ContinuationConsumer(CASE_01).reconcile(
                identity -> appliedWith("2000-01-01T00:00:00+00:00", List.of(1L), "created 1 with watcher"));
        assertEquals(RecoveryAction.RETURN_STORED_RESULT, state.action());
        assertEquals("created 1 with watcher", state.storedResult());
    }

    @Test
    void observerFailuresPropagate() {
        SQLException failure = new SQLException("database is locked");
        SQLException e = assertThrows(SQLException.class,
                () -> new ContinuationConsumer(CASE_01).reconcile(identity -> {
                    throw failure;
                }));
        assertSame(failure, e);
    }

    @Test
    void aConsumerNeedsAnIdentity() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new ContinuationConsumer(null));
        assertEquals("identity", e.getMessage());
    }

    @Test
    void freshWriteIsNeverAuthorized() throws Exception {
        apply("case-01", null);
        apply("case-12", "partial");
        ContinuationConsumer consumer = new ContinuationConsumer(CASE_01);
        assertFalse(consumer.transportFailed(new IOException()).freshWriteAuthorized());
        assertFalse(consumer.reconcile(readBack::reconcileOperation).freshWriteAuthorized());
        OperationIdentity partial = new OperationIdentity("case-12", "alice", BACKEND);
        assertFalse(new ContinuationConsumer(partial).reconcile(readBack::reconcileOperation).freshWriteAuthorized());
        OperationIdentity missing = new OperationIdentity("case-02", "alice", BACKEND);
        assertFalse(new ContinuationConsumer(missing).reconcile(readBack::reconcileOperation).freshWriteAuthorized());
        for (RecoveryAction action : RecoveryAction.values()) {
            assertFalse(new RecoveryState(CASE_01, SubmissionState.ADMITTED, EffectState.NOT_APPLIED, null, action, "",
                    null).freshWriteAuthorized());
        }
    }

    @Test
    void wireNamesHaveNoRetry() {
        assertEquals(List.of("reconcile", "return_stored_result", "stop"),
                java.util.Arrays.stream(RecoveryAction.values()).map(RecoveryAction::wire).toList());
        assertEquals(List.of("not_admitted", "admitted", "unknown"),
                java.util.Arrays.stream(SubmissionState.values()).map(SubmissionState::wire).toList());
    }
}
