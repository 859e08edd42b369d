package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The seed's schema (spec §5.1), created and migrated by whoever opens the file first, inside one transaction. */
final class LedgerSchema {
    static final String SCHEMA_VERSION = "1";

    private static final List<String> TABLES = List.of(
            """
            CREATE TABLE IF NOT EXISTS issues(
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              title TEXT NOT NULL,
              body TEXT NOT NULL DEFAULT '')""",
            """
            CREATE TABLE IF NOT EXISTS operation_events(
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              operation_id TEXT NOT NULL,
              step TEXT NOT NULL,
              outcome TEXT NOT NULL,
              error_type TEXT,
              created_at TEXT NOT NULL)""",
            """
            CREATE TABLE IF NOT EXISTS watchers(
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              issue_id INTEGER NOT NULL REFERENCES issues(id),
              name TEXT NOT NULL)""",
            """
            CREATE TABLE IF NOT EXISTS compensations(
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              issue_id INTEGER NOT NULL REFERENCES issues(id),
              kind TEXT NOT NULL,
              outcome TEXT NOT NULL)""",
            """
            CREATE TABLE IF NOT EXISTS operations(
              operation_id TEXT NOT NULL,
              principal TEXT NOT NULL,
              backend TEXT NOT NULL,
              request_fingerprint TEXT NOT NULL,
              state TEXT NOT NULL CHECK (state IN ('in_progress', 'applied', 'partial')),
              effect_id INTEGER REFERENCES issues(id),
              result TEXT,
              issued_at REAL,
              authority_expires_at REAL,
              replay_expires_at REAL,
              created_at TEXT NOT NULL,
              updated_at TEXT NOT NULL,
              PRIMARY KEY (operation_id, principal, backend))""");

    /** Columns added after the first schema; files made before them gain them on open. */
    private static final List<String> DEADLINE_COLUMNS = List.of("issued_at", "authority_expires_at", "replay_expires_at");

    private LedgerSchema() {}

    /**
     * Binds the file to {@code backendId} and creates what is missing. Runs inside the caller's immediate
     * transaction, so a second process opening the same new file waits and then finds everything in place.
     */
    static void createOrMigrate(Connection connection, String backendId) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS store_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        }
        try (PreparedStatement bind = connection.prepareStatement(
                "INSERT OR IGNORE INTO store_metadata(key, value) VALUES ('backend_id', ?)")) {
            bind.setString(1, backendId);
            bind.executeUpdate();
        }
        String bound;
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT value FROM store_metadata WHERE key = 'backend_id'")) {
            bound = row.next() ? row.getString(1) : null;
        }
        if (!backendId.equals(bound)) {
            throw new IllegalArgumentException("database is bound to backend_id '" + bound + "', not '" + backendId + "'");
        }
        try (Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                statement.execute(table);
            }
        }
        try (PreparedStatement version = connection.prepareStatement(
                "INSERT OR IGNORE INTO store_metadata(key, value) VALUES ('schema_version', ?)")) {
            version.setString(1, SCHEMA_VERSION);
            version.executeUpdate();
        }
        Set<String> columns = new HashSet<>();
        try (Statement statement = connection.createStatement();
                ResultSet info = statement.executeQuery("PRAGMA table_info(operations)")) {
            while (info.next()) {
                columns.add(info.getString("name"));
            }
        }
        for (String column : DEADLINE_COLUMNS) {
            if (!columns.contains(column)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ALTER TABLE operations ADD COLUMN " + column + " REAL");
                }
            }
        }
    }
}
