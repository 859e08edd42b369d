package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import lab.continuationreplay.store.postgres.TestPostgres;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL ledger whose session the database ended: between calls (the next call goes on, on a new session),
 * inside a transaction and at COMMIT (a clear error that says whether anything can have committed, then a new
 * session), and while the server is down (a clear error per call, and service again once it is back, after a stop
 * and after a SIGKILL). No case may leave two effects for one operation.
 */
class LostSessionTest {
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);

    @Test
    void aSessionEndedBetweenCallsIsReplacedAndTheNextWriteAndReadGoOn() throws Exception {
        LedgerLocation.Postgres location = TestPostgres.freshLedger();
        try (IssueLedger ledger = IssueLedger.open(location, LedgerTestSupport.BACKEND)) {
            apply(ledger, "before");
            long first = backendPid(ledger);
            terminate(first);
            ApplyResult after = apply(ledger, "after");
            assertEquals(new ApplyResult(2, "created 2", false, OperationState.APPLIED), after);
            assertNotEquals(first, backendPid(ledger), "a new session");

            terminate(backendPid(ledger));
            assertEquals("created 1", ledger.operationRecord(id("before")).orElseThrow().result(), "a read goes on too");
            terminate(backendPid(ledger));
            assertEquals("before", ledger.issue(1).orElseThrow().title());
        }
        assertEquals(List.of(Map.of("n", 2)), rows(location, "SELECT COUNT(*) AS n FROM issues"));
    }

    @Test
    void aSessionEndedInsideTheTransactionIsAClearErrorWithNothingCommittedThenTheRetryCreatesOnce() throws Exception {
        LedgerLocation.Postgres location = TestPostgres.freshLedger();
        try (IssueLedger ledger = IssueLedger.open(location, LedgerTestSupport.BACKEND)) {
            long pid = backendPid(ledger);
            FaultHook endTheSession = point -> {
                if (point == CutPoint.AFTER_LEDGER_INSERT) {
                    try {
                        terminate(pid);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            SQLException failure = assertThrows(SQLException.class, () -> ledger.applyIssueOnce(request("cut"), endTheSession));
            assertTrue(failure.getMessage().startsWith("the ledger's database session ended inside the transaction;"
                    + " nothing of this call was committed; the next call opens a new session ("), failure.getMessage());
            assertEquals(0, LedgerTestSupport.count(location, "operations"));
            assertEquals(0, LedgerTestSupport.count(location, "issues"));

            assertTrue(ledger.operationRecord(id("cut")).isEmpty());
            assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED), apply(ledger, "cut"));
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), apply(ledger, "cut"));
        }
        assertEquals(1, LedgerTestSupport.count(location, "issues"));
    }

    @Test
    void aSessionEndedAtCommitSaysTheOutcomeIsUnknownAndTheStatusThenSettlesIt() throws Exception {
        LedgerLocation.Postgres location = TestPostgres.freshLedger();
        try (IssueLedger ledger = IssueLedger.open(location, LedgerTestSupport.BACKEND);
                Connection admin = LedgerTestSupport.jdbc(location);
                Statement statement = admin.createStatement()) {
            // a deferred trigger runs at COMMIT: it ends its own session there, so the client's COMMIT gets no answer
            statement.execute("CREATE FUNCTION end_own_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); RETURN NULL; END $$");
            statement.execute("CREATE CONSTRAINT TRIGGER dies_at_commit AFTER INSERT ON operations DEFERRABLE INITIALLY"
                    + " DEFERRED FOR EACH ROW WHEN (NEW.operation_id = 'at-commit') EXECUTE FUNCTION end_own_session()");
            SQLException failure = assertThrows(SQLException.class, () -> apply(ledger, "at-commit"));
            assertTrue(failure.getMessage().startsWith("the ledger's database session ended at COMMIT; whether this call"
                    + " committed is unknown until its status is read; the next call opens a new session ("),
                    failure.getMessage());
            statement.execute("DROP TRIGGER dies_at_commit ON operations");

            // the status read opens a new session and settles it; a retry of the same request never adds a second effect
            boolean committed = ledger.operationRecord(id("at-commit")).isPresent();
            ApplyResult retry = apply(ledger, "at-commit");
            assertEquals(committed, retry.replayed());
        }
        assertEquals(1, LedgerTestSupport.count(location, "issues"));
    }

    @Test
    void aServerStoppedOrKilledGivesAClearErrorPerCallAndServiceResumesWhenItIsBack() throws Exception {
        EmbeddedPostgres closed;
        try (EmbeddedPostgres server = EmbeddedPostgres.start(TestPostgres.STARTER)) {
            closed = server;
            LedgerLocation.Postgres location = server.createLedger("restarts");
            try (IssueLedger ledger = IssueLedger.open(location, LedgerTestSupport.BACKEND)) {
                apply(ledger, "one");
                server.stop();
                assertFalse(server.running());
                for (int call = 0; call < 2; call++) {
                    SQLException down = assertThrows(SQLException.class, () -> apply(ledger, "two"));
                    assertTrue(down.getMessage().startsWith("cannot connect to the ledger " + location.describe() + ": "),
                            down.getMessage());
                    assertThrows(SQLException.class, () -> ledger.operationRecord(id("one")));
                }
                assertThrows(IllegalStateException.class, server::stop, "nothing to stop");
                assertThrows(IllegalStateException.class, server::kill, "nothing to kill");

                server.restart();
                assertThrows(IllegalStateException.class, server::restart, "already running");
                assertEquals(new ApplyResult(2, "created 2", false, OperationState.APPLIED), apply(ledger, "two"));

                long before = server.pid();
                server.kill();
                server.restart();
                assertNotEquals(before, server.pid());
                // the killed server's commits came back from its WAL; the ledger goes on, on a new session
                assertEquals("created 2", ledger.operationRecord(id("two")).orElseThrow().result());
                assertEquals(new ApplyResult(3, "created 3", false, OperationState.APPLIED), apply(ledger, "three"));
                assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED), apply(ledger, "one"));
            }
            assertEquals(3, LedgerTestSupport.count(location, "issues"));
        }
        assertThrows(IllegalStateException.class, closed::restart, "a closed server's cluster is gone");
    }

    private static ApplyResult apply(IssueLedger ledger, String operationId) throws SQLException {
        return ledger.applyIssueOnce(request(operationId), FaultHook.NONE);
    }

    private static ApplyRequest request(String operationId) {
        return ApplyRequest.at(id(operationId), "fp", operationId, "body", WINDOW, 100.0);
    }

    private static long backendPid(IssueLedger ledger) throws SQLException {
        return ledger.read(connection -> {
            try (Statement statement = connection.createStatement(); ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
                pid.next();
                return pid.getLong(1);
            }
        });
    }

    /** Ends a session from another one, and waits until the server has removed it. */
    private static void terminate(long pid) throws SQLException {
        try (Connection admin = TestPostgres.server().connect(EmbeddedPostgres.DATABASE);
                PreparedStatement end = admin.prepareStatement("SELECT pg_terminate_backend(CAST(? AS integer), 10000)")) {
            end.setLong(1, pid);
            try (ResultSet ended = end.executeQuery()) {
                ended.next();
                assertTrue(ended.getBoolean(1), "session " + pid + " ended");
            }
        }
    }
}
