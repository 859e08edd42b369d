package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which failures the ledger worker sends again: only a lost race, never a refusal or a storage error. */
class LedgerWorkerTest {
    @Test
    void aSerialisationFailureOrDeadlockIsALostRaceAnywhereInTheCauseChain() {
        assertTrue(LedgerWorker.lostARace(new SQLException("could not serialize access", "40001")));
        assertTrue(LedgerWorker.lostARace(new SQLException("deadlock detected", "40P01")));
        assertTrue(LedgerWorker.lostARace(new SQLException("wrapped", "XX000", new SQLException("inner", "40001"))));
    }

    @Test
    void otherFailuresAreNotSentAgain() {
        assertFalse(LedgerWorker.lostARace(new SQLException("database is locked")));
        assertFalse(LedgerWorker.lostARace(new SQLException("duplicate key", "23505")));
        assertFalse(LedgerWorker.lostARace(new SQLException("lock timeout", "55P03")));
        assertFalse(LedgerWorker.lostARace(new SQLException("connection refused", "08001")));
    }
}
