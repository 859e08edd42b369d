package lab.continuationreplay.store.ledger;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Read-only queries of a ledger (seed spec §5.5) for evidence and diagnostics: what tests check on disk, and the
 * non-authoritative observations of {@code ReadBack} (by title, body, watcher). Nothing here decides whether an
 * effect may be written; that is {@link IssueLedger}'s alone, which is why these are not its methods. Reads go
 * through the ledger's own connection and lock, so they see exactly what that ledger committed.
 */
public final class LedgerQueries {
    private final IssueLedger ledger;

    public LedgerQueries(IssueLedger ledger) {
        this.ledger = ledger;
    }

    public List<Issue> issuesWithTitle(String title) throws SQLException {
        return ledger.read(connection -> LedgerRows.issues(connection,
                "SELECT id, title, body FROM issues WHERE title = ? ORDER BY id", title));
    }

    public List<Issue> issuesWithBody(String body) throws SQLException {
        return ledger.read(connection -> LedgerRows.issues(connection,
                "SELECT id, title, body FROM issues WHERE body = ? ORDER BY id", body));
    }

    public List<OperationEvent> operationEvents(String operationId) throws SQLException {
        return ledger.read(connection -> {
            List<OperationEvent> events = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT id, operation_id, step, outcome, error_type FROM operation_events
                    WHERE operation_id = ? ORDER BY id""")) {
                select.setString(1, operationId);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        events.add(new OperationEvent(row.getLong(1), row.getString(2), row.getString(3),
                                row.getString(4), row.getString(5)));
                    }
                }
            }
            return events;
        });
    }

    public List<Compensation> compensationsFor(long issueId) throws SQLException {
        return ledger.read(connection -> {
            List<Compensation> compensations = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, issue_id, kind, outcome FROM compensations WHERE issue_id = ? ORDER BY id")) {
                select.setLong(1, issueId);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        compensations.add(new Compensation(row.getLong(1), row.getLong(2), row.getString(3),
                                row.getString(4)));
                    }
                }
            }
            return compensations;
        });
    }

    public List<String> watchersFor(long issueId) throws SQLException {
        return ledger.read(connection -> {
            List<String> watchers = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT name FROM watchers WHERE issue_id = ? ORDER BY id")) {
                select.setLong(1, issueId);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        watchers.add(row.getString(1));
                    }
                }
            }
            return watchers;
        });
    }

    public long issueCount() throws SQLException {
        return count("SELECT COUNT(*) FROM issues");
    }

    public long operationCount() throws SQLException {
        return count("SELECT COUNT(*) FROM operations");
    }

    private long count(String sql) throws SQLException {
        return ledger.read(connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql); ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        });
    }
}
