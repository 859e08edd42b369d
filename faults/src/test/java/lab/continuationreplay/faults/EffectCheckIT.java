package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.faults.common.EffectCheck;
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The effect check of the HTTP experiments must see a violation in a real SQLite ledger written by the real ledger
 * code: an effect from a request the server refused, a row nobody sent, a duplicate issue. Otherwise its silence
 * in {@code lab faults} proves nothing.
 */
class EffectCheckIT {
    private static final String BACKEND = "sqlite:guarded-matrix";

    @TempDir
    Path dir;

    private Path ledger(String... operations) throws Exception {
        Path file = dir.resolve("store.sqlite3");
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            for (String id : operations) {
                ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity(id, "alice", BACKEND), "fp-" + id, "title " + id, "B"),
                        FaultHook.NONE);
            }
        }
        return file;
    }

    @Test
    void aHealthyLedgerMatchesTheWire() throws Exception {
        Path file = ledger("hf-1", "hf-2");
        EffectCheck.Result result = EffectCheck.check(FaultLedger.SQLITE, file, Map.of("hf-1", true, "hf-2", true, "hf-3", false), "hf-");
        assertEquals(List.of(), result.violations());
        assertEquals(2, result.rows());
    }

    @Test
    void anEffectFromARefusedRequestARowNobodySentAndADuplicateAreEachFound() throws Exception {
        Path file = ledger("hf-1", "hf-2", "hf-9");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO issues(title, body) VALUES ('title hf-1', 'B')");
        }
        EffectCheck.Result result = EffectCheck.check(FaultLedger.SQLITE, file, Map.of("hf-1", true, "hf-2", false), "hf-");
        assertEquals(1, result.effectsFromRefused(), result.toString());
        assertEquals(1, result.unknownOperations(), result.toString());
        assertEquals(1, result.duplicateIssues(), result.toString());
        assertTrue(result.violations().contains("an effect from a refused request: hf-2 (applied)"), result.violations().toString());
        assertTrue(result.violations().contains("title 'title hf-1' has 2 issues"), result.violations().toString());
        // The ledger invariants see the planted issue too: it has no operation.
        assertTrue(LedgerInvariants.of(FaultLedger.SQLITE, file).violations().contains(
                "1 issue row(s) without an operation (a duplicate or a lost ledger row)"));
    }
}
