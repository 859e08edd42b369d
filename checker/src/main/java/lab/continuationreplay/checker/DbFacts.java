package lab.continuationreplay.checker;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.StoreRows;

/** The physical rows of a case's database, read read-only (seed spec §9.14). */
public record DbFacts(
        List<Map<String, Object>> issues,
        List<Map<String, Object>> operations,
        List<Map<String, Object>> watchers,
        List<Map<String, Object>> compensations,
        List<Map<String, Object>> events) {

    public static DbFacts read(Path database) throws SQLException {
        return new DbFacts(
                StoreRows.rows(database, "SELECT id, title, body FROM issues ORDER BY id"),
                StoreRows.rows(database, "SELECT operation_id, principal, backend, state, effect_id, result, issued_at,"
                        + " authority_expires_at, replay_expires_at FROM operations ORDER BY operation_id, principal"),
                StoreRows.rows(database, "SELECT issue_id, name FROM watchers ORDER BY id"),
                StoreRows.rows(database, "SELECT issue_id, kind, outcome FROM compensations ORDER BY id"),
                StoreRows.rows(database, "SELECT operation_id, step, outcome, error_type FROM operation_events ORDER BY id"));
    }
}
