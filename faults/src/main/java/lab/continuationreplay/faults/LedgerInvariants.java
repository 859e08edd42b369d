package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The invariants every fault experiment checks from the ledger's rows alone (the SQLite file or the PostgreSQL schema): one issue per applied or partial
 * operation, no effect shared by two operations, no issue without its operation, no applied operation without its
 * issue or result.
 */
record LedgerInvariants(long issues, long operations, long appliedOrPartial, long inProgressWithEffect, long duplicateEffects,
        long orphanIssues, long danglingOperations) {

    static LedgerInvariants of(FaultLedger ledger, Path database) throws SQLException {
        return new LedgerInvariants(
                ledger.count(database, "issues"),
                ledger.count(database, "operations"),
                single(ledger, database, "SELECT COUNT(*) FROM operations WHERE state IN ('applied', 'partial')"),
                single(ledger, database, "SELECT COUNT(*) FROM operations WHERE state = 'in_progress' AND effect_id IS NOT NULL"),
                single(ledger, database, "SELECT COUNT(*) FROM (SELECT effect_id FROM operations WHERE effect_id IS NOT NULL"
                        + " GROUP BY effect_id HAVING COUNT(*) > 1) AS shared"),
                single(ledger, database, "SELECT COUNT(*) FROM issues i WHERE NOT EXISTS"
                        + " (SELECT 1 FROM operations o WHERE o.effect_id = i.id)"),
                single(ledger, database, "SELECT COUNT(*) FROM operations o WHERE o.state IN ('applied', 'partial') AND"
                        + " (o.result IS NULL OR NOT EXISTS (SELECT 1 FROM issues i WHERE i.id = o.effect_id))"));
    }

    /** What is wrong, in words; empty when every invariant holds. */
    List<String> violations() {
        List<String> problems = new ArrayList<>();
        if (duplicateEffects > 0) {
            problems.add(duplicateEffects + " effect(s) shared by more than one operation");
        }
        if (orphanIssues > 0) {
            problems.add(orphanIssues + " issue row(s) without an operation (a duplicate or a lost ledger row)");
        }
        if (danglingOperations > 0) {
            problems.add(danglingOperations + " applied/partial operation(s) without their issue or result");
        }
        if (issues != appliedOrPartial + inProgressWithEffect) {
            problems.add("issues " + issues + " != applied/partial operations " + appliedOrPartial
                    + (inProgressWithEffect > 0 ? " + in-progress operations holding a first effect " + inProgressWithEffect : ""));
        }
        return problems;
    }

    ObjectNode toJson() {
        ObjectNode json = ExactJson.mapper().createObjectNode();
        json.put("issues", issues).put("operations", operations).put("applied_or_partial", appliedOrPartial)
                .put("in_progress_with_effect", inProgressWithEffect).put("duplicate_effects", duplicateEffects).put("orphan_issues", orphanIssues)
                .put("dangling_operations", danglingOperations);
        return json;
    }

    private static long single(FaultLedger ledger, Path database, String query) throws SQLException {
        List<Map<String, Object>> rows = ledger.rows(database, query);
        // a ledger that is not there yet has no rows, not even a count
        return rows.isEmpty() ? 0 : ((Number) rows.get(0).values().iterator().next()).longValue();
    }
}
