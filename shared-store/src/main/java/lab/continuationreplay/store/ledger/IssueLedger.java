package lab.continuationreplay.store.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;

/**
 * The operation ledger and its deliberately non-idempotent effect ({@code issues}) (seed spec §5), in a SQLite file or
 * a PostgreSQL database ({@link LedgerStore}, chosen by {@link LedgerLocation}). The rules are written here once for
 * both. Every write runs in one serialisable transaction ({@code BEGIN IMMEDIATE} on SQLite, {@code BEGIN ISOLATION
 * LEVEL SERIALIZABLE} on PostgreSQL), so concurrent writers in separate processes are ordered by the database and the
 * loser sees the winner's committed row; where the database detects a lost race only at a statement or at COMMIT
 * (PostgreSQL), the transaction is run again from its start, a bounded number of times. Apply-once rests on that and
 * on the primary key, never on a lock in this process: the instance's lock only keeps its connection to one thread at
 * a time.
 *
 * <p>Durability contract (never weaker than the seed's durable commit): an atomic operation's ledger row, issue row
 * and {@code applied} transition are in exactly one {@code BEGIN IMMEDIATE … COMMIT}, on a WAL journal with
 * {@code synchronous=FULL}, so the WAL is fsynced before {@code COMMIT} returns; the answer (a new effect or a
 * replay) is given only after that, so the effect and the stored result are on disk when a client can see them.
 * <b>Group commit</b>: atomic applies that wait for this instance's lock together (the concurrent callers of an HTTP
 * server) share that transaction, each inside its own savepoint, and are all answered after its one {@code COMMIT}:
 * one fsync per group instead of one per operation, and never an answer before the commit that holds the
 * operation's work. A lone caller's transaction is the single apply it always was. The statements
 * of the write path are prepared once per connection and reused (preparing was a sixth of an apply's time); after
 * any failure inside a transaction they are closed and prepared afresh, so no half-run statement outlives it.
 *
 * <p>A lost session (PostgreSQL restarted, or the session ended by the server) is never hidden where it could matter:
 * the call that meets it inside a transaction fails with a clear error that says whether anything can have committed,
 * and the ledger opens a new session for the next call. Only where nothing of the call can have reached the database
 * does the ledger reconnect and go on by itself: a transaction whose {@code BEGIN} meets the dead session (its work
 * has not been sent, and {@code BEGIN} alone changes nothing), and a read (it changes nothing either way).
 */
public final class IssueLedger implements AutoCloseable {
    public static final int DEFAULT_BUSY_TIMEOUT_MS = 5000;
    static final String CONFLICT = "operation_id is already bound to a different principal, backend, or request fingerprint";
    private static final DateTimeFormatter WALL_CLOCK = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    /** How often a transaction that lost a race the database detected is run again before the failure is final. */
    static final int MAX_RUNS = 50;

    private static final String COMMIT = "COMMIT";
    private static final String SAVEPOINT = "SAVEPOINT apply";
    private static final String ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT apply";
    private static final String RELEASE_SAVEPOINT = "RELEASE SAVEPOINT apply";

    /** The most atomic applies one transaction holds (group commit); more wait for the next. */
    static final int MAX_GROUP = 64;
    private static final String FIND_BY_IDENTITY = "SELECT * FROM operations WHERE operation_id = ? AND principal = ? AND backend = ?";
    private static final String INSERT_OPERATION = """
            INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, effect_id, result,
              issued_at, authority_expires_at, replay_expires_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)""";
    private static final String FINISH_OPERATION = """
            UPDATE operations SET state = ?, effect_id = ?, result = ?, updated_at = ?
            WHERE operation_id = ? AND principal = ? AND backend = ?""";
    private static final String SET_EFFECT = "UPDATE operations SET effect_id = ?, updated_at = ? WHERE operation_id = ? AND principal = ? AND backend = ?";
    private static final String INSERT_EVENT = "INSERT INTO operation_events(operation_id, step, outcome, error_type, created_at) VALUES (?, ?, ?, ?, ?)";
    private static final String INSERT_COMPENSATION = "INSERT INTO compensations(issue_id, kind, outcome) VALUES (?, ?, ?)";

