package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.ISSUED_WALL_CLOCK;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import lab.continuationreplay.store.OperationIdentity;
import org.junit.jupiter.api.Test;

/** Seed spec §5.2: atomic apply-once, replay and binding conflicts. */
class AtomicApplyTest extends FreshLedger {
    private static final String CONFLICT =
            "operation_id is already bound to a different principal, backend, or request fingerprint";
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);

    @Test
    void firstCallCreatesIssueAndAppliedOperationRow() throws Exception {
        ApplyResult result = ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body text", WINDOW,
                100.0), FaultHook.NONE);
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), result);

        assertEquals(List.of(Map.of("id", 1, "title", "Title", "body", "Body text")),
                rows(location, "SELECT id, title, body FROM issues"));
        List<Map<String, Object>> operations = rows(location, "SELECT * FROM operations");
        assertEquals(1, operations.size());
        Map<String, Object> row = operations.get(0);
        assertEquals("op-1", row.get("operation_id"));
        assertEquals("alice", row.get("principal"));
        assertEquals(BACKEND, row.get("backend"));
        assertEquals("fp-1", row.get("request_fingerprint"));
        assertEquals("applied", row.get("state"));
        assertEquals(1, row.get("effect_id"));
        assertEquals("created 1", row.get("result"));
        assertEquals(100.0, row.get("issued_at"));
        assertEquals(110.0, row.get("authority_expires_at"));
        assertEquals(120.0, row.get("replay_expires_at"));
        assertTrue(((String) row.get("created_at")).matches(ISSUED_WALL_CLOCK), (String) row.get("created_at"));
        assertTrue(((String) row.get("updated_at")).matches(ISSUED_WALL_CLOCK), (String) row.get("updated_at"));
        assertTrue(((String) row.get("updated_at")).compareTo((String) row.get("created_at")) >= 0);
        assertEquals(List.of(Map.of("i", "real", "a", "real", "r", "real")), storedTypes());

        OperationRecord record = ledger.operationRecord(id("op-1")).orElseThrow();
        assertEquals(id("op-1"), record.identity());
        assertEquals("fp-1", record.requestFingerprint());
        assertEquals(OperationState.APPLIED, record.state());
        assertEquals(1L, record.effectId());
        assertEquals("created 1", record.result());
        assertEquals(100.0, record.issuedAt());
        assertEquals(110.0, record.authorityExpiresAt());
        assertEquals(120.0, record.replayExpiresAt());
        assertEquals(row.get("created_at"), record.createdAt());
        assertEquals(row.get("updated_at"), record.updatedAt());
        assertEquals(List.of(0L, 0L, 0L), tableCounts(location).subList(2, 5)); // no events, watchers, compensations
    }

    @Test
    void identicalRequestReplaysWithoutNewRows() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0), FaultHook.NONE);
        List<Map<String, Object>> before = rows(location, "SELECT * FROM operations");
        for (double now : new double[] {100.0, 105.0, 109.0, 109.999}) {
            ApplyResult replay = ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW,
                    now), FaultHook.NONE);
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), replay);
        }
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(before, rows(location, "SELECT * FROM operations")); // replay does not even touch updated_at
    }

    @Test
    void replayReturnsStoredResultEvenWhenTitleBodyAndDeadlinesDiffer() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0), FaultHook.NONE);
        // only the fingerprint binds the request; the stored row's deadlines govern replay
        ApplyResult replay = ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Other", "Other",
                Deadlines.of(500, 600, 700), 105.0), FaultHook.NONE);
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), replay);
        assertEquals(List.of(), queries().issuesWithTitle("Other"));
        assertEquals(1, queries().issueCount());
    }

    @Test
    void eachNewOperationIdCreatesAnotherIssue() throws Exception {
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(id("a"), "fp", "same", "same"), FaultHook.NONE));
        assertEquals(new ApplyResult(2, "created 2", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(id("b"), "fp", "same", "same"), FaultHook.NONE));
        assertEquals(new ApplyResult(3, "created 3", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity("c", "bob", BACKEND), "fp", "same",
                "same"), FaultHook.NONE));
        assertEquals(List.of(new Issue(1, "same", "same"), new Issue(2, "same", "same"), new Issue(3, "same", "same")),
                queries().issuesWithTitle("same"));
        assertEquals(3, queries().operationCount());
    }

    @Test
    void differentFingerprintConflictsWithoutNewRows() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0), FaultHook.NONE);
        List<Map<String, Object>> before = rows(location, "SELECT * FROM operations");
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-2", "Title", "Body", WINDOW, 101.0),
                FaultHook.NONE));
        assertEquals(CONFLICT, e.getMessage());
        assertEquals("operation_conflict", e.wireCode());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(before, rows(location, "SELECT * FROM operations"));
    }

    @Test
    void differentPrincipalWithTheSameOperationIdConflicts() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0), FaultHook.NONE);
        OperationIdentity bob = new OperationIdentity("op-1", "bob", BACKEND);
        OperationConflict e = assertThrows(OperationConflict.class, () -> ledger.applyIssueOnce(ApplyRequest.at(bob,
                "fp-1", "Title", "Body", WINDOW, 101.0), FaultHook.NONE));
        assertEquals(CONFLICT, e.getMessage());
        assertEquals("operation_conflict", e.wireCode());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
        assertEquals(List.of(Map.of("principal", "alice")), rows(location, "SELECT principal FROM operations"));
        // the same holds in partial mode: one namespace of operation ids
        OperationConflict partial = assertThrows(OperationConflict.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(bob, "fp-1", "Title", "Body", WINDOW, 101.0),
                PartialSteps.injectedFailures(), FaultHook.NONE));
        assertEquals(CONFLICT, partial.getMessage());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void operationIdsFormOneNamespaceWhoeverCameFirst() throws Exception {
        OperationIdentity bob = new OperationIdentity("shared", "bob", BACKEND);
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(bob, "fp", "T", "B"), FaultHook.NONE));
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.unbounded(id("shared"), "fp", "T", "B"), FaultHook.NONE));
        assertEquals(CONFLICT, e.getMessage());
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(bob, "fp", "T", "B"), FaultHook.NONE));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void identityOfAnotherBackendConflictsBeforeAnythingIsWritten() throws Exception {
        OperationIdentity foreign = new OperationIdentity("op-1", "alice", "sqlite:elsewhere");
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(foreign, "fp-1", "Title", "Body", WINDOW, 100.0),
                FaultHook.NONE));
        assertEquals("operation backend 'sqlite:elsewhere' does not match 'sqlite:test'", e.getMessage());
        assertEquals("operation_conflict", e.wireCode());
        OperationConflict partial = assertThrows(OperationConflict.class,
                () -> ledger.applyPartialIssueOnce(ApplyRequest.at(foreign, "fp-1", "Title", "Body", WINDOW, 100.0),
                PartialSteps.injectedFailures(), FaultHook.NONE));
        assertEquals("operation backend 'sqlite:elsewhere' does not match 'sqlite:test'", partial.getMessage());
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), tableCounts(location));
        // the ledger still works afterwards
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0),
                FaultHook.NONE));
    }

    @Test
    void backendCheckIsCaseSensitiveAndExact() throws Exception {
        OperationIdentity upper = new OperationIdentity("op-1", "alice", "SQLITE:TEST");
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(ApplyRequest.unbounded(upper, "fp-1", "T", "B"), FaultHook.NONE));
        assertEquals("operation backend 'SQLITE:TEST' does not match 'sqlite:test'", e.getMessage());
    }

    @Test
    void conflictIsCheckedBeforeDeadlines() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 100.0), FaultHook.NONE);
        // authority expired (110), retention expired (120), both: a changed binding still conflicts
        for (double now : new double[] {110.0, 115.0, 120.0, 1000.0}) {
            OperationConflict e = assertThrows(OperationConflict.class,
                    () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-fresh", "Title", "Body",
                    Deadlines.of(900, 2000, 3000), now), FaultHook.NONE));
            assertEquals(CONFLICT, e.getMessage());
            OperationConflict byPrincipal = assertThrows(OperationConflict.class,
                    () -> ledger.applyIssueOnce(ApplyRequest.at(new OperationIdentity("op-1", "bob", BACKEND), "fp-1",
                    "Title", "Body", WINDOW, now), FaultHook.NONE));
            assertEquals(CONFLICT, byPrincipal.getMessage());
        }
        // and before the "now is required" rule of a bounded replay
        OperationConflict noClock = assertThrows(OperationConflict.class,
                () -> ledger.applyIssueOnce(new ApplyRequest(id("op-1"), "fp-fresh", "Title", "Body", WINDOW,
                OptionalDouble.empty()), FaultHook.NONE));
        assertEquals(CONFLICT, noClock.getMessage());
        // while the exact replay at the same instant is an expiry, not a conflict
        OperationAuthorityExpired expired = assertThrows(OperationAuthorityExpired.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp-1", "Title", "Body", WINDOW, 110.0),
                FaultHook.NONE));
        assertEquals("operation authority has expired", expired.getMessage());
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    @Test
    void unboundedOperationWithoutClockStoresIssuedAtZero() throws Exception {
        ApplyResult result = ledger.applyIssueOnce(ApplyRequest.unbounded(id("op-1"), "fp", "T", "B"), FaultHook.NONE);
        assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), result);
        assertEquals(List.of(Map.of("i", "real", "a", "null", "r", "null")), storedTypes());
        assertEquals(List.of(Map.of("i", 0.0)), rows(location, "SELECT issued_at AS i FROM operations"));
        OperationRecord record = ledger.operationRecord(id("op-1")).orElseThrow();
        assertEquals(0.0, record.issuedAt());
        assertEquals(null, record.authorityExpiresAt());
        assertEquals(null, record.replayExpiresAt());
        // an unbounded row replays with or without a clock
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.unbounded(id("op-1"), "fp", "T", "B"), FaultHook.NONE));
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp", "T", "B", Deadlines.UNBOUNDED, 1.0e12),
                FaultHook.NONE));
    }

    @Test
    void unboundedOperationWithClockStoresNowAsIssuedAt() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp", "T", "B", Deadlines.UNBOUNDED, 1790035200.5),
                FaultHook.NONE);
        assertEquals(1790035200.5, ledger.operationRecord(id("op-1")).orElseThrow().issuedAt());
    }

    @Test
    void missingIssuedAtFallsBackToNow() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp", "T", "B", new Deadlines(null, 300.0, 400.0), 250.0),
                FaultHook.NONE);
        OperationRecord record = ledger.operationRecord(id("op-1")).orElseThrow();
        assertEquals(250.0, record.issuedAt());
        assertEquals(300.0, record.authorityExpiresAt());
        assertEquals(400.0, record.replayExpiresAt());
    }

    @Test
    void onlyOneDeadlineMayBeGiven() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("auth-only"), "fp", "T", "B", new Deadlines(100.0, 110.0, null),
                100.0), FaultHook.NONE);
        ledger.applyIssueOnce(ApplyRequest.at(id("replay-only"), "fp", "T", "B", new Deadlines(100.0, null, 120.0),
                100.0), FaultHook.NONE);
        // no replay deadline: replay is allowed long after, until authority expires
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("auth-only"), "fp", "T", "B", new Deadlines(100.0, 110.0,
                null), 109.0), FaultHook.NONE));
        OperationRetentionExpired e = assertThrows(OperationRetentionExpired.class,
                () -> ledger.applyIssueOnce(ApplyRequest.at(id("replay-only"), "fp", "T", "B", new Deadlines(100.0,
                null, 120.0), 120.0), FaultHook.NONE));
        assertEquals("operation replay retention has expired", e.getMessage());
        assertEquals("operation_retention_expired", e.wireCode());
        assertEquals(new ApplyResult(2, "created 2", true, OperationState.APPLIED),
                ledger.applyIssueOnce(ApplyRequest.at(id("replay-only"), "fp", "T", "B", new Deadlines(100.0, null,
                120.0), 119.0), FaultHook.NONE));
    }

    @Test
    void emptyBodyIsStoredAsGiven() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("op-1"), "fp", "Title", ""), FaultHook.NONE);
        assertEquals(List.of(new Issue(1, "Title", "")), queries().issuesWithBody(""));
    }

    @Test
    void appliedRowIsReplayedByPartialModeWithItsState() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.at(id("op-1"), "fp", "T", "B", WINDOW, 100.0), FaultHook.NONE);
        ApplyResult replay = ledger.applyPartialIssueOnce(ApplyRequest.at(id("op-1"), "fp", "T", "B", WINDOW, 105.0),
                PartialSteps.injectedFailures(), FaultHook.NONE);
        assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), replay);
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tableCounts(location));
    }

    /**
     * The stored type of each deadline column per row: SQLite's own {@code typeof}; on PostgreSQL, whose columns
     * are typed, {@code real} for a double precision value and {@code null} for none.
     */
    private List<Map<String, Object>> storedTypes() throws Exception {
        if (kind == LedgerKind.SQLITE) {
            return rows(location, "SELECT typeof(issued_at) AS i, typeof(authority_expires_at) AS a,"
                    + " typeof(replay_expires_at) AS r FROM operations");
        }
        return rows(location, """
                SELECT CASE WHEN issued_at IS NULL THEN 'null' WHEN pg_typeof(issued_at) = 'double precision'::regtype
                         THEN 'real' ELSE pg_typeof(issued_at)::text END AS i,
                       CASE WHEN authority_expires_at IS NULL THEN 'null'
                         WHEN pg_typeof(authority_expires_at) = 'double precision'::regtype THEN 'real'
                         ELSE pg_typeof(authority_expires_at)::text END AS a,
                       CASE WHEN replay_expires_at IS NULL THEN 'null'
                         WHEN pg_typeof(replay_expires_at) = 'double precision'::regtype THEN 'real'
                         ELSE pg_typeof(replay_expires_at)::text END AS r
                FROM operations""");
    }
}
