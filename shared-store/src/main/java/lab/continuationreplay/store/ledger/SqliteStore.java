package lab.continuationreplay.store.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The SQLite file: WAL journal, {@code synchronous=FULL}, foreign keys, a busy timeout. {@code BEGIN IMMEDIATE} takes
 * the file's write lock at the start, so write transactions never overlap and never need to run twice: a second
 * writer waits for the lock (up to the busy timeout) and then reads the first one's committed rows.
 */
final class SqliteStore implements LedgerStore {
    private final LedgerLocation.SqliteFile location;
    private final int busyTimeoutMs;

    SqliteStore(LedgerLocation.SqliteFile location, int busyTimeoutMs) {
        this.location = location;
        this.busyTimeoutMs = busyTimeoutMs;
    }

    @Override
    public Connection connect() throws SQLException {
        return connect(location.path(), busyTimeoutMs);
    }

    /** The ledger's SQLite connection settings, in one place ({@link IssueLedger#connect} exposes them). */
    static Connection connect(Path path, int busyTimeoutMs) throws SQLException {
        Path absolute = path.toAbsolutePath();
        try {
            Path parent = absolute.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (java.io.IOException e) {
            throw new SQLException("cannot create the directory of " + absolute + ": " + e.getMessage(), e);
        }
        Properties properties = new Properties();
        properties.setProperty("busy_timeout", Integer.toString(busyTimeoutMs));
        properties.setProperty("foreign_keys", "true");
        properties.setProperty("synchronous", "FULL");
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + absolute, properties);
        try {
            WalJournal.enable(connection, busyTimeoutMs);
        } catch (SQLException | RuntimeException | Error e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    @Override
    public String beginSql() {
        return "BEGIN IMMEDIATE";
    }

    @Override
    public String lockOperationSql() {
        // BEGIN IMMEDIATE takes the file's one write lock: writers never overlap
        return null;
    }

    @Override
    public String findByOperationIdSql() {
        return "SELECT * FROM operations WHERE operation_id = ? ORDER BY rowid LIMIT 1";
    }

    @Override
    public String insertIssueSql() {
        // AUTOINCREMENT: one more than the largest id ever committed (a rolled-back insert's id is given again)
        return "INSERT INTO issues(title, body) VALUES (?, ?)";
    }

    @Override
    public String insertedIdSql() {
        // as before the seam: no RETURNING, so the insert statement is done (and reset) when executeUpdate returns
        return "SELECT last_insert_rowid()";
    }

    @Override
    public void createOrMigrate(Connection connection, String backendId) throws SQLException {
        LedgerSchema.createOrMigrateSqlite(connection, backendId);
    }

    @Override
    public boolean lostARace(SQLException failure) {
        // the write lock is taken at BEGIN, so there is no race to lose; BUSY after the timeout is a real failure
        return false;
    }

    @Override
    public boolean sessionLost(SQLException failure, Connection connection) {
        // a file opened in this process: an error is about the file or the statement, never a session to open again
        return false;
    }

    @Override
    public LedgerLocation location() {
        return location;
    }
}
