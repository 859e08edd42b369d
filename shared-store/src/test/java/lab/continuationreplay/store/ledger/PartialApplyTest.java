package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed spec §5.3: the bounded multi-step operation of case 12. */
class PartialApplyTest extends FreshLedger {
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);
    private static final String WATCHER = "audit@example.test";

    private static List<List<String>> eventTuples(List<OperationEvent> events) {
        List<List<String>> tuples = new ArrayList<>();
        for (OperationEvent event : events) {
            List<String> tuple = new ArrayList<>();
            tuple.add(event.step());
            tuple.add(event.outcome());
            tuple.add(event.errorType());
            tuples.add(tuple);
        }
        return tuples;
    }

    private static List<String> tuple(String step, String outcome, String errorType) {
        List<String> tuple = new ArrayList<>();
        tuple.add(step);
        tuple.add(outcome);
        tuple.add(errorType);
        return tuple;
    }

    @Test
    void injectedFailuresLeaveAPartialOperationWithFullAuditTrail() throws Exception {
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW,
                100.0), PartialSteps.injectedFailures(), FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", false, OperationState.PARTIAL), result);

        List<OperationEvent> events = queries().operationEvents("op-12");
        assertEquals(List.of(
                tuple("watcher", "attempted", null),
                tuple("watcher", "failed", "SyntheticWatcherFailure"),
                tuple("rollback_issue", "attempted", null),
                tuple("rollback_issue", "failed", "SyntheticCompensationFailure")), eventTuples(events));
        assertEquals(List.of(1L, 2L, 3L, 4L), events.stream().map(OperationEvent::id).toList());
        assertEquals(List.of("op-12", "op-12", "op-12", "op-12"), events.stream().map(OperationEvent::operationId).toList());
        assertEquals(List.of(new Compensation(1, 1, "rollback_issue", "failed:SyntheticCompensationFailure")),
                queries().compensationsFor(1));
        assertEquals(List.of(), queries().watchersFor(1));
        assertEquals(List.of(new Issue(1, "Title", "Body")), queries().issuesWithTitle("Title"));
        OperationRecord record = ledger.operationRecord(id("op-12")).orElseThrow();
        assertEquals(OperationState.PARTIAL, record.state());
        assertEquals(1L, record.effectId());
        assertEquals("partial 1; watcher failed; rollback failed", record.result());
        assertEquals(100.0, record.issuedAt());
        assertEquals(110.0, record.authorityExpiresAt());
        assertEquals(120.0, record.replayExpiresAt());
        assertEquals(List.of(1L, 1L, 4L, 0L, 1L), tableCounts(location));
        for (Map<String, Object> event : rows(location, "SELECT created_at FROM operation_events")) {
            String stamp = (String) event.get("created_at");
            assertEquals(true, stamp.matches(LedgerTestSupport.ISSUED_WALL_CLOCK), stamp);
        }
    }

    @Test
    void replayOfAPartialOperationReturnsTheStoredResultWithoutNewEvents() throws Exception {
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 100.0),
                PartialSteps.injectedFailures(), FaultHook.NONE);
        List<Map<String, Object>> before = rows(location, "SELECT * FROM operations");
        List<String> seen = new ArrayList<>();
        ApplyResult replay = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW,
                105.0), new PartialSteps(WATCHER, (c, i, w) -> seen.add("watcher"), (c,
                i) -> seen.add("compensation")), point -> seen.add(point.label()));
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", true, OperationState.PARTIAL), replay);
        assertEquals(List.of(), seen); // neither the steps nor the cut point run on replay
        assertEquals(4, queries().operationEvents("op-12").size());
        assertEquals(List.of(1L, 1L, 4L, 0L, 1L), tableCounts(location));
        assertEquals(before, rows(location, "SELECT * FROM operations"));
        assertEquals(OperationState.PARTIAL, ledger.operationRecord(id("op-12")).orElseThrow().state());
    }

    @Test
    void partialRowIsReplayedByTheAtomicEntryPoint() throws Exception {
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 100.0),
                PartialSteps.injectedFailures(), FaultHook.NONE);
        ApplyResult replay = ledger.applyIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", true, OperationState.PARTIAL), replay);
        assertEquals(List.of(1L, 1L, 4L, 0L, 1L), tableCounts(location));
    }

    @Test
    void partialReplayWithChangedFingerprintConflicts() throws Exception {
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp", "Title", "Body", WINDOW, 100.0),
                PartialSteps.injectedFailures(), FaultHook.NONE);
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-12"), "fp-2", "Title", "Body", WINDOW,
                130.0), PartialSteps.injectedFailures(), FaultHook.NONE));
        assertEquals("operation_id is already bound to a different principal, backend, or request fingerprint",
                e.getMessage());
        assertEquals(List.of(1L, 1L, 4L, 0L, 1L), tableCounts(location));
    }

    @Test
    void succeedingWatcherAppliesTheOperation() throws Exception {
        PartialSteps steps = new PartialSteps(WATCHER, PartialSteps.insertWatcher(), (c, i) -> {
            throw new AssertionError("compensation must not run");
        });
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-w"), "fp", "Title", "Body", WINDOW,
                100.0), steps, FaultHook.NONE);
        assertEquals(new ApplyResult(1, "created 1 with watcher", false, OperationState.APPLIED), result);
        assertEquals(List.of(WATCHER), queries().watchersFor(1));
        assertEquals(List.of(tuple("watcher", "attempted", null), tuple("watcher", "succeeded", null)),
                eventTuples(queries().operationEvents("op-w")));
        assertEquals(List.of(), queries().compensationsFor(1));
        OperationRecord record = ledger.operationRecord(id("op-w")).orElseThrow();
        assertEquals(OperationState.APPLIED, record.state());
        assertEquals(1L, record.effectId());
        assertEquals("created 1 with watcher", record.result());
        assertEquals(List.of(1L, 1L, 2L, 1L, 0L), tableCounts(location));
        // replay of an applied partial-mode operation, through both entry points
        assertEquals(new ApplyResult(1, "created 1 with watcher", true, OperationState.APPLIED),
                ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-w"), "fp", "Title", "Body", WINDOW, 101.0), steps,
                FaultHook.NONE));
        assertEquals(new ApplyResult(1, "created 1 with watcher", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op-w"), "fp", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
        assertEquals(List.of(1L, 1L, 2L, 1L, 0L), tableCounts(location));
    }

    @Test
    void successfulCompensationKeepsTheIssueAndStaysPartial() throws Exception {
        PartialSteps steps = new PartialSteps(WATCHER, (c, i, w) -> {
            throw new PartialSteps.SyntheticWatcherFailure("injected watcher failure");
        }, (connection, issueId) -> {});
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-c"), "fp", "Title", "Body", WINDOW,
                100.0), steps, FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback succeeded", false, OperationState.PARTIAL), result);
        assertEquals(List.of(tuple("watcher", "attempted", null), tuple("watcher", "failed",
                "SyntheticWatcherFailure"), tuple("rollback_issue", "attempted", null), tuple("rollback_issue",
                "succeeded", null)), eventTuples(queries().operationEvents("op-c")));
        assertEquals(List.of(new Compensation(1, 1, "rollback_issue", "succeeded")), queries().compensationsFor(1));
        assertEquals(List.of(new Issue(1, "Title", "Body")), queries().issuesWithTitle("Title"));
        assertEquals(1, queries().issueCount());
        assertEquals(List.of(), queries().watchersFor(1));
        OperationRecord record = ledger.operationRecord(id("op-c")).orElseThrow();
        assertEquals(OperationState.PARTIAL, record.state());
        assertEquals("partial 1; watcher failed; rollback succeeded", record.result());
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback succeeded", true, OperationState.PARTIAL),
                ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-c"), "fp", "Title", "Body", WINDOW, 101.0), steps,
                FaultHook.NONE));
    }

    @Test
    void failingWatcherWritesAreRolledBack() throws Exception {
        // the watcher inserts its row and then fails: the row must not survive
        PartialSteps steps = new PartialSteps(WATCHER, (connection, issueId, watcher) -> {
            PartialSteps.insertWatcher().apply(connection, issueId, watcher);
            throw new IllegalStateException("after insert");
        }, (connection, issueId) -> {});
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0),
                steps, FaultHook.NONE);
        assertEquals("partial 1; watcher failed; rollback succeeded", result.result());
        assertEquals(List.of(), queries().watchersFor(1));
        assertEquals(tuple("watcher", "failed", "IllegalStateException"),
                eventTuples(queries().operationEvents("op")).get(1));
    }

    @Test
    void failingCompensationWritesAreRolledBack() throws Exception {
        // a compensation that rewrites the issue and then fails: the rewrite must be undone
        PartialSteps steps = new PartialSteps(WATCHER, (c, i, w) -> {
            throw new PartialSteps.SyntheticWatcherFailure("w");
        }, (connection, issueId) -> {
            try (var update = connection.prepareStatement("UPDATE issues SET title = 'rewritten' WHERE id = ?")) {
                update.setLong(1, issueId);
                update.executeUpdate();
            }
            throw new PartialSteps.SyntheticCompensationFailure("after update");
        });
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0),
                steps, FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", false, OperationState.PARTIAL), result);
        assertEquals(List.of(new Issue(1, "T", "B")), queries().issuesWithTitle("T"));
        assertEquals(List.of(), queries().issuesWithTitle("rewritten"));
        assertEquals(List.of(new Compensation(1, 1, "rollback_issue", "failed:SyntheticCompensationFailure")),
                queries().compensationsFor(1));
    }

    @Test
    void compensationCannotDeleteTheIssueBecauseTheLedgerReferencesIt() throws Exception {
        // foreign keys are on and operations.effect_id references the issue: a deleting compensation fails
        PartialSteps steps = new PartialSteps(WATCHER, (c, i, w) -> {
            throw new PartialSteps.SyntheticWatcherFailure("w");
        }, (connection, issueId) -> {
            try (var delete = connection.prepareStatement("DELETE FROM issues WHERE id = ?")) {
                delete.setLong(1, issueId);
                delete.executeUpdate();
            }
        });
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0),
                steps, FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", false, OperationState.PARTIAL), result);
        assertEquals(List.of(new Issue(1, "T", "B")), queries().issuesWithTitle("T"));
        assertEquals(List.of(new Compensation(1, 1, "rollback_issue", "failed:" + driverException())),
                queries().compensationsFor(1));
    }

    @Test
    void sqlExceptionInTheWatcherIsAFailedStepWithItsClassName() throws Exception {
        // foreign keys are on: a watcher pointing at a missing issue fails inside the step
        PartialSteps steps = new PartialSteps(WATCHER,
                (connection, issueId, watcher) -> PartialSteps.insertWatcher().apply(connection, 999, watcher),
                PartialSteps.injectedFailures().compensationStep());
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0),
                steps, FaultHook.NONE);
        assertEquals("partial 1; watcher failed; rollback failed", result.result());
        OperationEvent failed = queries().operationEvents("op").get(1);
        assertEquals("failed", failed.outcome());
        assertEquals(driverException(), failed.errorType());
        assertEquals(0, LedgerTestSupport.count(location, "watchers"));
    }

    @Test
    void checkedSqlExceptionFromCompensationIsRecorded() throws Exception {
        PartialSteps steps = new PartialSteps(WATCHER, (c, i, w) -> {
            throw new SQLException("watcher sql");
        }, (c, i) -> {
            throw new SQLException("compensation sql");
        });
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0),
                steps, FaultHook.NONE);
        assertEquals(new ApplyResult(1, "partial 1; watcher failed; rollback failed", false, OperationState.PARTIAL), result);
        assertEquals(List.of(tuple("watcher", "attempted", null), tuple("watcher", "failed", "SQLException"),
                tuple("rollback_issue", "attempted", null), tuple("rollback_issue", "failed", "SQLException")),
                eventTuples(queries().operationEvents("op")));
        assertEquals(List.of(new Compensation(1, 1, "rollback_issue", "failed:SQLException")),
                queries().compensationsFor(1));
    }

    @Test
    void stepsReceiveTheEffectIdAndWatcherName() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("first"), "fp", "T", "B"), FaultHook.NONE);
        List<Object> seen = new ArrayList<>();
        PartialSteps steps = new PartialSteps("someone@example.test", (c, issueId, watcher) -> {
            seen.add(issueId);
            seen.add(watcher);
            throw new IllegalStateException("no");
        }, (c, issueId) -> seen.add(issueId));
        ApplyResult result = ledger.applyPartialIssueOnce(ApplyRequest.at(id("second"), "fp", "T2", "B2", WINDOW,
                100.0), steps, FaultHook.NONE);
        assertEquals(new ApplyResult(2, "partial 2; watcher failed; rollback succeeded", false, OperationState.PARTIAL), result);
        assertEquals(List.of(2L, "someone@example.test", 2L), seen);
        assertEquals(List.of(new Compensation(1, 2, "rollback_issue", "succeeded")), queries().compensationsFor(2));
        assertEquals(List.of(), queries().compensationsFor(1));
    }

    @Test
    void eventsAreScopedToTheirOperation() throws Exception {
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("a"), "fp", "T", "B", WINDOW, 100.0),
                PartialSteps.injectedFailures(), FaultHook.NONE);
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("b"), "fp", "T", "B", WINDOW, 100.0), new PartialSteps(WATCHER,
                PartialSteps.insertWatcher(), (c, i) -> {}), FaultHook.NONE);
        assertEquals(List.of(1L, 2L, 3L, 4L), queries().operationEvents("a").stream().map(OperationEvent::id).toList());
        assertEquals(List.of(5L, 6L), queries().operationEvents("b").stream().map(OperationEvent::id).toList());
        assertEquals(List.of(), queries().operationEvents("c"));
        assertEquals(List.of(WATCHER), queries().watchersFor(2));
        assertEquals(List.of(), queries().watchersFor(1));
    }

    @Test
    void injectedFailureStepsThrowTheSpecifiedExceptions() {
        PartialSteps steps = PartialSteps.injectedFailures();
        assertEquals(WATCHER, steps.watcher());
        PartialSteps.SyntheticWatcherFailure watcher = assertThrows(PartialSteps.SyntheticWatcherFailure.class,
                () -> steps.watcherStep().apply(null, 1, WATCHER));
        assertEquals("injected watcher failure", watcher.getMessage());
        PartialSteps.SyntheticCompensationFailure compensation = assertThrows(
                PartialSteps.SyntheticCompensationFailure.class, () -> steps.compensationStep().apply(null, 1));
        assertEquals("injected issue rollback failure", compensation.getMessage());
    }

    @Test
    void firstEffectIsRecordedInProgressBeforeTheSteps() throws Exception {
        List<OperationRecord> seenInWatcher = new ArrayList<>();
        PartialSteps steps = new PartialSteps(WATCHER, (connection, issueId, watcher) -> {
            // the step runs inside the ledger's own transaction; read the row through it
            try (var select = connection.prepareStatement("SELECT state, effect_id, result FROM operations");
                    var row = select.executeQuery()) {
                row.next();
                OperationState state = OperationState.fromStored(row.getString(1)).orElseThrow();
                seenInWatcher.add(new OperationRecord(id("op"), "", state, row.getLong(2), row.getString(3), 0.0, null,
                        null, "", ""));
            }
            PartialSteps.insertWatcher().apply(connection, issueId, watcher);
        }, (c, i) -> {});
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", WINDOW, 100.0), steps, FaultHook.NONE);
        assertEquals(1, seenInWatcher.size());
        assertEquals(OperationState.IN_PROGRESS, seenInWatcher.get(0).state());
        assertEquals(1L, seenInWatcher.get(0).effectId());
        assertNull(seenInWatcher.get(0).result());
    }

    /** A step's error type is the class the store's driver threw: the recorded text differs between the stores. */
    private String driverException() {
        return kind == LedgerKind.SQLITE ? "SQLiteException" : "PSQLException";
    }
}
