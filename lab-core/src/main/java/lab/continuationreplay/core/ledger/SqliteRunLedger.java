package lab.continuationreplay.core.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import lab.continuationreplay.history.Layout;

/** Today's ledger: {@code store.sqlite3} in each case folder, which the settings already name. */
final class SqliteRunLedger implements RunLedger {
    @Override
    public String label() {
        return "sqlite";
    }

    @Override
    public Map<String, String> environment(Path caseFolder) {
        return Map.of();
    }

    /**
     * Folds the write-ahead log into the database file and switches the journal off WAL, so the evidence is one file
     * that opens read-only anywhere. Changes no row.
     */
    @Override
    public void seal(Path caseFolder) throws SQLException {
        Path database = caseFolder.resolve(Layout.DATABASE);
        if (!Files.exists(database)) {
            return;
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
                Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            statement.execute("PRAGMA journal_mode=DELETE");
        }
    }
}
