package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The invariants must see what a duplicate or a lost row looks like, or their silence in the fault lab proves nothing. */
class LedgerInvariantsTest {
    private static final String BACKEND = "sqlite:guarded-matrix";

    @TempDir
    Path dir;

    private Path ledgerWithTwoOperations() throws Exception {
        Path file = dir.resolve("store.sqlite3");
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            for (String id : List.of("a", "b")) {
                ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity(id, "alice", BACKEND), "fp-" + id,
                        "T", "B"), FaultHook.NONE);
            }
        }
        return file;
    }

    private static void execute(Path file, String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Test
    void aHealthyLedgerHasNoViolations() throws Exception {
        LedgerInvariants rows = LedgerInvariants.of(FaultLedger.SQLITE, ledgerWithTwoOperations());
        assertEquals(new LedgerInvariants(2, 2, 2, 0, 0, 0, 0), rows);
        assertEquals(List.of(), rows.violations());
        assertEquals(new LedgerInvariants(0, 0, 0, 0, 0, 0, 0), LedgerInvariants.of(FaultLedger.SQLITE, dir.resolve("missing.sqlite3")));
    }

    @Test
    void aSecondIssueWithoutItsOperationIsADuplicate() throws Exception {
        Path file = ledgerWithTwoOperations();
        execute(file, "INSERT INTO issues(title, body) VALUES ('T', 'B')");
        List<String> violations = LedgerInvariants.of(FaultLedger.SQLITE, file).violations();
        assertTrue(violations.contains("1 issue row(s) without an operation (a duplicate or a lost ledger row)"), violations.toString());
        assertTrue(violations.contains("issues 3 != applied/partial operations 2"), violations.toString());
    }

    @Test
    void twoOperationsSharingAnEffectOrAnAppliedOperationWithoutItsIssueAreFound() throws Exception {
        Path file = ledgerWithTwoOperations();
        execute(file, "UPDATE operations SET effect_id = 1");
        LedgerInvariants shared = LedgerInvariants.of(FaultLedger.SQLITE, file);
        assertEquals(1, shared.duplicateEffects());
        assertTrue(shared.violations().contains("1 effect(s) shared by more than one operation"));
        execute(file, "PRAGMA foreign_keys = OFF");
        execute(file, "UPDATE operations SET effect_id = 99 WHERE operation_id = 'b'");
        assertEquals(1, LedgerInvariants.of(FaultLedger.SQLITE, file).danglingOperations());
    }
}
