package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The ledger's one session with its database: the connection, the write path's statements prepared once and reused,
 * write transactions run again after a race the database detected, and a session the database ended replaced by a
 * new one where nothing of a call can have reached it. Used under the ledger's lock only, one thread at a time.
 */
final class LedgerSession {
    /** How often a transaction that lost a race the database detected is run again before the failure is final. */
    static final int MAX_RUNS = 50;
    private static final String COMMIT = "COMMIT";

    private final LedgerStore store;
    /** Replaced by a new one after the database ended it ({@link #sessionLost}). */
    private Connection connection;
    /** True once a failure showed the session is gone: the next use opens a new one first. */
    private boolean sessionLost;
    /** The write path's statements by SQL text, prepared on first use. */
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    /** Write transactions committed in this session and those before it: the group-commit tests count them. */
    private long commits;
    /** Write transactions rolled back after a lost race and run again: the concurrency tests expect none between distinct ids. */
    private long reruns;

    LedgerSession(LedgerStore store, Connection connection) {
        this.store = store;
        this.connection = connection;
    }

    LedgerStore store() {
        return store;
    }

    /** The connection now (a lost one is replaced at the next transaction or read): for the steps of case 12. */
    Connection connection() {
        return connection;
    }

    long commits() {
        return commits;
    }

    long reruns() {
        return reruns;
    }

    /** Whether {@code failure} says the database ended this session (a failure of the transaction, not of a member). */
    boolean endedBy(SQLException failure) {
        return store.sessionLost(failure, connection);
    }

    /**
     * Runs {@code work} in one write transaction ({@link LedgerStore#beginSql()} … {@code COMMIT}); anything thrown
     * rolls back. The value is returned only after {@code COMMIT} returned, that is after the commit is durable
     * (SQLite: the WAL fsynced, {@code synchronous=FULL}; PostgreSQL: the WAL flushed, {@code synchronous_commit=on}).
     * A transaction that lost a race the database detected (PostgreSQL's serialisation failure) is run again from its
     * start, at most {@link #MAX_RUNS} times in all; {@code work} reads everything it decides on inside the
     * transaction, so a second run decides on the winner's rows.
     */
    <T> T immediate(SqlWork<T> work) throws SQLException {
        for (int run = 1; ; run++) {
            try {
                return once(work);
            } catch (SQLException e) {
                if (run >= MAX_RUNS || !store.lostARace(e)) {
                    throw e;
                }
                reruns++;
                pauseBeforeRun(run);
            }
        }
    }

    private <T> T once(SqlWork<T> work) throws SQLException {
        begin();
        boolean committing = false;
        try {
            T value = work.run();
            committing = true;
            statement(COMMIT).execute();
            commits++;
            return value;
        } catch (SQLException e) {
            rollbackQuietly(e);
            if (noteIfSessionLost(e)) {
                throw lostInTransaction(e, committing);
            }
            throw e;
        } catch (RuntimeException | Error e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    /**
     * Runs a read (no writes, outside any transaction) on the session, opening a new session first if the last one
     * was lost; a read that meets a session lost only now runs once more on a new one, since reading changes nothing.
     */
    <T> T read(SqlWork<T> read) throws SQLException {
        reconnectIfLost();
        try {
            return read.run();
        } catch (SQLException e) {
            if (!noteIfSessionLost(e)) {
                throw e;
            }
            reconnectIfLost();
            try {
                return read.run();
            } catch (SQLException again) {
                noteIfSessionLost(again);
                throw again;
            }
        }
    }

    /**
     * Sends {@code BEGIN}, on a new session if the last one was lost. A {@code BEGIN} that meets a session lost only
     * now is sent once more on a new session: nothing of the transaction's work has been sent, and {@code BEGIN} alone
     * changes nothing, so this cannot apply anything twice. If no new session can be opened, that is the call's error.
     */
    private void begin() throws SQLException {
        reconnectIfLost();
        try {
            statement(store.beginSql()).execute();
            return;
        } catch (SQLException e) {
            forgetStatements(e);
            if (!noteIfSessionLost(e)) {
                throw e;
            }
        } catch (RuntimeException | Error e) {
            forgetStatements(e);
            throw e;
        }
        reconnectIfLost();
        try {
            statement(store.beginSql()).execute();
        } catch (SQLException e) {
            forgetStatements(e);
            noteIfSessionLost(e);
            throw e;
        }
    }

    /** Marks the session lost when {@code failure} (or the closed connection) says the database ended it. */
    private boolean noteIfSessionLost(SQLException failure) {
        if (store.sessionLost(failure, connection)) {
            sessionLost = true;
        }
        return sessionLost;
    }

    /** Replaces a lost session with a new one (the old one's statements are dropped); a failure to connect is thrown. */
    private void reconnectIfLost() throws SQLException {
        if (!sessionLost) {
            return;
        }
        forgetStatements(new SQLException("closing the lost session's statements"));
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the session is gone already; closing only frees the driver's side
        }
        connection = store.connect();
        sessionLost = false;
    }

    /**
     * The error of a transaction whose session the database ended: before {@code COMMIT} was sent nothing of it can
     * have committed; at {@code COMMIT} it may have, and only a read of the operation's status can tell.
     */
    private static SQLException lostInTransaction(SQLException cause, boolean atCommit) {
        String what = atCommit
                ? "the ledger's database session ended at COMMIT; whether this call committed is unknown until its status is read"
                : "the ledger's database session ended inside the transaction; nothing of this call was committed";
        return new SQLException(what + "; the next call opens a new session (" + cause.getMessage() + ")",
                cause.getSQLState(), cause);
    }

    /** A short random pause, growing with the runs, so two losers do not meet again at once. */
    private static void pauseBeforeRun(int run) throws SQLException {
        long bound = Math.min(50, 2L * run);
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, bound + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to run a transaction again", e);
        }
    }

    /** The statement for {@code sql}, prepared on this connection once and reused: parameters are bound anew each use. */
    PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /**
     * Closes the cached statements after a failure (the driver may have finalised one, or left one mid-step); the next
     * use prepares them again.
     */
    void forgetStatements(Throwable cause) {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException closeFailure) {
                cause.addSuppressed(closeFailure);
            }
        }
        statements.clear();
    }

    private void rollbackQuietly(Throwable cause) {
        forgetStatements(cause);
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    void close() throws SQLException {
        try {
            for (PreparedStatement statement : statements.values()) {
                statement.close();
            }
            statements.clear();
        } finally {
            connection.close();
        }
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }
}
