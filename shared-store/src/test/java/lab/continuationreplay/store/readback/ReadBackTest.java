package lab.continuationreplay.store.readback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerKind;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationState;
import lab.continuationreplay.store.ledger.PartialSteps;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The read-back on each store: a SQLite file and a schema of the embedded PostgreSQL. */
@ParameterizedClass(name = "{0}")
@EnumSource(LedgerKind.class)
class ReadBackTest {
    private static final String BACKEND = "sqlite:x";
    private static final long NOW = 1_790_035_200L;
    private static final Deadlines DEADLINES = Deadlines.of(NOW, NOW + 300, NOW + 360);
    private static final OperationIdentity OP = new OperationIdentity("op", "alice", BACKEND);
    private static final String SCOPE = "operation_id='op'; principal='alice'; backend='sqlite:x'";
    private static final String NO_RECORD = "no durable operation record; absence is not terminal non-application proof";

    @Parameter
    LedgerKind kind;
    @TempDir
    Path dir;
    private LedgerLocation location;
    private IssueLedger ledger;

    @BeforeEach
    void openLedger() throws Exception {
        location = kind.fresh(dir);
        ledger = IssueLedger.open(location, BACKEND);
    }

    @AfterEach
    void closeLedger() throws Exception {
        ledger.close();
    }

    private ReadBack readBack(long now) {
        return new ReadBack(ledger, "alice", now);
    }

    private ApplyResult apply(OperationIdentity identity, String fingerprint, String title, String body) throws Exception {
        return ledger.applyIssueOnce(ApplyRequest.at(identity, fingerprint, title, body, DEADLINES, (double) NOW),
                FaultHook.NONE);
    }

    private ApplyResult applyPartial(OperationIdentity identity, String title, PartialSteps steps) throws Exception {
        return ledger.applyPartialIssueOnce(ApplyRequest.at(identity, "fp-" + identity.operationId(), title, "b",
                DEADLINES, (double) NOW), steps, FaultHook.NONE);
    }

    /** Deletes an issue row behind the ledger's back (foreign keys off in this session only): an orphan. */
    private void deleteIssueRow(long id) throws Exception {
        try (Connection connection = location instanceof LedgerLocation.Postgres postgres ? postgres.connect()
                : DriverManager.getConnection("jdbc:sqlite:" + ((LedgerLocation.SqliteFile) location).path());
                Statement statement = connection.createStatement()) {
            // PostgreSQL checks foreign keys with triggers, which a replica session does not fire
            statement.execute(kind == LedgerKind.SQLITE ? "PRAGMA foreign_keys = OFF" : "SET session_replication_role = replica");
            assertEquals(1, statement.executeUpdate("DELETE FROM issues WHERE id = " + id));
        }
    }

    @Test
    void scopesStayOnOneLineWhateverTheIdentityHolds() {
        assertEquals("operation_id='it\\'s'; principal='a\\nb\\x01'; backend='c:\\\\d'",
                ReadBack.scopeOf(new OperationIdentity("it's", "a\nb\u0001", "c:\\d")));
    }

    @Test
    void aMissingRecordIsUnknownNotNotApplied() throws Exception {
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.UNKNOWN, List.of(),
                NO_RECORD, null, OP), readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void observedAtComesFromTheInjectedClock() throws Exception {
        assertEquals("2026-09-22T00:00:00+00:00", readBack(1_790_035_200L).reconcileOperation(OP).observedAt());
        assertEquals("2026-09-22T00:02:00+00:00", readBack(1_790_035_320L).reconcileOperation(OP).observedAt());
        assertEquals("1970-01-01T00:00:00+00:00", readBack(0L).reconcileOperation(OP).observedAt());
    }

    @Test
    void anAppliedOperationCarriesItsEffectAndStoredResult() throws Exception {
        apply(OP, "fp", "t", "b");
        EffectObservation observation = readBack(1_790_035_320L).reconcileOperation(OP);
        assertEquals(new EffectObservation(OP, "2026-09-22T00:02:00+00:00", true, SCOPE, EffectState.APPLIED, List.of(1L),
                "operation ledger and effect row are present", "created 1", OP), observation);
        assertEquals(1, observation.effects());
    }