    /** The session; replaced by a new one after the database ended it ({@link #sessionLost}). Guarded by this lock. */
    private Connection connection;
    /** True once a failure showed the session is gone: the next use opens a new one first. */
    private boolean sessionLost;
    private final String backendId;
    private final LedgerStore store;
    /** The write path's statements by SQL text, prepared on first use; guarded by this instance's lock. */
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    /** Write transactions committed through this instance (guarded by its lock): the group-commit tests count them. */
    private long commits;
    /** Atomic applies waiting for a commit (group commit, see {@link #applyIssueOnce}); taken with the lock held. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Pending> waiting = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private IssueLedger(Connection connection, String backendId, LedgerStore store) {
        this.connection = connection;
        this.backendId = backendId;
        this.store = store;
    }

    public static IssueLedger open(Path path, String backendId) throws SQLException {
        return open(path, backendId, DEFAULT_BUSY_TIMEOUT_MS);
    }

    /**
     * Opens (creating if needed) the ledger at {@code path}, bound to {@code backendId}. WAL journal, full fsync on
     * commit, foreign keys on; {@code busyTimeoutMs} is how long a writer waits for another process's lock.
     */
    public static IssueLedger open(Path path, String backendId, int busyTimeoutMs) throws SQLException {
        return open(new LedgerLocation.SqliteFile(path), backendId, busyTimeoutMs);
    }

    public static IssueLedger open(LedgerLocation location, String backendId) throws SQLException {
        return open(location, backendId, DEFAULT_BUSY_TIMEOUT_MS);
    }

    /**
     * Opens (creating the schema if needed) the ledger at {@code location}, bound to {@code backendId}.
     * {@code waitMs} is how long a writer waits for another's lock: SQLite's busy timeout, PostgreSQL's lock timeout.
     */
    public static IssueLedger open(LedgerLocation location, String backendId, int waitMs) throws SQLException {
        if (backendId == null || backendId.isBlank()) {
            throw new IllegalArgumentException("backend_id is required for a file-backed store");
        }
        LedgerStore store = storeOf(location, waitMs);
        Connection connection = store.connect();
        IssueLedger ledger = new IssueLedger(connection, backendId, store);
        try {
            ledger.immediate(() -> {
                store.createOrMigrate(connection, backendId);
                return null;
            });
        } catch (SQLException | RuntimeException | Error e) {
            connection.close();
            throw e;
        }
        return ledger;
    }

    /**
     * A connection to the SQLite file at {@code path} with the ledger's durability settings, the ones {@link #open}
     * uses: WAL journal, {@code synchronous=FULL} (the WAL is fsynced at every commit, so a commit that returned is on
     * disk), foreign keys on, {@code busyTimeoutMs} to wait for another process's lock. Benchmark 2's bare commit loop
     * opens its connection here, so its floor has exactly the ledger's durability.
     */
    public static Connection connect(Path path, int busyTimeoutMs) throws SQLException {
        return SqliteStore.connect(path, busyTimeoutMs);
    }

    /**
     * A session on the ledger at {@code location} with the settings {@link #open} gives its own (SQLite: as above;
     * PostgreSQL: {@code synchronous_commit = on}, {@code waitMs} as the lock timeout, a server with {@code fsync}
     * off refused), auto-commit on. Benchmark 2's bare commit loop on PostgreSQL opens its session here.
     */
    public static Connection connect(LedgerLocation location, int waitMs) throws SQLException {
        return storeOf(location, waitMs).connect();
    }

    private static LedgerStore storeOf(LedgerLocation location, int waitMs) {
        return location instanceof LedgerLocation.Postgres postgres
                ? new PostgresStore(postgres, waitMs)
                : new SqliteStore((LedgerLocation.SqliteFile) location, waitMs);
    }

    public String backendId() {
        return backendId;
    }

    /** Where this ledger lives; {@link LedgerLocation#describe()} is what may be printed. */
    public LedgerLocation location() {
        return store.location();
    }

    /** The file of a SQLite ledger. */
    public Path path() {
        if (store.location() instanceof LedgerLocation.SqliteFile file) {
            return file.path();
        }
        throw new IllegalStateException("the ledger is not a SQLite file: " + store.location().describe());
    }

    /**
     * Applies the atomic operation once (seed spec §5.2): ledger row, issue row and the {@code applied} transition
     * commit together or not at all. An identical request replays the stored result; a different binding conflicts,
     * and that check comes before the deadlines.
     */
    public ApplyResult applyIssueOnce(ApplyRequest request, FaultHook faultHook) throws SQLException {
        requireOwnBackend(request.identity());
        Pending mine = new Pending(request, faultHook);
        waiting.add(mine);
        synchronized (this) {
            // Whoever holds the lock commits every apply waiting by then: its own and the ones queued behind the
            // previous commit. Ours may already have been committed (and settled) by the holder before us.
            while (!mine.settled()) {
                commitTogether(takeWaiting());
            }
        }
        return mine.outcome();
    }

