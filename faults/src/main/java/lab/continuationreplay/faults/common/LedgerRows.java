package lab.continuationreplay.faults.common;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rows the fault experiments judge by, read from the ledger itself: the SQLite file (read-only) or the PostgreSQL
 * schema ({@link FaultLedger}); none before it exists.
 */
public final class LedgerRows {
    /** Issues (effects) and operations (ledger rows) of one file. */
    public record Counts(long issues, long operations) {
        public Counts plus(Counts other) {
            return new Counts(issues + other.issues, operations + other.operations);
        }
    }

    private LedgerRows() {}

    public static Counts count(FaultLedger ledger, Path database) throws SQLException {
        return new Counts(ledger.count(database, "issues"), ledger.count(database, "operations"));
    }

    /** Every ledger row by operation id: its state (applied, partial, in_progress …). */
    public static Map<String, String> operations(FaultLedger ledger, Path database) throws SQLException {
        Map<String, String> states = new LinkedHashMap<>();
        for (Map<String, Object> row : ledger.rows(database, "SELECT operation_id, state FROM operations ORDER BY operation_id")) {
            states.put(String.valueOf(row.get("operation_id")), String.valueOf(row.get("state")));
        }
        return states;
    }

    /** How many issue rows each operation's effect has (a duplicate effect shows as a count above one). */
    public static Map<String, Long> issuesByTitle(FaultLedger ledger, Path database) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Map<String, Object> row : ledger.rows(database, "SELECT title, COUNT(*) AS n FROM issues GROUP BY title")) {
            counts.put(String.valueOf(row.get("title")), ((Number) row.get("n")).longValue());
        }
        return counts;
    }
}