    @Test
    void anAppliedOperationWithWatcherCarriesThatResult() throws Exception {
        applyPartial(OP, "t", new PartialSteps("w", PartialSteps.insertWatcher(), (connection, issueId) -> { }));
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.APPLIED, List.of(1L),
                "operation ledger and effect row are present", "created 1 with watcher", OP),
                readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void aPartialOperationCarriesThePartialResult() throws Exception {
        assertEquals("partial 1; watcher failed; rollback failed",
                applyPartial(OP, "t", PartialSteps.injectedFailures()).result());
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.PARTIAL, List.of(1L),
                "operation ledger records a partial effect", "partial 1; watcher failed; rollback failed", OP),
                readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void aPartialOperationWhoseRollbackSucceeded() throws Exception {
        PartialSteps steps = new PartialSteps("w", (connection, issueId, watcher) -> {
            throw new IllegalStateException("watcher down");
        }, (connection, issueId) -> { });
        applyPartial(OP, "t", steps);
        EffectObservation observation = readBack(NOW).reconcileOperation(OP);
        assertEquals(EffectState.PARTIAL, observation.state());
        assertEquals("partial 1; watcher failed; rollback succeeded", observation.storedResult());
    }

    /** Stands for a process that dies inside the watcher step: not caught as an Exception, so the row stays in progress. */
    private static final class Crash extends Error {
        private static final long serialVersionUID = 1L;

        Crash() {
            super("crash inside the watcher step");
        }
    }

