package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.failAt;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import lab.continuationreplay.store.OperationIdentity;
import org.junit.jupiter.api.Test;

/** Fault-hook cut points (spec §5.2/§5.3/§7.3) and interrupted partial operations left {@code in_progress}. */
class InterruptedOperationTest extends FreshLedger {
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);

    /** A partial-mode watcher step that throws an Error, as an interrupt would: not caught as a step failure. */
    private static PartialSteps interruptingWatcher(AssertionError interrupt) {
        return new PartialSteps("audit@example.test", (connection, issueId, watcher) -> {
            PartialSteps.insertWatcher().apply(connection, issueId, watcher);
            throw interrupt;
        }, (connection, issueId) -> {
            throw new AssertionError("compensation must not run after an interrupt");
        });
    }

    private void leaveInProgress(String operationId) throws Exception {
        AssertionError interrupt = new AssertionError("interrupted");
        AssertionError thrown = assertThrows(AssertionError.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(id(operationId), "fp", "Title", "Body", WINDOW,
                100.0), interruptingWatcher(interrupt), FaultHook.NONE));
        assertSame(interrupt, thrown);
    }

    // ---- in_progress rows -----------------------------------------------------------------------------------------

    @Test
    void errorInsideTheWatcherStepLeavesTheFirstEffectInProgress() throws Exception {
        leaveInProgress("op-x");
        assertEquals(List.of(new Issue(1, "Title", "Body")), queries().issuesWithTitle("Title"));
        OperationRecord record = ledger.operationRecord(id("op-x")).orElseThrow();
        assertEquals(OperationState.IN_PROGRESS, record.state());
        assertEquals(1L, record.effectId());
        assertNull(record.result());
        assertEquals(List.of(), queries().watchersFor(1)); // the watcher sub-transaction rolled back
        assertEquals(List.of(), queries().compensationsFor(1));
        assertEquals(1, queries().operationEvents("op-x").size());
        OperationEvent attempted = queries().operationEvents("op-x").get(0);
        assertEquals("watcher", attempted.step());
        assertEquals("attempted", attempted.outcome());
        assertNull(attempted.errorType());
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L), tableCounts(location));
    }

    @Test
    void inProgressRowRefusesBothEntryPoints() throws Exception {
        leaveInProgress("op-x");
        List<Map<String, Object>> before = rows(location, "SELECT * FROM operations");
        OperationInProgress atomic = assertThrows(OperationInProgress.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-x"), "fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
        assertEquals("operation 'op-x' is in_progress", atomic.getMessage());
        assertEquals("operation_in_progress", atomic.wireCode());
        List<String> ran = new ArrayList<>();
        OperationInProgress partial = assertThrows(OperationInProgress.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-x"), "fp", "Title", "Body", WINDOW, 101.0),
                new PartialSteps("w", (c, i, w) -> ran.add("watcher"), (c, i) -> ran.add("compensation")),
                point -> ran.add(point.label())));
        assertEquals("operation 'op-x' is in_progress", partial.getMessage());
        assertEquals("operation_in_progress", partial.wireCode());
        assertEquals(List.of(), ran);
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L), tableCounts(location));
        assertEquals(before, rows(location, "SELECT * FROM operations"));
    }

    @Test
    void inProgressRowStillConflictsAndExpiresFirst() throws Exception {
        leaveInProgress("op-x");
        OperationConflict conflict = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-x"), "other-fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
        assertEquals("operation_id is already bound to a different principal, backend, or request fingerprint",
                conflict.getMessage());
        OperationConflict byPrincipal = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(new OperationIdentity("op-x", "bob", BACKEND), "fp",
                "Title", "Body", WINDOW, 101.0), FaultHook.NONE));
        assertEquals("operation_id is already bound to a different principal, backend, or request fingerprint",
                byPrincipal.getMessage());
        OperationAuthorityExpired expired = assertThrows(OperationAuthorityExpired.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-x"), "fp", "Title", "Body", WINDOW, 110.0),
                FaultHook.NONE));
        assertEquals("operation authority has expired", expired.getMessage());
        IllegalArgumentException noClock = assertThrows(IllegalArgumentException.class,
                () -> ledger.applyIssueOnce(new ApplyRequest(id("op-x"), "fp", "Title", "Body", WINDOW,
                OptionalDouble.empty()), FaultHook.NONE));
        assertEquals("now_epoch is required to replay a bounded operation", noClock.getMessage());
    }

    @Test
    void inProgressSurvivesReopen() throws Exception {
        leaveInProgress("op-x");
        ledger.close();
        ledger = IssueLedger.open(location, BACKEND);
        OperationInProgress e = assertThrows(OperationInProgress.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-x"), "fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
        assertEquals("operation 'op-x' is in_progress", e.getMessage());
        // and the ledger keeps serving other operations
        assertEquals(new ApplyResult(2, "created 2", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op-y"), "fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
    }

    @Test
    void inProgressRowWithoutEffectIsRefused() throws Exception {
        // an in_progress row that has no effect yet (e.g. left by another implementation) is never replayed
        try (var connection = LedgerTestSupport.jdbc(location); var statement = connection.createStatement()) {
            statement.execute("""
                    INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at, updated_at)
                    VALUES ('bare', 'alice', 'sqlite:test', 'fp', 'in_progress', 'x', 'x')""");
        }
        OperationInProgress atomic = assertThrows(OperationInProgress.class,
                () -> ledger.applyIssueOnce(ApplyRequest.unbounded(id("bare"), "fp", "T", "B"), FaultHook.NONE));
        assertEquals("operation 'bare' is in_progress", atomic.getMessage());
        OperationInProgress partial = assertThrows(OperationInProgress.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.unbounded(id("bare"), "fp", "T", "B"),
                PartialSteps.injectedFailures(), FaultHook.NONE));
        assertEquals("operation 'bare' is in_progress", partial.getMessage());
        assertEquals(0, queries().issueCount());
    }

    @Test
    void appliedRowWithoutResultIsNotReplayedByTheAtomicEntryPoint() throws Exception {
        try (var connection = LedgerTestSupport.jdbc(location); var statement = connection.createStatement()) {
            statement.execute("INSERT INTO issues(id, title, body) VALUES (1, 't', 'b')");
            statement.execute("""
                    INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, effect_id,
                      created_at, updated_at)
                    VALUES ('odd', 'alice', 'sqlite:test', 'fp', 'applied', 1, 'x', 'x')""");
            statement.execute("""
                    INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, effect_id,
                      created_at, updated_at)
                    VALUES ('odd-partial', 'alice', 'sqlite:test', 'fp', 'partial', 1, 'x', 'x')""");
        }
        OperationInProgress e = assertThrows(OperationInProgress.class,
                () -> ledger.applyIssueOnce(ApplyRequest.unbounded(id("odd"), "fp", "T", "B"), FaultHook.NONE));
        assertEquals("operation 'odd' is applied", e.getMessage());
        // a partial row with an effect but no result replays as "partial"
        assertEquals(new ApplyResult(1, "partial", true, OperationState.PARTIAL),
                ledger.applyIssueOnce(ApplyRequest.unbounded(id("odd-partial"), "fp", "T", "B"), FaultHook.NONE));
        assertEquals(new ApplyResult(1, "partial", true, OperationState.PARTIAL),
                ledger.applyPartialIssueOnce(ApplyRequest.unbounded(id("odd-partial"), "fp", "T", "B"),
                PartialSteps.injectedFailures(), FaultHook.NONE));
        // partial mode replays an applied row with an effect even without a result text
        assertEquals(new ApplyResult(1, "partial", true, OperationState.APPLIED),
                ledger.applyPartialIssueOnce(ApplyRequest.unbounded(id("odd"), "fp", "T", "B"),
                PartialSteps.injectedFailures(), FaultHook.NONE));
    }

    // ---- fault hook -----------------------------------------------------------------------------------------------

    @Test
    void cutAfterLedgerInsertRollsEverythingBack() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 100.0),
                failAt(CutPoint.AFTER_LEDGER_INSERT)));
        assertEquals("cut at after-ledger-insert", e.getMessage());
        assertEquals(0, queries().operationCount());
        assertEquals(0, queries().issueCount());
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 101.0), FaultHook.NONE));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void cutAfterIssueInsertRollsEverythingBack() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 100.0),
                failAt(CutPoint.AFTER_ISSUE_INSERT)));
        assertEquals("cut at after-issue-insert", e.getMessage());
        assertEquals(0, queries().operationCount());
        assertEquals(0, queries().issueCount());
        assertEquals(List.of(), queries().issuesWithTitle("Title"));
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), tableCounts(location));
        // the retry is a new operation (nothing was durable); the rolled-back insert never reached sqlite_sequence,
        // so the retry gets issue id 1 again
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 101.0), FaultHook.NONE));
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 102.0), FaultHook.NONE));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void errorFromTheHookAlsoRollsBack() throws Exception {
        AssertionError halt = new AssertionError("halt");
        AssertionError thrown = assertThrows(AssertionError.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title",
                "Body", WINDOW, 100.0), point -> {
                    if (point == CutPoint.AFTER_ISSUE_INSERT) {
                        throw halt;
                    }
                }));
        assertSame(halt, thrown);
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 100.0), FaultHook.NONE));
    }

    @Test
    void rolledBackTransactionReleasesTheFileLock() throws Exception {
        assertThrows(IllegalStateException.class, () -> ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title",
                "Body", WINDOW, 100.0), failAt(CutPoint.AFTER_ISSUE_INSERT)));
        // a second connection can take the write lock immediately
        try (IssueLedger other = IssueLedger.open(location, BACKEND, 200)) {
            assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                    other.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "Title", "Body", WINDOW, 100.0),
                    FaultHook.NONE));
        }
    }

    @Test
    void atomicModeReachesCutPointsInOrderAndPartialModeOnlyItsOwn() throws Exception {
        List<CutPoint> atomic = new ArrayList<>();
        ledger.applyIssueOnce(ApplyRequest.at(id("a"), "fp", "T", "B", WINDOW, 100.0), atomic::add);
        assertEquals(List.of(CutPoint.AFTER_LEDGER_INSERT, CutPoint.AFTER_ISSUE_INSERT), atomic);
        List<CutPoint> partial = new ArrayList<>();
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("p"), "fp", "T", "B", WINDOW, 100.0),
                PartialSteps.injectedFailures(), partial::add);
        assertEquals(List.of(CutPoint.AFTER_PARTIAL_FIRST_COMMIT), partial);
        List<CutPoint> replay = new ArrayList<>();
        ledger.applyIssueOnce(ApplyRequest.at(id("a"), "fp", "T", "B", WINDOW, 101.0), replay::add);
        assertEquals(List.of(), replay);
    }

    @Test
    void cutAfterPartialFirstCommitLeavesExactlyTheDurableFirstEffect() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 100.0),
                PartialSteps.injectedFailures(), failAt(CutPoint.AFTER_PARTIAL_FIRST_COMMIT)));
        assertEquals("cut at after-partial-first-commit", e.getMessage());
        assertEquals(List.of(new Issue(1, "Title", "Body")), queries().issuesWithTitle("Title"));
        OperationRecord record = ledger.operationRecord(id("op-12")).orElseThrow();
        assertEquals(OperationState.IN_PROGRESS, record.state());
        assertEquals(1L, record.effectId());
        assertNull(record.result());
        assertEquals(100.0, record.issuedAt());
        assertEquals(List.of(), queries().operationEvents("op-12"));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
        OperationInProgress retry = assertThrows(OperationInProgress.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 101.0),
                PartialSteps.injectedFailures(), FaultHook.NONE));
        assertEquals("operation 'op-12' is in_progress", retry.getMessage());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void cutPointLabelsAndExitStatuses() {
        assertEquals("after-ledger-insert", CutPoint.AFTER_LEDGER_INSERT.label());
        assertEquals(71, CutPoint.AFTER_LEDGER_INSERT.exitStatus());
        assertEquals("after-issue-insert", CutPoint.AFTER_ISSUE_INSERT.label());
        assertEquals(72, CutPoint.AFTER_ISSUE_INSERT.exitStatus());
        assertEquals("after-partial-first-commit", CutPoint.AFTER_PARTIAL_FIRST_COMMIT.label());
        assertEquals(73, CutPoint.AFTER_PARTIAL_FIRST_COMMIT.exitStatus());
        assertEquals(3, CutPoint.values().length);
    }
}
