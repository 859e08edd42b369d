package lab.continuationreplay.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
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
    private final PreparedStatement insertOperation;
    private final PreparedStatement insertEffect;
    private final String prefix;
    private long rows;
    private long shapedRows;

    /** Opens {@code database} (a ledger's file or a file of its own); {@code prefix} names this loop's rows. */
    BareCommits(Path database, String prefix) throws SQLException {
        this(IssueLedger.connect(database, IssueLedger.DEFAULT_BUSY_TIMEOUT_MS), prefix, "BEGIN IMMEDIATE", List.of(
                "CREATE TABLE IF NOT EXISTS " + TABLE + "(id INTEGER PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + EFFECTS_TABLE + "(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)",
                OPERATIONS_TABLE_SQL));
    }

    /** The shaped floor's two tables: an effect row and an operation row naming it, as little as a ledger can write. */
    static final String EFFECTS_TABLE = "bench_floor_effects";
    static final String OPERATIONS_TABLE = "bench_floor_operations";
    private static final String OPERATIONS_TABLE_SQL = "CREATE TABLE IF NOT EXISTS " + OPERATIONS_TABLE
            + "(operation_id TEXT PRIMARY KEY, request_fingerprint TEXT NOT NULL, effect_id BIGINT NOT NULL, result TEXT NOT NULL)";

    private BareCommits(Connection connection, String prefix, String beginSql, List<String> createSql) throws SQLException {
        this.prefix = prefix;
        this.connection = connection;
        try {
            try (Statement statement = connection.createStatement()) {
                statement.execute(beginSql);
                if (!beginSql.startsWith("BEGIN IMMEDIATE")) {
                    // PostgreSQL: two sessions creating one table at once collide in the catalog; one waits here
                    statement.execute("SELECT pg_advisory_xact_lock(7361)");
                }
                for (String create : createSql) {
                    statement.execute(create);
                }
                statement.execute("COMMIT");
            }
            this.begin = connection.prepareStatement(beginSql);
            this.insert = connection.prepareStatement("INSERT INTO " + TABLE + "(operation_id, body) VALUES (?, ?)");
            this.commit = connection.prepareStatement("COMMIT");
            this.insertEffect = connection.prepareStatement("INSERT INTO " + EFFECTS_TABLE + "(title, body) VALUES (?, ?)",
                    new String[] {"id"});
            this.insertOperation = connection.prepareStatement("INSERT INTO " + OPERATIONS_TABLE
                    + "(operation_id, request_fingerprint, effect_id, result) VALUES (?, ?, ?, ?)");
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The loop on the PostgreSQL ledger at {@code location} (its schema), on a session with the ledger's settings. */
    static BareCommits onPostgres(LedgerLocation.Postgres location, String prefix) throws SQLException {
        return new BareCommits(IssueLedger.connect(location, IssueLedger.DEFAULT_BUSY_TIMEOUT_MS), prefix, "BEGIN", List.of(
                "CREATE TABLE IF NOT EXISTS " + TABLE + "(id BIGSERIAL PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + EFFECTS_TABLE + "(id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)",
                OPERATIONS_TABLE_SQL));
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

    /**
     * {@code n} operations of the shaped floor; returns their nanoseconds. Each is one transaction that inserts an
     * effect row and an operation row naming it (with a fingerprint and a result): the least a ledger that keeps the
     * operation beside its effect must write, with none of its reads or checks. Rows 5 and 6 compare it with the bare
     * loop: where this alone is below the row's bound, no ledger of this shape can meet it.
     */
    long shapedNanos(int n) throws SQLException {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            inTransaction(() -> {
                insertEffect.setString(1, "bench");
                insertEffect.setString(2, "alpha");
                insertEffect.executeUpdate();
                long effectId;
                try (java.sql.ResultSet key = insertEffect.getGeneratedKeys()) {
                    key.next();
                    effectId = key.getLong(1);
                }
                insertOperation.setString(1, prefix + "-shaped-" + shapedRows++);
                insertOperation.setString(2, LedgerWorker.FINGERPRINT);
                insertOperation.setLong(3, effectId);
                insertOperation.setString(4, "created " + effectId);
                insertOperation.executeUpdate();
            });
        }
        return System.nanoTime() - start;
    }

    private void commitOne() throws SQLException {
        inTransaction(() -> {
            insert.setString(1, prefix + "-" + rows++);
            insert.setString(2, "alpha");
            insert.executeUpdate();
        });
    }

    /** The writes of one transaction, between the loop's own BEGIN and COMMIT. */
    @FunctionalInterface
    private interface Writes {
        void run() throws SQLException;
    }

    /** {@code writes} in one transaction, committed; rolled back if anything fails. */
    private void inTransaction(Writes writes) throws SQLException {
        begin.execute();
        try {
            writes.run();
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