    @Test
    void anInProgressOperationIsUnknownWithoutResult() throws Exception {
        PartialSteps crashing = new PartialSteps("w", (connection, issueId, watcher) -> {
            throw new Crash();
        }, (connection, issueId) -> { });
        assertThrows(Crash.class, () -> applyPartial(OP, "t", crashing));
        assertEquals(OperationState.IN_PROGRESS, ledger.operationRecord(OP).orElseThrow().state());
        assertEquals(1, queries().issueCount());
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.UNKNOWN, List.of(),
                "operation ledger state is 'in_progress'", null, OP), readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void anAppliedOrphanIsUnknownWithoutStoredResult() throws Exception {
        apply(OP, "fp", "t", "b");
        deleteIssueRow(1);
        assertEquals("created 1", ledger.operationRecord(OP).orElseThrow().result());
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.UNKNOWN, List.of(),
                "operation ledger state is 'applied'", null, OP), readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void aPartialOrphanIsUnknownWithoutStoredResult() throws Exception {
        applyPartial(OP, "t", PartialSteps.injectedFailures());
        deleteIssueRow(1);
        assertEquals(new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.UNKNOWN, List.of(),
                "operation ledger state is 'partial'", null, OP), readBack(NOW).reconcileOperation(OP));
    }

    @Test
    void anotherBackendIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> readBack(NOW).reconcileOperation(new OperationIdentity("op", "alice", "sqlite:y")));
        assertEquals("reconciliation backend does not match the store", e.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> readBack(NOW).reconcileOperation(new OperationIdentity("op", "bob", "sqlite:y")));
        assertEquals("reconciliation backend does not match the store", both.getMessage());
    }

    @Test
    void anotherPrincipalIsOutsideTheScope() throws Exception {
        apply(OP, "fp", "t", "b");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> readBack(NOW).reconcileOperation(new OperationIdentity("op", "bob", BACKEND)));
        assertEquals("reconciliation principal is outside the authorized read-back scope", e.getMessage());
    }

    @Test
    void anotherPrincipalsReadBackSeesNoRecordOfAlicesOperation() throws Exception {
        apply(OP, "fp", "t", "b");
        OperationIdentity bobs = new OperationIdentity("op", "bob", BACKEND);
        assertEquals(new EffectObservation(bobs, "2026-09-22T00:00:00+00:00", true,
                "operation_id='op'; principal='bob'; backend='sqlite:x'", EffectState.UNKNOWN, List.of(), NO_RECORD, null,
                bobs), new ReadBack(ledger, "bob", NOW).reconcileOperation(bobs));
    }

    @Test
    void scopeOfQuotesTheIdentity() {
        assertEquals(SCOPE, ReadBack.scopeOf(OP));
        assertEquals("operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'",
                ReadBack.scopeOf(new OperationIdentity("case-01", "alice", "sqlite:guarded-matrix")));
    }

    @Test
    void duplicatesShowInTheTitleDiagnostic() throws Exception {
        apply(new OperationIdentity("op-1", "alice", BACKEND), "fp-1", "dup", "b1");
        apply(new OperationIdentity("op-2", "alice", BACKEND), "fp-2", "dup", "b2");
        EffectObservation byTitle = readBack(NOW).observeByTitle("dup", "op-1");
        assertEquals(new EffectObservation(new OperationIdentity("op-1", "alice", BACKEND), "2026-09-22T00:00:00+00:00",
                false, "issue.title == 'dup'", EffectState.APPLIED, List.of(1L, 2L), "2 issue(s) matching title", null, null),
                byTitle);
        assertEquals(2, byTitle.effects());
        assertFalse(byTitle.authoritative());
    }

    @Test
    void theTitleDiagnosticWithoutIssuesIsNotApplied() throws Exception {
        assertEquals(new EffectObservation(new OperationIdentity("op-9", "alice", BACKEND), "2026-09-22T00:00:00+00:00",
                false, "issue.title == 'none'", EffectState.NOT_APPLIED, List.of(), "0 issue(s) matching title", null, null),
                readBack(NOW).observeByTitle("none", "op-9"));
    }

    @Test
    void theBodyDiagnostic() throws Exception {
        apply(new OperationIdentity("op-1", "alice", BACKEND), "fp-1", "t1", "same");
        apply(new OperationIdentity("op-2", "alice", BACKEND), "fp-2", "t2", "same");
        apply(new OperationIdentity("op-3", "alice", BACKEND), "fp-3", "t3", "other");
        assertEquals(new EffectObservation(new OperationIdentity("op-2", "alice", BACKEND), "2026-09-22T00:02:00+00:00",
                false, "issue.body == 'same'", EffectState.APPLIED, List.of(1L, 2L), "2 issue(s) matching body", null, null),
                readBack(1_790_035_320L).observeByBody("same", "op-2"));
        EffectObservation none = readBack(NOW).observeByBody("missing", "op-4");
        assertEquals(EffectState.NOT_APPLIED, none.state());
        assertEquals(List.of(), none.matchingIds());
        assertEquals("0 issue(s) matching body", none.detail());
        assertFalse(none.authoritative());
        assertNull(none.scopeBinding());
        assertNull(none.storedResult());
    }

    @Test
    void theWatcherDiagnostic() throws Exception {
        ReadBack readBack = readBack(NOW);
        assertEquals(new EffectObservation(new OperationIdentity("op-1", "alice", BACKEND), "2026-09-22T00:00:00+00:00",
                false, "issue.title == 'w-t' with watcher 'audit@example.test'", EffectState.NOT_APPLIED, List.of(),
                "no issue", null, null), readBack.observeIssueWithWatcher("w-t", "audit@example.test", "op-1"));

        applyPartial(new OperationIdentity("op-1", "alice", BACKEND), "w-t",
                new PartialSteps("audit@example.test", PartialSteps.insertWatcher(), (connection, issueId) -> { }));
        assertEquals(new EffectObservation(new OperationIdentity("op-1", "alice", BACKEND), "2026-09-22T00:00:00+00:00",
                false, "issue.title == 'w-t' with watcher 'audit@example.test'", EffectState.APPLIED, List.of(1L),
                "issue and watcher present", null, null), readBack.observeIssueWithWatcher("w-t", "audit@example.test", "op-1"));

        applyPartial(new OperationIdentity("op-2", "alice", BACKEND), "w-t", PartialSteps.injectedFailures());
        assertEquals(new EffectObservation(new OperationIdentity("op-2", "alice", BACKEND), "2026-09-22T00:00:00+00:00",
                false, "issue.title == 'w-t' with watcher 'audit@example.test'", EffectState.PARTIAL, List.of(1L, 2L),
                "issue present without watcher", null, null),
                readBack.observeIssueWithWatcher("w-t", "audit@example.test", "op-2"));
    }

    @Test
    void diagnosticsNeverBecomeAStatus() throws Exception {
        apply(OP, "fp", "t", "b");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OperationStatus.of(readBack(NOW).observeByTitle("t", "op")));
        assertEquals("only an authoritative, identity-bound observation is a status", e.getMessage());
    }

    @Test
    void readBackDoesNotWrite() throws Exception {
        apply(OP, "fp", "t", "b");
        ReadBack readBack = readBack(NOW);
        readBack.reconcileOperation(OP);
        readBack.reconcileOperation(new OperationIdentity("other", "alice", BACKEND));
        readBack.observeByTitle("t", "op");
        readBack.observeByBody("b", "op");
        readBack.observeIssueWithWatcher("t", "w", "op");
        assertEquals(1, queries().issueCount());
        assertEquals(1, queries().operationCount());
    }

    @Test
    void epochClockRendersWholeSecondsWithOffset() {
        assertEquals("2026-09-22T00:00:00+00:00", EpochClock.isoOffset(1_790_035_200L));
        assertEquals("2026-09-22T00:02:00+00:00", EpochClock.isoOffset(1_790_035_320L));
        assertEquals("2026-09-22T00:05:59+00:00", EpochClock.isoOffset(1_790_035_559L));
    }

    private LedgerQueries queries() {
        return new LedgerQueries(ledger);
    }
}
