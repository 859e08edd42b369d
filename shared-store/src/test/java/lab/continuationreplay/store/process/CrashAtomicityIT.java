package lab.continuationreplay.store.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationInProgress;
import lab.continuationreplay.store.ledger.OperationRecord;
import lab.continuationreplay.store.ledger.OperationState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real JVM halts ({@code Runtime.halt}, no cleanup) at each cut point. The atomic cut points must leave nothing;
 * the partial one must leave exactly the durable first effect. On a SQLite file and on PostgreSQL alike.
 */
class CrashAtomicityIT {
    private static final String BACKEND = "sqlite:crash";

    private static ChildProcesses.Outcome crash(ChildLedger.Target db, String command, String fault) throws Exception {
        Process child = ChildProcesses.start(db.environment(), command, BACKEND, "op-1", "alice", "fp-1", fault);
        return ChildProcesses.releaseTogether(List.of(child)).get(0);
    }

    @ParameterizedTest(name = "{2}: {0} exits {1} and leaves nothing")
    @CsvSource({"exit-after-ledger-insert, 71, SQLITE", "exit-after-issue-insert, 72, SQLITE",
            "exit-after-ledger-insert, 71, POSTGRES", "exit-after-issue-insert, 72, POSTGRES"})
    void atomicCutPointsLeaveZeroRows(String fault, int status, ChildLedger kind, @TempDir Path dir) throws Exception {
        ChildLedger.Target db = kind.fresh(dir, "store");
        ChildProcesses.Outcome outcome = crash(db, "apply", fault);
        assertEquals(status, outcome.exitStatus());
        assertNull(outcome.line(), "a halted process prints no result");
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            assertEquals(0, new LedgerQueries(ledger).issueCount());
            assertEquals(0, new LedgerQueries(ledger).operationCount());
            // Nothing was committed, so the same operation can still commit exactly once.
            var result = ledger.applyIssueOnce(ApplyRequest.at(new OperationIdentity("op-1", "alice", BACKEND), "fp-1",
                    "title", "body", Deadlines.of(100, 400, 460), 100.0), FaultHook.NONE);
            assertEquals("created 1", result.result());
            assertEquals(1, new LedgerQueries(ledger).issueCount());
        }
    }

    @ParameterizedTest
    @EnumSource(ChildLedger.class)
    void partialCutPointLeavesExactlyTheDurableFirstEffect(ChildLedger kind, @TempDir Path dir) throws Exception {
        ChildLedger.Target db = kind.fresh(dir, "store");
        ChildProcesses.Outcome outcome = crash(db, "partial", "exit-after-partial-first-commit");
        assertEquals(73, outcome.exitStatus());
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            OperationIdentity identity = new OperationIdentity("op-1", "alice", BACKEND);
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            OperationRecord row = ledger.operationRecord(identity).orElseThrow();
            assertEquals(OperationState.IN_PROGRESS, row.state());
            assertEquals(1L, row.effectId());
            assertNull(row.result());
            assertEquals(List.of(), new LedgerQueries(ledger).operationEvents("op-1"));
            // The interrupted operation is never redone: a retry is told it is in progress.
            assertEquals("operation_in_progress",
                    org.junit.jupiter.api.Assertions.assertThrows(OperationInProgress.class,
                    () -> ledger.applyIssueOnce(ApplyRequest.at(identity, "fp-1", "title", "body", Deadlines.of(100,
                    400, 460), 100.0), FaultHook.NONE)).wireCode());
            assertEquals(1, new LedgerQueries(ledger).issueCount());
        }
    }

    @ParameterizedTest
    @EnumSource(ChildLedger.class)
    void withoutAFaultTheChildCommitsNormally(ChildLedger kind, @TempDir Path dir) throws Exception {
        ChildLedger.Target db = kind.fresh(dir, "store");
        ChildProcesses.Outcome outcome = crash(db, "apply", "none");
        assertEquals(0, outcome.exitStatus());
        assertEquals("applied 1 false created 1", outcome.line());
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
        }
    }
}
