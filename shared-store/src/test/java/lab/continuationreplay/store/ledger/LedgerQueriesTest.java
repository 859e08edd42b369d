package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;
import org.junit.jupiter.api.Test;

/** Seed spec §5.5: read-side queries of the ledger. */
class LedgerQueriesTest extends FreshLedger {
    @Test
    void emptyLedger() throws Exception {
        assertEquals(0, queries().issueCount());
        assertEquals(0, queries().operationCount());
        assertEquals(Optional.empty(), ledger.operationRecord(id("none")));
        assertEquals(Optional.empty(), ledger.issue(1));
        assertEquals(List.of(), queries().issuesWithTitle("t"));
        assertEquals(List.of(), queries().issuesWithBody("b"));
        assertEquals(List.of(), queries().operationEvents("none"));
        assertEquals(List.of(), queries().compensationsFor(1));
        assertEquals(List.of(), queries().watchersFor(1));
    }

    @Test
    void operationRecordMatchesTheFullTriple() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op"), "fp", "T", "B", Deadlines.of(100, 110, 120), 100.0),
                FaultHook.NONE);
        OperationRecord record = ledger.operationRecord(id("op")).orElseThrow();
        assertEquals(new OperationIdentity("op", "alice", BACKEND), record.identity());
        assertEquals(Optional.empty(), ledger.operationRecord(new OperationIdentity("op", "bob", BACKEND)));
        assertEquals(Optional.empty(), ledger.operationRecord(new OperationIdentity("op", "alice", "sqlite:other")));
        assertEquals(Optional.empty(), ledger.operationRecord(new OperationIdentity("OP", "alice", BACKEND)));
        assertEquals(Optional.empty(), ledger.operationRecord(new OperationIdentity("op", "Alice", BACKEND)));
        assertEquals(Optional.of(new OperationRecord(id("op"), "fp", OperationState.APPLIED, 1L, "created 1", 100.0, 110.0, 120.0,
                record.createdAt(), record.updatedAt())), ledger.operationRecord(id("op")));
    }

    @Test
    void issueQueriesFilterAndOrderById() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("1"), "fp", "alpha", "one"), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("2"), "fp", "beta", "two"), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("3"), "fp", "alpha", "two"), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("4"), "fp", "Alpha", "one"), FaultHook.NONE);
        assertEquals(List.of(new Issue(1, "alpha", "one"), new Issue(3, "alpha", "two")),
                queries().issuesWithTitle("alpha"));
        assertEquals(List.of(new Issue(4, "Alpha", "one")), queries().issuesWithTitle("Alpha"));
        assertEquals(List.of(new Issue(2, "beta", "two")), queries().issuesWithTitle("beta"));
        assertEquals(List.of(), queries().issuesWithTitle("alp"));
        assertEquals(List.of(new Issue(1, "alpha", "one"), new Issue(4, "Alpha", "one")),
                queries().issuesWithBody("one"));
        assertEquals(List.of(new Issue(2, "beta", "two"), new Issue(3, "alpha", "two")),
                queries().issuesWithBody("two"));
        assertEquals(List.of(), queries().issuesWithBody("three"));
        assertEquals(Optional.of(new Issue(3, "alpha", "two")), ledger.issue(3));
        assertEquals(Optional.empty(), ledger.issue(5));
        assertEquals(4, queries().issueCount());
        assertEquals(4, queries().operationCount());
    }

    @Test
    void titlesAndBodiesAreBoundNotInterpolated() throws Exception {
        String nasty = "x' OR '1'='1";
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("1"), "fp", nasty, "b; DROP TABLE issues; --"), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("2"), "fp", "plain", "plain"), FaultHook.NONE);
        assertEquals(List.of(new Issue(1, nasty, "b; DROP TABLE issues; --")), queries().issuesWithTitle(nasty));
        assertEquals(List.of(new Issue(1, nasty, "b; DROP TABLE issues; --")),
                queries().issuesWithBody("b; DROP TABLE issues; --"));
        assertEquals(2, queries().issueCount());
    }

    @Test
    void unicodeRoundTrips() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("ü-op"), "fp", "Grüße 🎉", "naïve — ok"), FaultHook.NONE);
        assertEquals(List.of(new Issue(1, "Grüße 🎉", "naïve — ok")), queries().issuesWithTitle("Grüße 🎉"));
        assertEquals("ü-op", ledger.operationRecord(id("ü-op")).orElseThrow().identity().operationId());
    }

    @Test
    void countsTrackIssuesAndOperationsSeparately() throws Exception {
        Deadlines window = Deadlines.of(100, 110, 120);
        ledger.applyIssueOnce(ApplyRequest.at(id("a"), "fp", "T", "B", window, 100.0), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.at(id("a"), "fp", "T", "B", window, 101.0), FaultHook.NONE); // replay
        ledger.applyPartialIssueOnce(ApplyRequest.at(id("p"), "fp", "T", "B", window, 100.0),
        PartialSteps.injectedFailures(), FaultHook.NONE);
        assertEquals(2, queries().issueCount());
        assertEquals(2, queries().operationCount());
    }

    @Test
    void aSecondLedgerOnTheSameFileSeesCommittedRows() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("a"), "fp", "T", "B"), FaultHook.NONE);
        try (IssueLedger other = IssueLedger.open(location, BACKEND)) {
            assertEquals(1, new LedgerQueries(other).issueCount());
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                    other.applyIssueOnce(ApplyRequest.unbounded(id("a"), "fp", "T", "B"), FaultHook.NONE));
            other.applyIssueOnce(ApplyRequest.unbounded(id("b"), "fp", "T", "B"), FaultHook.NONE);
        }
        assertEquals(2, queries().issueCount());
        assertEquals(new ApplyResult(2, "created 2", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(id("b"), "fp", "T", "B"), FaultHook.NONE));
    }

    @Test
    void theUnguardedWriteCreatesANewIssueEveryTime() throws Exception {
        try (IssueLedger raw = IssueLedger.open(dir.resolve("raw.sqlite3"), BACKEND)) {
            assertEquals(1, raw.createIssue("same", "body"));
            assertEquals(2, raw.createIssue("same", "body"));
            assertEquals(2, new LedgerQueries(raw).issuesWithTitle("same").size());
            assertEquals(0, new LedgerQueries(raw).operationCount());
        }
    }
}
