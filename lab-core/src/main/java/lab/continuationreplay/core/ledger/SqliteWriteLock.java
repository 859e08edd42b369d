package lab.continuationreplay.core.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A second writer on a server's SQLite ledger, from outside the server: {@code BEGIN EXCLUSIVE} on the file, so every
 * commit of the server waits (up to its busy timeout) until {@link #close()} rolls back. The fault lab holds it past
 * the timeout; {@code lab conformance} for a second while a cut round waits.
 */
public final class SqliteWriteLock implements AutoCloseable {
    private final Connection connection;

    private SqliteWriteLock(Connection connection) {
        this.connection = connection;
    }

    public static SqliteWriteLock take(Path database) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN EXCLUSIVE");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new SqliteWriteLock(connection);
    }

    @Override
    public void close() throws SQLException {
        try (connection; Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        }
    }
}
