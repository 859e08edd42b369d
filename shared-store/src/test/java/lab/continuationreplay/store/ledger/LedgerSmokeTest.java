package lab.continuationreplay.store.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import lab.continuationreplay.store.OperationIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerSmokeTest {
    @Test
    void appliesOnceAndReplays(@TempDir Path dir) throws Exception {
        try (IssueLedger ledger = IssueLedger.open(dir.resolve("s.sqlite3"), "sqlite:test")) {
            OperationIdentity id = new OperationIdentity("op", "alice", "sqlite:test");
            ApplyResult first = ledger.applyIssueOnce(ApplyRequest.at(id, "fp", "t", "b", Deadlines.of(100, 110, 120),
                    100.0), FaultHook.NONE);
            assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), first);
            ApplyResult again = ledger.applyIssueOnce(ApplyRequest.at(id, "fp", "t", "b", Deadlines.of(100, 110, 120),
                    105.0), FaultHook.NONE);
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), again);
            assertThrows(OperationAuthorityExpired.class, () -> ledger.applyIssueOnce(ApplyRequest.at(id, "fp", "t",
                    "b", Deadlines.of(100, 110, 120), 110.0), FaultHook.NONE));
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            ApplyResult partial = ledger.applyPartialIssueOnce(ApplyRequest.at(new OperationIdentity("p", "alice",
                    "sqlite:test"), "fp2", "t", "b", Deadlines.of(100, 110, 120), 100.0),
                    PartialSteps.injectedFailures(), FaultHook.NONE);
            assertEquals("partial 2; watcher failed; rollback failed", partial.result());
            assertEquals(4, new LedgerQueries(ledger).operationEvents("p").size());
            assertThrows(IllegalStateException.class,
                    () -> ledger.applyIssueOnce(ApplyRequest.at(new OperationIdentity("x", "alice", "sqlite:test"),
                    "fp3", "t", "b", Deadlines.of(100, 110, 120), 100.0), point -> {
                        if (point == CutPoint.AFTER_ISSUE_INSERT) throw new IllegalStateException("cut");
                    }));
            assertEquals(2, new LedgerQueries(ledger).issueCount());
            assertEquals(2, new LedgerQueries(ledger).operationCount());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IssueLedger.open(dir.resolve("s.sqlite3"), "sqlite:other"));
        assertTrue(e.getMessage().equals("database is bound to backend_id 'sqlite:test', not 'sqlite:other'"), e.getMessage());
    }
}
