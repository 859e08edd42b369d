package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The seam under {@link IssueLedger}: what differs between the two databases a ledger can live in. The rules (apply
 * once, deadlines, states, cut points, partial steps, read-back) are written once, in {@link IssueLedger}, against
 * this; a store only says how to connect, how a write transaction begins, how it claims an operation id, how a new
 * issue gets its id, what the schema looks like, and which failures mean "another transaction won, run yours again".
 *
 * <p>Both stores promise the same thing to the rules above them: two write transactions on the same operation id, in
 * any process, never overlap, so each decides on what the other committed; a transaction's answer is given only after
 * its commit is durable; rows are never deleted; issue ids are dense: a new issue takes the lowest id no committed
 * issue holds, so an id a rolled-back transaction had taken is given again.
 */
sealed interface LedgerStore permits SqliteStore, PostgresStore {

    /** A new connection with the store's durability settings, auto-commit on (transactions are begun by hand). */
    Connection connect() throws SQLException;

    /** The statement that opens a write transaction (the rest of the transaction is plain SQL, then COMMIT). */
    String beginSql();

    /**
     * A statement that waits until no other transaction holds this operation id and holds it to the end of this one;
     * one parameter, the id. Null where {@link #beginSql()} already keeps writers from overlapping at all.
     */
    String lockOperationSql();

    /** Finds the one row of an operation id (whatever principal or backend it is bound to). One parameter: the id. */
    String findByOperationIdSql();

    /**
     * Inserts an issue; parameters: title, body. With {@link #insertedIdSql()} null it answers the id as the one
     * column of its one row ({@code RETURNING}), else it is an update and that query reads the id.
     */
    String insertIssueSql();

    /** The query that reads the id of the issue just inserted on this connection, or null (see above). */
    String insertedIdSql();

    /**
     * One statement that does an atomic apply's reads and writes on the database's side, or null where the rules run
     * them one by one. Parameters: operation id, principal, backend, fingerprint, issued_at, authority_expires_at,
     * replay_expires_at, the wall-clock stamp, title, body, and whether a new operation is admitted. Its one row is
     * the operation's row after the call with a leading {@code created} column; no row when none existed and a new
     * one was not admitted. Every round trip of an apply holds the operation's lock (PostgreSQL: nine statements
     * became three, 2026-12-07).
     */
    default String applyAtomicSql() {
        return null;
    }

    /** Creates what is missing and binds the ledger to {@code backendId}; runs inside a write transaction. */
    void createOrMigrate(Connection connection, String backendId) throws SQLException;

    /**
     * True when {@code failure} means the transaction lost a race the database detected (and rolled it back), so
     * running it again from the start will see the winner's committed rows.
     */
    boolean lostARace(SQLException failure);

    /**
     * True when {@code failure} means the database ended this session (it restarted, or ended the session itself), so
     * no statement can run on {@code connection} again and a new session must be opened. A SQLite file has no session
     * to lose.
     */
    boolean sessionLost(SQLException failure, Connection connection);

    LedgerLocation location();
}
