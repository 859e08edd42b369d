package lab.continuationreplay.faults.common;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The effect invariant of the experiments that send many requests with an operation id each: every ledger row must
 * belong to a request the server answered with a success (an effect from a refused request is a violation), and
 * every title at most one issue. Read from the ledger alone.
 */
public final class EffectCheck {
    /** What the rows show against what the wire said. */
    public record Result(long rows, long effectsFromRefused, long unknownOperations, long duplicateIssues, List<String> violations) {}

    private EffectCheck() {}

    /**
     * @param succeeded every operation id the experiment sent, mapped to whether its request was answered with a
     *                  success; {@code expectedPrefix} names the experiment's operations (a row outside it is unknown)
     */
    public static Result check(FaultLedger ledger, Path database, Map<String, Boolean> succeeded, String expectedPrefix)
            throws SQLException {
        Map<String, String> rows = LedgerRows.operations(ledger, database);
        List<String> violations = new ArrayList<>();
        long fromRefused = 0;
        long unknown = 0;
        for (Map.Entry<String, String> row : rows.entrySet()) {
            Boolean success = succeeded.get(row.getKey());
            if (success == null) {
                if (row.getKey().startsWith(expectedPrefix)) {
                    unknown++;
                    violations.add("a row for an operation never sent: " + row.getKey() + " (" + row.getValue() + ")");
                }
            } else if (!success) {
                fromRefused++;
                violations.add("an effect from a refused request: " + row.getKey() + " (" + row.getValue() + ")");
            }
        }
        long duplicates = 0;
        for (Map.Entry<String, Long> title : LedgerRows.issuesByTitle(ledger, database).entrySet()) {
            if (title.getValue() > 1) {
                duplicates += title.getValue() - 1;
                violations.add("title '" + title.getKey() + "' has " + title.getValue() + " issues");
            }
        }
        return new Result(rows.size(), fromRefused, unknown, duplicates, violations);
    }
}
