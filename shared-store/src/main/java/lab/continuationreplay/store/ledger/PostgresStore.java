package lab.continuationreplay.store.ledger;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.Set;

/**
 * A PostgreSQL database. Write transactions run at {@code READ COMMITTED}, and the apply path first claims its
 * operation id with a transaction-scoped advisory lock ({@link #lockOperationSql()}): a second transaction on the same
 * id, from any principal or process, waits until the first ends, and its next statement sees what the first committed,
 * so it replays or conflicts. Transactions on different ids never wait for or abort each other, so their commits share
 * the WAL's flushes as the bare INSERT loop's do. (Until 2026-12-06 every write ran at {@code SERIALIZABLE} and ids
 * were {@code MAX(id)+1}: every pair of concurrent writers conflicted, and the losers ran again.)
 *
 * <p>Issue ids stay dense as SQLite's are: {@code ledger_insert_issue} (created with the schema) takes the lowest id
 * no committed issue holds and no running transaction has claimed, with a second advisory lock held to the end of the
 * transaction, so a rolled-back insert's id is taken by the next issue. A frozen reply's {@code created 1} is the same
 * on both stores.
 *
 * <p>An unarmed atomic apply is one call of {@code ledger_apply_atomic} ({@link #applyAtomicSql()}): the lock, the
 * read and the writes run on the server, three statements with {@code BEGIN} and {@code COMMIT} where the statement
 * path sends nine.
 *
 * <p>Durability: each session sets {@code synchronous_commit = on}, so COMMIT returns only after the commit's WAL
 * record is flushed to disk, and a server running with {@code fsync = off} is refused.
 */
final class PostgresStore implements LedgerStore {
    /**
     * Serialisation failure, deadlock (two group commits claiming the same ids in another order), and a unique key
     * taken by a concurrent insert: the loser of a race.
     */
    private static final Set<String> LOST_A_RACE = Set.of("40001", "40P01", "23505");
    /**
     * The server ended the session: shut down (57P01, also a session ended by {@code pg_terminate_backend}), crashed
     * (57P02), or is starting or stopping (57P03). Class 08 (connection exceptions) is the driver's own word for a
     * session it lost, e.g. 08006 when the socket broke.
     */
    private static final Set<String> SESSION_ENDED = Set.of("57P01", "57P02", "57P03");

    private final LedgerLocation.Postgres location;
    private final int lockTimeoutMs;

    PostgresStore(LedgerLocation.Postgres location, int lockTimeoutMs) {
        this.location = location;
        this.lockTimeoutMs = lockTimeoutMs;
    }

    @Override
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", location.user());
        properties.setProperty("password", new String(location.password(), StandardCharsets.UTF_8));
        properties.setProperty("ApplicationName", "continuation-replay-ledger");
        properties.setProperty("connectTimeout", "10");
        Connection connection;
        try {
            connection = DriverManager.getConnection(location.url(), properties);
        } catch (SQLException e) {
            // the driver's message names host and database, never the password; say which ledger it was
            throw new SQLException("cannot connect to the ledger " + location.describe() + ": " + e.getMessage(),
                    e.getSQLState(), e);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET synchronous_commit = on");
            statement.execute("SET lock_timeout = " + lockTimeoutMs);
            try (ResultSet fsync = statement.executeQuery("SHOW fsync")) {
                if (!fsync.next() || !"on".equals(fsync.getString(1))) {
                    throw new SQLException("the PostgreSQL server runs with fsync off; the ledger needs durable commits");
                }
            }
        } catch (SQLException | RuntimeException | Error e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    @Override
    public String beginSql() {
        return "BEGIN ISOLATION LEVEL READ COMMITTED";
    }

    @Override
    public String lockOperationSql() {
        return "SELECT pg_advisory_xact_lock(" + LedgerSchema.OPERATION_LOCKS + ", hashtext(?))";
    }

    @Override
    public String findByOperationIdSql() {
        return "SELECT * FROM operations WHERE operation_id = ? ORDER BY created_at, principal, backend LIMIT 1";
    }

    @Override
    public String insertIssueSql() {
        return "SELECT ledger_insert_issue(?, ?)";
    }

    @Override
    public String insertedIdSql() {
        return null;
    }

    @Override
    public String applyAtomicSql() {
        return "SELECT * FROM ledger_apply_atomic(?, ?, ?, ?, ?::float8, ?::float8, ?::float8, ?, ?, ?, ?)";
    }

    @Override
    public void createOrMigrate(Connection connection, String backendId) throws SQLException {
        LedgerSchema.createPostgres(connection, backendId);
    }

    @Override
    public boolean lostARace(SQLException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null && LOST_A_RACE.contains(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean sessionLost(SQLException failure, Connection connection) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || SESSION_ENDED.contains(sql.getSQLState()))) {
                return true;
            }
        }
        try {
            // the driver closes a connection whose socket failed, whatever state it reported
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    @Override
    public LedgerLocation location() {
        return location;
    }
}