    /** The atomic apply's work inside an open write transaction: decides on the rows it reads there, then writes. */
    private ApplyResult applyAtomic(ApplyRequest request, FaultHook faultHook) throws SQLException {
        OperationIdentity identity = request.identity();
        OperationRecord row = findByOperationId(identity.operationId());
        if (row != null) {
            requireSameBinding(row, request);
            DeadlineRules.checkExisting(row, request.now());
            if (row.state() == OperationState.PARTIAL && row.effectId() != null) {
                return new ApplyResult(row.effectId(), row.result() != null ? row.result() : "partial", true,
                        OperationState.PARTIAL);
            }
            if (row.state() != OperationState.APPLIED || row.effectId() == null || row.result() == null) {
                throw inProgress(identity, row);
            }
            return new ApplyResult(row.effectId(), row.result(), true, OperationState.APPLIED);
        }
        DeadlineRules.admitNewAtomic(request.deadlines(), request.now());
        insertOperation(request);
        faultHook.reached(CutPoint.AFTER_LEDGER_INSERT);
        long effectId = insertIssue(request.title(), request.body());
        faultHook.reached(CutPoint.AFTER_ISSUE_INSERT);
        String result = "created " + effectId;
        finishOperation(identity, OperationState.APPLIED, effectId, result);
        return new ApplyResult(effectId, result, false, OperationState.APPLIED);
    }

    /** How many atomic applies are waiting for a commit now (tests use it to line a group up). */
    int waitingApplies() {
        return waiting.size();
    }

    /** Write transactions this instance has committed so far. */
    synchronized long commits() {
        return commits;
    }

    /** Up to {@link #MAX_GROUP} atomic applies waiting for a commit, oldest first. Called with the lock held. */
    private List<Pending> takeWaiting() {
        List<Pending> group = new ArrayList<>();
        for (Pending next; group.size() < MAX_GROUP && (next = waiting.poll()) != null; ) {
            group.add(next);
        }
        return group;
    }

    /**
     * Group commit: runs {@code group}'s applies in one write transaction, each inside its own savepoint, and settles
     * every member only after the {@code COMMIT} that holds its work returned (so it is durable, as for one apply).
     * A member's refusal (conflict, in progress, expired, invalid) rolls back to its savepoint and is its answer
     * alone. Any other failure of a member (a storage error inside its statements, a cut point that throws) rolls
     * the whole transaction back, is that member's answer, and the others run again without it. A failure of the
     * transaction itself ({@code BEGIN}, {@code COMMIT}, a lost session) is every member's answer: none is told it
     * committed. A group of one runs exactly as a single apply always did, without savepoints. Called with the lock
     * held; every member is settled when it returns.
     */
    private void commitTogether(List<Pending> group) {
        List<Pending> left = new ArrayList<>(group);
        try {
            while (!left.isEmpty()) {
                try {
                    if (left.size() == 1) {
                        Pending only = left.get(0);
                        only.settle(immediate(() -> applyAtomic(only.request, only.faultHook)), null);
                    } else {
                        List<Object> outcomes = immediate(() -> applyEach(left));
                        for (int i = 0; i < left.size(); i++) {
                            Object outcome = outcomes.get(i);
                            left.get(i).settle(outcome instanceof ApplyResult result ? result : null,
                                    outcome instanceof Throwable refusal ? refusal : null);
                        }
                    }
                    left.clear();
                } catch (MemberFailed failed) {
                    failed.member.settle(null, failed.getCause());
                    left.remove(failed.member);
                } catch (SQLException | RuntimeException | Error failure) {
                    for (Pending member : left) {
                        member.settle(null, left.size() == 1 ? failure : copyFor(failure));
                    }
                    left.clear();
                }
            }
        } finally {
            for (Pending member : group) {
                if (!member.settled()) {
                    member.settle(null, new SQLException("the ledger stopped before this apply was committed"));
                }
            }
        }
    }

