package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evidence reader against ledgers in each state a server can leave one in while it starts. */
class StoreRowsTest {
    @TempDir
    Path dir;

    @Test
    void noFileIsAnEmptyLedger() throws Exception {
        Path missing = dir.resolve("missing.sqlite3");
        assertEquals(0, StoreRows.count(missing, "issues"));
        assertEquals(0, StoreRows.rows(missing, "SELECT * FROM operations").size());
        assertTrue(Files.notExists(missing), "reading creates nothing");
    }

    @Test
    void aFileCreatedButWithoutItsSchemaYetIsAnEmptyLedger() throws Exception {
        Path zeroBytes = Files.createFile(dir.resolve("zero.sqlite3"));
        assertEquals(0, StoreRows.count(zeroBytes, "issues"));
        assertEquals(0, StoreRows.count(zeroBytes, "operations WHERE operation_id = 'x'"));
        assertEquals(0, StoreRows.rows(zeroBytes, "SELECT title, COUNT(*) AS n FROM issues GROUP BY title").size());

        Path pragmasOnly = dir.resolve("wal.sqlite3");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + pragmasOnly); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
        }
        assertEquals(0, StoreRows.count(pragmasOnly, "issues"));
    }

    @Test
    void aLedgerWithItsSchemaIsCountedAndAMissingTableThereIsAnError() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        IssueLedger.open(database, WireSettings.BACKEND).close();
        assertEquals(0, StoreRows.count(database, "issues"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement s = c.createStatement()) {
            s.execute("INSERT INTO issues(title, body) VALUES ('t', 'b')");
        }
        assertEquals(1, StoreRows.count(database, "issues"));
        assertEquals(1, StoreRows.rows(database, "SELECT title FROM issues").size());
        SQLException missing = assertThrows(SQLException.class, () -> StoreRows.count(database, "no_such_table"));
        assertTrue(missing.getMessage().contains("no such table"), missing.getMessage());
    }
}
