package lab.continuationreplay.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import lab.continuationreplay.history.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sealing a case's SQLite ledger (WAL folded in, journal off WAL): it waits for a connection that is still letting go
 * of the file, and names who holds it when that one never does.
 */
class SqliteRunLedgerTest {
    private static final long PATIENCE_MS = 5000;

    @TempDir
    Path dir;

    private Connection walLedgerWithARow() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(Layout.DATABASE));
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("CREATE TABLE issues (id INTEGER PRIMARY KEY, title TEXT)");
            statement.execute("INSERT INTO issues (title) VALUES ('a')");
        }
        return connection;
    }

    @Test
    void aConnectionClosedWhileTheSealWaitsIsWaitedFor() throws Exception {
        Connection holder = walLedgerWithARow();
        Thread release = new Thread(() -> {
            try {
                Thread.sleep(500);
                holder.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        release.start();
        new SqliteRunLedger().seal(dir, java.time.Duration.ofMillis(PATIENCE_MS));
        release.join();
        try (Connection reader = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(Layout.DATABASE));
                ResultSet mode = reader.createStatement().executeQuery("PRAGMA journal_mode");
                ResultSet rows = reader.createStatement().executeQuery("SELECT COUNT(*) FROM issues")) {
            assertEquals("delete", mode.getString(1));
            assertEquals(1, rows.getLong(1), "the seal changes no row");
        }
        assertTrue(!Files.exists(dir.resolve(Layout.DATABASE + "-wal")), "the write-ahead log is folded in");
    }

    @Test
    void aHolderThatNeverLetsGoIsNamedInTheError() throws Exception {
        try (Connection holder = walLedgerWithARow()) {
            holder.setAutoCommit(false);
            holder.createStatement().executeQuery("SELECT COUNT(*) FROM issues").close();
            SQLException refused = assertThrows(SQLException.class, () -> new SqliteRunLedger().seal(dir, java.time.Duration.ofMillis(300)));
            assertTrue(refused.getMessage().contains("SQLITE_BUSY"), refused.getMessage());
            assertTrue(refused.getMessage().contains("sealing " + dir.resolve(Layout.DATABASE)), refused.getMessage());
            assertTrue(refused.getMessage().contains("held open by " + ProcessHandle.current().pid() + " ("), refused.getMessage());
        }
    }
}
