package lab.continuationreplay.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * The physical floor of a durable commit: one row per {@code BEGIN IMMEDIATE … COMMIT} on a connection with the
 * ledger's own durability settings ({@link IssueLedger#connect}: WAL, synchronous FULL, busy timeout, foreign keys),
 * into {@value #TABLE}, a table that only benchmark files have. A series that commits through the ledger or a server
 * is compared with this loop run in the same rounds, on the same file system (or the same file). On PostgreSQL
 * ({@link #onPostgres}) the loop is a plain {@code BEGIN}, one {@code INSERT}, {@code COMMIT} on a session with the
 * ledger's settings ({@code synchronous_commit = on}, so each COMMIT waits for its WAL flush), in the ledger's schema.
 */
final class BareCommits implements AutoCloseable {
    static final String TABLE = "bench_bare_commits";

    private final Connection connection;
    private final PreparedStatement begin;
    private final PreparedStatement insert;
    private final PreparedStatement commit;
    private final String prefix;
    private long rows;

    /** Opens {@code database} (a ledger's file or a file of its own); {@code prefix} names this loop's rows. */
    BareCommits(Path database, String prefix) throws SQLException {
        this(IssueLedger.connect(database, IssueLedger.DEFAULT_BUSY_TIMEOUT_MS), prefix, "BEGIN IMMEDIATE",
                "CREATE TABLE IF NOT EXISTS " + TABLE + "(id INTEGER PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)");
    }

    private BareCommits(Connection connection, String prefix, String beginSql, String createSql) throws SQLException {
        this.prefix = prefix;
        this.connection = connection;
        try {
            try (Statement statement = connection.createStatement()) {
                statement.execute(beginSql);
                if (!beginSql.startsWith("BEGIN IMMEDIATE")) {
                    // PostgreSQL: two sessions creating one table at once collide in the catalog; one waits here
                    statement.execute("SELECT pg_advisory_xact_lock(7361)");
                }
                statement.execute(createSql);
                statement.execute("COMMIT");
            }
            this.begin = connection.prepareStatement(beginSql);
            this.insert = connection.prepareStatement("INSERT INTO " + TABLE + "(operation_id, body) VALUES (?, ?)");
            this.commit = connection.prepareStatement("COMMIT");
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The loop on the PostgreSQL ledger at {@code location} (its schema), on a session with the ledger's settings. */
    static BareCommits onPostgres(LedgerLocation.Postgres location, String prefix) throws SQLException {
        return new BareCommits(IssueLedger.connect(location, IssueLedger.DEFAULT_BUSY_TIMEOUT_MS), prefix, "BEGIN",
                "CREATE TABLE IF NOT EXISTS " + TABLE + "(id BIGSERIAL PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)");
    }

    /** {@code n} commits; returns the nanoseconds they took. */
    long nanos(int n) throws SQLException {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            commitOne();
        }
        return System.nanoTime() - start;
    }

    /** {@code n} commits; returns commits per second. */
    double run(int n) throws SQLException {
        return n / (nanos(n) / 1e9);
    }

    private void commitOne() throws SQLException {
        begin.execute();
        try {
            insert.setString(1, prefix + "-" + rows++);
            insert.setString(2, "alpha");
            insert.executeUpdate();
            commit.execute();
        } catch (SQLException | RuntimeException e) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("ROLLBACK");
            }
            throw e;
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