    /** The members' applies in the open transaction, each in a savepoint; a refusal is its member's outcome. */
    private List<Object> applyEach(List<Pending> members) throws SQLException {
        List<Object> outcomes = new ArrayList<>(members.size());
        for (Pending member : members) {
            statement(SAVEPOINT).execute();
            Object outcome;
            try {
                outcome = applyAtomic(member.request, member.faultHook);
            } catch (OperationRejected | IllegalArgumentException refusal) {
                // the rules refused it; whatever it wrote before (nothing, today) goes, the others' work stays
                statement(ROLLBACK_TO_SAVEPOINT).execute();
                outcome = refusal;
            } catch (SQLException e) {
                if (store.lostARace(e) || store.sessionLost(e, connection)) {
                    throw e; // the transaction's, not the member's: run again, or every member's error
                }
                throw new MemberFailed(member, e);
            } catch (RuntimeException | Error e) {
                throw new MemberFailed(member, e);
            }
            statement(RELEASE_SAVEPOINT).execute();
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /** Each member gets its own exception object (same text and SQLState), so no two threads share one. */
    private static Throwable copyFor(Throwable failure) {
        if (failure instanceof SQLException e) {
            return new SQLException(e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
        return failure;
    }

    /** A member's own failure inside a group: the transaction is rolled back and the member leaves the group. */
    private static final class MemberFailed extends RuntimeException {
        final transient Pending member;

        MemberFailed(Pending member, Throwable cause) {
            super(cause.getMessage(), cause, false, false);
            this.member = member;
        }
    }

    /**
     * One atomic apply waiting for its commit. Its fields are written by whichever thread holds the ledger's lock and
     * read by its own thread after taking that lock itself, so the lock orders them.
     */
    private static final class Pending {
        final ApplyRequest request;
        final FaultHook faultHook;
        private boolean settled;
        private ApplyResult result;
        private Throwable failure;

        Pending(ApplyRequest request, FaultHook faultHook) {
            this.request = request;
            this.faultHook = faultHook;
        }

        boolean settled() {
            return settled;
        }

        void settle(ApplyResult result, Throwable failure) {
            this.settled = true;
            this.result = result;
            this.failure = failure;
        }

        ApplyResult outcome() throws SQLException {
            if (failure instanceof SQLException e) {
                throw e;
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (result == null) {
                throw new IllegalStateException("an apply was settled without an outcome");
            }
            return result;
        }
    }

    /**
     * The bounded multi-step operation of case 12 (seed spec §5.3): the first effect commits durably on its own, then
     * the watcher step and, if it fails, the compensation step each run in their own transaction with step events.
     * A compensation never deletes the first effect; the operation then stays {@code partial}.
     */
    public synchronized ApplyResult applyPartialIssueOnce(ApplyRequest request, PartialSteps steps, FaultHook faultHook)
            throws SQLException {
        OperationIdentity identity = request.identity();
        requireOwnBackend(identity);
        ApplyResult first = immediate(() -> {
            OperationRecord row = findByOperationId(identity.operationId());
            if (row != null) {
                requireSameBinding(row, request);
                DeadlineRules.checkExisting(row, request.now());
                if (!row.state().settled() || row.effectId() == null) {
                    throw inProgress(identity, row);
                }
                return new ApplyResult(row.effectId(), row.result() != null ? row.result() : "partial", true, row.state());
            }
            DeadlineRules.admitNewPartial(request.deadlines(), request.now());
            insertOperation(request);
            long effectId = insertIssue(request.title(), request.body());
            PreparedStatement update = statement(SET_EFFECT);
            update.setLong(1, effectId);
            update.setString(2, wallClock());
            bindIdentity(update, 3, identity);
            update.executeUpdate();
            return new ApplyResult(effectId, null, false, OperationState.IN_PROGRESS);
        });
        if (first.replayed()) {
            return first;
        }
        long effectId = first.effectId();
        faultHook.reached(CutPoint.AFTER_PARTIAL_FIRST_COMMIT);
        String operationId = identity.operationId();

        recordEvent(operationId, "watcher", "attempted", null);
        try {
            return immediate(() -> {
                steps.watcherStep().apply(connection, effectId, steps.watcher());
                insertEvent(operationId, "watcher", "succeeded", null);
                String result = "created " + effectId + " with watcher";
                finishOperation(identity, OperationState.APPLIED, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.APPLIED);
            });
        } catch (Exception watcherFailure) {
            recordEvent(operationId, "watcher", "failed", errorType(watcherFailure));
        }

        recordEvent(operationId, "rollback_issue", "attempted", null);
        try {
            return immediate(() -> {
                steps.compensationStep().apply(connection, effectId);
                insertEvent(operationId, "rollback_issue", "succeeded", null);
                insertCompensation(effectId, "rollback_issue", "succeeded");
                String result = "partial " + effectId + "; watcher failed; rollback succeeded";
                finishOperation(identity, OperationState.PARTIAL, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.PARTIAL);
            });
        } catch (Exception compensationFailure) {
            String type = errorType(compensationFailure);
            return immediate(() -> {
                insertEvent(operationId, "rollback_issue", "failed", type);
                insertCompensation(effectId, "rollback_issue", "failed:" + type);
                String result = "partial " + effectId + "; watcher failed; rollback failed";
                finishOperation(identity, OperationState.PARTIAL, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.PARTIAL);
            });
        }
    }

    /**
     * The raw, deliberately non-idempotent write of the unguarded control: every call is a new issue. It exists to
     * witness what the guard prevents.
     */
    public synchronized long createIssue(String title, String body) throws SQLException {
        return immediate(() -> insertIssue(title, body));
    }

    /** The row bound to exactly this identity (all three parts), if any. */
    public synchronized Optional<OperationRecord> operationRecord(OperationIdentity identity) throws SQLException {
        return readOnce(() -> {
            PreparedStatement select = statement(FIND_BY_IDENTITY);
            bindIdentity(select, 1, identity);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(readRecord(row)) : Optional.empty();
            } catch (SQLException | RuntimeException | Error e) {
                forgetStatements(e);
                throw e;
            }
        });
    }

    public synchronized Optional<Issue> issue(long id) throws SQLException {
        List<Issue> issues = readOnce(() -> issues(connection, "SELECT id, title, body FROM issues WHERE id = ?", id));
        return issues.isEmpty() ? Optional.empty() : Optional.of(issues.get(0));
    }

    @Override
    public synchronized void close() throws SQLException {
        try {
            for (PreparedStatement statement : statements.values()) {
                statement.close();
            }
            statements.clear();
        } finally {
            connection.close();
        }
    }

    /**
     * Runs a read on this ledger's connection, under the same lock as the writes: {@link LedgerQueries} reads through
     * here, so a reader and a writer on one instance never interleave on the connection.
     */
    synchronized <T> T read(SqlRead<T> read) throws SQLException {
        return readOnce(() -> read.run(connection));
    }

    /**
     * Runs a read (no writes, outside any transaction) on the session, opening a new session first if the last one
     * was lost; a read that meets a session lost only now runs once more on a new one, since reading changes nothing.
     */
    private <T> T readOnce(SqlWork<T> read) throws SQLException {
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

    @FunctionalInterface
    interface SqlRead<T> {
        T run(Connection connection) throws SQLException;
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
    private PreparedStatement statement(String sql) throws SQLException {
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
    private void forgetStatements(Throwable cause) {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException closeFailure) {
                cause.addSuppressed(closeFailure);
            }
        }
        statements.clear();
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    private void rollbackQuietly(Throwable cause) {
        forgetStatements(cause);
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    private void recordEvent(String operationId, String step, String outcome, String errorType) throws SQLException {
        immediate(() -> {
            insertEvent(operationId, step, outcome, errorType);
            return null;
        });
    }

    private void requireOwnBackend(OperationIdentity identity) {
        if (!identity.backend().equals(backendId)) {
            throw new OperationConflict("operation backend '" + identity.backend() + "' does not match '" + backendId + "'");
        }
    }

    private static OperationInProgress inProgress(OperationIdentity identity, OperationRecord row) {
        return new OperationInProgress("operation '" + identity.operationId() + "' is " + row.state().stored());
    }

    private static void requireSameBinding(OperationRecord row, ApplyRequest request) {
        OperationIdentity identity = request.identity();
        if (!row.identity().principal().equals(identity.principal())
                || !row.identity().backend().equals(identity.backend())
                || !row.requestFingerprint().equals(request.fingerprint())) {
            throw new OperationConflict(CONFLICT);
        }
    }

    /** Operation ids form one namespace: apply looks rows up by id alone, so another principal's id conflicts. */
    private OperationRecord findByOperationId(String operationId) throws SQLException {
        PreparedStatement select = statement(store.findByOperationIdSql());
        select.setString(1, operationId);
        try (ResultSet row = select.executeQuery()) {
            return row.next() ? readRecord(row) : null;
        }
    }

    private void insertOperation(ApplyRequest request) throws SQLException {
        Deadlines deadlines = request.deadlines();
        // the seed's effective issued_at: the state's own, else the clock reading, else 0.0 for an unclocked request
        double issuedAt = deadlines.issuedAt() != null ? deadlines.issuedAt() : request.now().orElse(0.0);
        String stamp = wallClock();
        PreparedStatement insert = statement(INSERT_OPERATION);
        bindIdentity(insert, 1, request.identity());
        insert.setString(4, request.fingerprint());
        insert.setString(5, OperationState.IN_PROGRESS.stored());
        insert.setDouble(6, issuedAt);
        setNullableDouble(insert, 7, deadlines.authorityExpiresAt());
        setNullableDouble(insert, 8, deadlines.replayExpiresAt());
        insert.setString(9, stamp);
        insert.setString(10, stamp);
        insert.executeUpdate();
    }

    private long insertIssue(String title, String body) throws SQLException {
        PreparedStatement insert = statement(store.insertIssueSql());
        insert.setString(1, title);
        insert.setString(2, body);
        String insertedId = store.insertedIdSql();
        if (insertedId != null) {
            insert.executeUpdate();
        }
        try (ResultSet row = insertedId == null ? insert.executeQuery() : statement(insertedId).executeQuery()) {
            if (!row.next()) {
                throw new SQLException("inserting an issue returned no id");
            }
            return row.getLong(1);
        }
    }

    private void finishOperation(OperationIdentity identity, OperationState state, long effectId, String result)
            throws SQLException {
        PreparedStatement update = statement(FINISH_OPERATION);
        update.setString(1, state.stored());
        update.setLong(2, effectId);
        update.setString(3, result);
        update.setString(4, wallClock());
        bindIdentity(update, 5, identity);
        update.executeUpdate();
    }

    private void insertEvent(String operationId, String step, String outcome, String errorType) throws SQLException {
        PreparedStatement insert = statement(INSERT_EVENT);
        insert.setString(1, operationId);
        insert.setString(2, step);
        insert.setString(3, outcome);
        insert.setString(4, errorType);
        insert.setString(5, wallClock());
        insert.executeUpdate();
    }

    private void insertCompensation(long issueId, String kind, String outcome) throws SQLException {
        PreparedStatement insert = statement(INSERT_COMPENSATION);
        insert.setLong(1, issueId);
        insert.setString(2, kind);
        insert.setString(3, outcome);
        insert.executeUpdate();
    }

    /** Issues selected by one bound parameter; the writer and {@link LedgerQueries} share the row mapping. */
    static List<Issue> issues(Connection connection, String sql, Object parameter) throws SQLException {
        List<Issue> issues = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, parameter);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    issues.add(new Issue(row.getLong(1), row.getString(2), row.getString(3)));
                }
            }
        }
        return issues;
    }

    private static OperationRecord readRecord(ResultSet row) throws SQLException {
        long effect = row.getLong("effect_id");
        Long effectId = row.wasNull() ? null : effect;
        return new OperationRecord(
                new OperationIdentity(row.getString("operation_id"), row.getString("principal"), row.getString("backend")),
                row.getString("request_fingerprint"),
                stateOf(row),
                effectId,
                row.getString("result"),
                nullableDouble(row, "issued_at") == null ? 0.0 : nullableDouble(row, "issued_at"),
                nullableDouble(row, "authority_expires_at"),
                nullableDouble(row, "replay_expires_at"),
                row.getString("created_at"),
                row.getString("updated_at"));
    }

    private static OperationState stateOf(ResultSet row) throws SQLException {
        String stored = row.getString("state");
        Optional<OperationState> state = OperationState.fromStored(stored);
        if (state.isEmpty()) {
            // a storage fault, not a bad request: the schema's CHECK admits only the three states
            throw new SQLDataException("operation '" + row.getString("operation_id") + "' has state '" + stored
                    + "', which is none of in_progress, applied, partial");
        }
        return state.get();
    }

    private static Double nullableDouble(ResultSet row, String column) throws SQLException {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
    }

    private static void setNullableDouble(PreparedStatement statement, int index, Double value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.REAL);
        } else {
            statement.setDouble(index, value);
        }
    }

    private static void bindIdentity(PreparedStatement statement, int first, OperationIdentity identity) throws SQLException {
        statement.setString(first, identity.operationId());
        statement.setString(first + 1, identity.principal());
        statement.setString(first + 2, identity.backend());
    }

    private static String errorType(Exception e) {
        return e.getClass().getSimpleName();
    }

    private static String wallClock() {
        return OffsetDateTime.now(ZoneOffset.UTC).format(WALL_CLOCK);
    }
}
