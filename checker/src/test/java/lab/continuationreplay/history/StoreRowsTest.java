package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evidence reader against ledgers in each state a server can leave one in while it starts. It lives among the
 * checker's tests because it needs the real schema from shared-store, which history must not name: the probe's jar
 * builds from history without any of the lab's stores.
 */
class StoreRowsTest {
    @TempDir
    Path dir;

    @Test
    void noFileIsAnEmptyLedger() throws Exception {
        Path missing = dir.resolve("missing.sqlite3");
        assertEquals(0, StoreRows.count(missing, "issues"));
        assertEquals(0, StoreRows.rows(missing, "SELECT * FROM operations").size());
        assertEquals(0, StoreRows.rows(missing, "SELECT * FROM operations WHERE operation_id = ?", "x").size());
        assertTrue(Files.notExists(missing), "reading creates nothing");
    }

    @Test
    void aFileCreatedButWithoutItsSchemaYetIsAnEmptyLedger() throws Exception {
        Path zeroBytes = Files.createFile(dir.resolve("zero.sqlite3"));
        assertEquals(0, StoreRows.count(zeroBytes, "issues"));
        assertEquals(0, StoreRows.count(zeroBytes, "operations WHERE operation_id = 'x'"));
        assertEquals(0, StoreRows.rows(zeroBytes, "SELECT title, COUNT(*) AS n FROM issues GROUP BY title").size());
        assertEquals(0, StoreRows.rows(zeroBytes, "SELECT 1 FROM operations WHERE operation_id = ?", "x").size());

        Path pragmasOnly = dir.resolve("wal.sqlite3");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + pragmasOnly); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
        }
        assertEquals(0, StoreRows.count(pragmasOnly, "issues"));
    }

    @Test
    void aLedgerWithItsSchemaIsCountedAndAMissingTableThereIsAnError() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        IssueLedger.open(database, "sqlite:test").close();
        assertEquals(0, StoreRows.count(database, "issues"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement s = c.createStatement()) {
            s.execute("INSERT INTO issues(title, body) VALUES ('t', 'b')");
        }
        assertEquals(1, StoreRows.count(database, "issues"));
        assertEquals(1, StoreRows.rows(database, "SELECT title FROM issues").size());
        assertEquals(List.of(Map.of("title", "t")), StoreRows.rows(database, "SELECT title FROM issues WHERE body = ?", "b"));
        SQLException missing = assertThrows(SQLException.class, () -> StoreRows.count(database, "no_such_table"));
        assertTrue(missing.getMessage().contains("no such table"), missing.getMessage());
    }

    @Test
    void valuesAreBoundNotSplicedIntoTheQuery() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        IssueLedger.open(database, "sqlite:test").close();
        String quoted = "x' OR '1'='1";
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement s = c.createStatement()) {
            s.execute("INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at,"
                    + " updated_at) VALUES ('plain', 'alice', 'b', 'fp', 'in_progress', 'now', 'now')");
        }
        String query = "SELECT operation_id FROM operations WHERE operation_id = ?";
        assertEquals(List.of(), StoreRows.rows(database, query, quoted), "a quote in a value matches nothing");
        assertEquals(List.of(Map.of("operation_id", "plain")), StoreRows.rows(database, query, "plain"));
        assertEquals(1, StoreRows.rows(database,
                "SELECT 1 FROM operations WHERE operation_id = ? AND principal = ?", "plain", "alice").size());
        // SQLite would read a parameter left unbound as NULL and match nothing, passing a "no rows" check silently
        assertEquals("query has 1 parameter(s), 0 given: " + query,
                assertThrows(SQLException.class, () -> StoreRows.rows(database, query)).getMessage());
        assertEquals("query has 1 parameter(s), 2 given: " + query,
                assertThrows(SQLException.class, () -> StoreRows.rows(database, query, "a", "b")).getMessage());
    }
}
