package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.jdbc;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed spec §5.1: construction, backend binding, schema and the deadline-column migration. */
class LedgerSchemaTest {
    @TempDir
    Path dir;

    private static List<String> tableNames(Path file) throws SQLException {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> row : rows(file,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            names.add((String) row.get("name"));
        }
        return names;
    }

    /** column name → declared type, in table order. */
    private static Map<String, String> columns(Path file, String table) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        for (Map<String, Object> row : rows(file, "SELECT name, type FROM pragma_table_info('" + table + "') ORDER BY cid")) {
            columns.put((String) row.get("name"), (String) row.get("type"));
        }
        return columns;
    }

    @Test
    void newFileGetsAllTablesAndIsBoundToTheBackend() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        assertFalse(Files.exists(file));
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            assertEquals(BACKEND, ledger.backendId());
            assertEquals(file.toAbsolutePath(), ledger.path());
        }
        assertTrue(Files.exists(file));
        assertEquals(List.of("compensations", "issues", "operation_events", "operations", "store_metadata", "watchers"),
                tableNames(file));
        assertEquals(List.of(Map.of("key", "backend_id", "value", BACKEND), Map.of("key", "schema_version", "value", "1")),
                rows(file, "SELECT key, value FROM store_metadata ORDER BY key"));
    }

    @Test
    void tablesHaveTheSpecifiedColumns() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        IssueLedger.open(file, BACKEND).close();
        assertEquals(List.of("id", "title", "body"), List.copyOf(columns(file, "issues").keySet()));
        assertEquals(List.of("id", "operation_id", "step", "outcome", "error_type", "created_at"),
                List.copyOf(columns(file, "operation_events").keySet()));
        assertEquals(List.of("id", "issue_id", "name"), List.copyOf(columns(file, "watchers").keySet()));
        assertEquals(List.of("id", "issue_id", "kind", "outcome"), List.copyOf(columns(file, "compensations").keySet()));
        Map<String, String> operations = columns(file, "operations");
        assertEquals(List.of("operation_id", "principal", "backend", "request_fingerprint", "state", "effect_id", "result",
                "issued_at", "authority_expires_at", "replay_expires_at", "created_at", "updated_at"),
                List.copyOf(operations.keySet()));
        assertEquals("REAL", operations.get("issued_at"));
        assertEquals("REAL", operations.get("authority_expires_at"));
        assertEquals("REAL", operations.get("replay_expires_at"));
        // primary key is the triple
        assertEquals(List.of(Map.of("name", "operation_id", "pk", 1), Map.of("name", "principal", "pk", 2),
                Map.of("name", "backend", "pk", 3)),
                rows(file, "SELECT name, pk FROM pragma_table_info('operations') WHERE pk > 0 ORDER BY pk"));
    }

    @Test
    void stateCheckConstraintRejectsUnknownStates() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        IssueLedger.open(file, BACKEND).close();
        try (Connection connection = jdbc(file); Statement statement = connection.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> statement.execute("""
                    INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at, updated_at)
                    VALUES ('op', 'alice', 'sqlite:test', 'fp', 'done', 'x', 'x')"""));
            assertTrue(e.getMessage().contains("CHECK constraint failed"), e.getMessage());
        }
    }

    @Test
    void journalModeIsWal() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        IssueLedger.open(file, BACKEND).close();
        assertEquals(List.of(Map.of("journal_mode", "wal")), rows(file, "PRAGMA journal_mode"));
    }

    @Test
    void ledgerConnectionHasForeignKeysFullSyncAndBusyTimeout() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        Map<String, Object> seen = new LinkedHashMap<>();
        PartialSteps probe = new PartialSteps("w", (connection, issueId, watcher) -> {
            for (String pragma : List.of("foreign_keys", "synchronous", "busy_timeout", "journal_mode")) {
                try (Statement statement = connection.createStatement();
                        var row = statement.executeQuery("PRAGMA " + pragma)) {
                    row.next();
                    seen.put(pragma, row.getObject(1));
                }
            }
        }, (connection, issueId) -> {});
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND, 1234)) {
            ledger.applyPartialIssueOnce(ApplyRequest.unbounded(id("op"), "fp", "t", "b"), probe, FaultHook.NONE);
        }
        assertEquals(Map.of("foreign_keys", 1, "synchronous", 2, "busy_timeout", 1234, "journal_mode", "wal"), seen);
    }

    @Test
    void reopeningWithTheSameBackendKeepsData() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            ledger.applyIssueOnce(ApplyRequest.unbounded(id("op"), "fp", "t", "b"), FaultHook.NONE);
        }
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                    ledger.applyIssueOnce(ApplyRequest.unbounded(id("op"), "fp", "t", "b"), FaultHook.NONE));
        }
        assertEquals(List.of(Map.of("key", "backend_id", "value", BACKEND), Map.of("key", "schema_version", "value", "1")),
                rows(file, "SELECT key, value FROM store_metadata ORDER BY key"));
    }

    @Test
    void anotherBackendIsRefusedAndTheFileStaysUsable() throws Exception {
        Path file = dir.resolve("ledger.sqlite3");
        IssueLedger.open(file, "A").close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IssueLedger.open(file, "B"));
        assertEquals("database is bound to backend_id 'A', not 'B'", e.getMessage());
        assertEquals(List.of(Map.of("value", "A")), rows(file, "SELECT value FROM store_metadata WHERE key = 'backend_id'"));
        try (IssueLedger ledger = IssueLedger.open(file, "A")) {
            assertEquals("A", ledger.backendId());
            assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                    ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity("op", "alice", "A"), "fp", "t",
                    "b"), FaultHook.NONE));
        }
    }

    @Test
    void backendMismatchRollsBackTheWholeSchemaTransaction() throws Exception {
        Path file = dir.resolve("bound-only.sqlite3");
        try (Connection connection = jdbc(file); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE store_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            statement.execute("INSERT INTO store_metadata(key, value) VALUES ('backend_id', 'A')");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IssueLedger.open(file, "B"));
        assertEquals("database is bound to backend_id 'A', not 'B'", e.getMessage());
        assertEquals(List.of("store_metadata"), tableNames(file));
        assertEquals(List.of(Map.of("key", "backend_id", "value", "A")), rows(file, "SELECT key, value FROM store_metadata"));
    }

    @Test
    void blankOrNullBackendIsRefusedBeforeTouchingTheFile() {
        for (String backend : new String[] {null, "", "   ", "\t\n"}) {
            Path file = dir.resolve("never.sqlite3");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IssueLedger.open(file, backend));
            assertEquals("backend_id is required for a file-backed store", e.getMessage());
            assertFalse(Files.exists(file), "no file for backend " + backend);
        }
    }

    @Test
    void parentDirectoriesAreCreated() throws Exception {
        Path file = dir.resolve("a").resolve("b").resolve("c").resolve("ledger.sqlite3");
        assertFalse(Files.exists(file.getParent()));
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            assertEquals(0, new LedgerQueries(ledger).issueCount());
        }
        assertTrue(Files.isDirectory(dir.resolve("a/b/c")));
        assertTrue(Files.isRegularFile(file));
    }

    @Test
    void oldOperationsTableGainsDeadlineColumnsAndKeepsItsRows() throws Exception {
        Path file = dir.resolve("old.sqlite3");
        try (Connection connection = jdbc(file); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE store_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            statement.execute("INSERT INTO store_metadata(key, value) VALUES ('backend_id', 'sqlite:test')");
            statement.execute("""
                    CREATE TABLE issues(id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
                      body TEXT NOT NULL DEFAULT '')""");
            statement.execute("""
                    CREATE TABLE operations(
                      operation_id TEXT NOT NULL, principal TEXT NOT NULL, backend TEXT NOT NULL,
                      request_fingerprint TEXT NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('in_progress', 'applied', 'partial')),
                      effect_id INTEGER REFERENCES issues(id), result TEXT,
                      created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                      PRIMARY KEY (operation_id, principal, backend))""");
            statement.execute("INSERT INTO issues(title, body) VALUES ('old title', 'old body')");
            statement.execute("""
                    INSERT INTO operations VALUES ('old-op', 'alice', 'sqlite:test', 'old-fp', 'applied', 1, 'created 1',
                      '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:01+00:00')""");
        }
        assertEquals(List.of("operation_id", "principal", "backend", "request_fingerprint", "state", "effect_id", "result",
                "created_at", "updated_at"), List.copyOf(columns(file, "operations").keySet()));

        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            Map<String, String> operations = columns(file, "operations");
            assertEquals("REAL", operations.get("issued_at"));
            assertEquals("REAL", operations.get("authority_expires_at"));
            assertEquals("REAL", operations.get("replay_expires_at"));
            assertEquals(12, operations.size());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            assertEquals(Optional.of(new OperationRecord(id("old-op"), "old-fp", OperationState.APPLIED, 1L, "created 1", 0.0, null, null,
                    "2024-01-01T00:00:00+00:00", "2024-01-01T00:00:01+00:00")), ledger.operationRecord(id("old-op")));
            // the migrated row has no deadlines, so it replays without a clock
            assertEquals(new ApplyResult(1, "created 1", true, OperationState.APPLIED),
                    ledger.applyIssueOnce(ApplyRequest.unbounded(id("old-op"), "old-fp", "old title", "old body"),
                    FaultHook.NONE));
            // and new bounded rows work in the migrated table
            assertEquals(new ApplyResult(2, "created 2", false, OperationState.APPLIED),
                    ledger.applyIssueOnce(ApplyRequest.at(id("new-op"), "fp", "t", "b", Deadlines.of(100, 110, 120),
                    100.0), FaultHook.NONE));
        }
        assertEquals(List.of(Map.of("operation_id", "new-op", "issued_at", 100.0, "authority_expires_at", 110.0,
                "replay_expires_at", 120.0)), rows(file, """
                SELECT operation_id, issued_at, authority_expires_at, replay_expires_at FROM operations
                WHERE operation_id = 'new-op'"""));
        List<String> tables = tableNames(file);
        assertEquals(List.of("compensations", "issues", "operation_events", "operations", "store_metadata", "watchers"),
                tables);
        // opening again does not try to add the columns a second time
        IssueLedger.open(file, BACKEND).close();
        assertEquals(12, columns(file, "operations").size());
    }

    @Test
    void partiallyMigratedTableGainsOnlyTheMissingColumns() throws Exception {
        Path file = dir.resolve("half.sqlite3");
        try (Connection connection = jdbc(file); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE store_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            statement.execute("INSERT INTO store_metadata(key, value) VALUES ('backend_id', 'sqlite:test')");
            statement.execute("""
                    CREATE TABLE operations(
                      operation_id TEXT NOT NULL, principal TEXT NOT NULL, backend TEXT NOT NULL,
                      request_fingerprint TEXT NOT NULL, state TEXT NOT NULL, effect_id INTEGER, result TEXT,
                      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, issued_at REAL,
                      PRIMARY KEY (operation_id, principal, backend))""");
        }
        IssueLedger.open(file, BACKEND).close();
        assertEquals(List.of("operation_id", "principal", "backend", "request_fingerprint", "state", "effect_id", "result",
                "created_at", "updated_at", "issued_at", "authority_expires_at", "replay_expires_at"),
                List.copyOf(columns(file, "operations").keySet()));
    }
}
