package lab.continuationreplay.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * The physical floor of a durable commit, in this JVM: one row per {@code BEGIN IMMEDIATE} transaction on its own
 * SQLite file, with the ledger's durability (WAL, synchronous FULL, busy timeout, foreign keys). A series that
 * commits through a server is compared with this loop run in the same rounds, on the same file system.
 */
final class BareCommits implements AutoCloseable {
    private final Connection connection;
    private final PreparedStatement insert;
    private long row;

    BareCommits(Path file) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("busy_timeout", Integer.toString(IssueLedger.DEFAULT_BUSY_TIMEOUT_MS));
        properties.setProperty("foreign_keys", "true");
        properties.setProperty("synchronous", "FULL");
        connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
        try (Statement statement = connection.createStatement()) {
            try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode=WAL")) {
                if (!mode.next() || !"wal".equalsIgnoreCase(mode.getString(1))) {
                    throw new IllegalStateException("no WAL journal on " + file);
                }
            }
            statement.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)");
        }
        connection.setAutoCommit(true);
        insert = connection.prepareStatement("INSERT INTO rows (operation_id, body) VALUES (?, ?)");
    }

    /** {@code n} commits, each its own immediate transaction; returns commits per second. */
    double run(int n) throws Exception {
        long start = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            for (int i = 0; i < n; i++) {
                statement.execute("BEGIN IMMEDIATE");
                insert.setString(1, "bare-" + row++);
                insert.setString(2, "alpha");
                insert.executeUpdate();
                statement.execute("COMMIT");
            }
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
