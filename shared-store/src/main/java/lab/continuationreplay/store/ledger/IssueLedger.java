package lab.continuationreplay.store.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;

/**
 * The operation ledger and its deliberately non-idempotent effect ({@code issues}) (seed spec §5), in a SQLite file or
 * a PostgreSQL database ({@link LedgerStore}, chosen by {@link LedgerLocation}). The rules are written here once for
 * both. Every write runs in one transaction that orders concurrent writers of an operation ({@code BEGIN IMMEDIATE}
 * on SQLite; on PostgreSQL the operation's advisory lock at {@code READ COMMITTED}, see {@link PostgresStore}), so
 * writers in separate processes are ordered by the database and the loser sees the winner's committed row; where the database detects a lost race only at a statement or at COMMIT
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
 *
 * <p>In parts: the rules are here; {@link LedgerSession} is the session (transactions, runs again, reconnects, the
 * statement cache), {@link GroupCommit} the shared transaction, {@link LedgerRows} the SQL of each row and its mapping,
 * and {@link LedgerStore} what differs between SQLite and PostgreSQL.
 */
public final class IssueLedger implements AutoCloseable {
    public static final int DEFAULT_BUSY_TIMEOUT_MS = 5000;
    static final String CONFLICT = "operation_id is already bound to a different principal, backend, or request fingerprint";
    /** How often a transaction that lost a race the database detected is run again before the failure is final. */
    static final int MAX_RUNS = LedgerSession.MAX_RUNS;
    /** The most atomic applies one transaction holds (group commit); more wait for the next. */
    static final int MAX_GROUP = GroupCommit.MAX_GROUP;

    private final String backendId;
    private final LedgerStore store;
    /** Guarded by this instance's lock, as everything below it. */
    private final LedgerSession session;
    private final LedgerRows rows;
    private final GroupCommit group;

    private IssueLedger(Connection connection, String backendId, LedgerStore store) {
        this.backendId = backendId;
        this.store = store;
        this.session = new LedgerSession(store, connection);
        this.rows = new LedgerRows(session);
        this.group = new GroupCommit(session, this::applyAtomic);
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
            ledger.session.immediate(() -> {
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
        GroupCommit.Pending mine = group.enqueue(request, faultHook);
        synchronized (this) {
            return group.commit(mine);
        }
    }

    /** The atomic apply's work inside an open write transaction: decides on the rows it reads there, then writes. */
    private ApplyResult applyAtomic(ApplyRequest request, FaultHook faultHook) throws SQLException {
        if (faultHook == FaultHook.NONE && store.applyAtomicSql() != null) {
            return applyAtomicInOneCall(request);
        }
        OperationIdentity identity = request.identity();
        OperationRecord row = rows.findByOperationId(identity.operationId());
        if (row != null) {
            return replayOf(row, request);
        }
        DeadlineRules.admitNewAtomic(request.deadlines(), request.now());
        rows.insertOperation(request);
        faultHook.reached(CutPoint.AFTER_LEDGER_INSERT);
        long effectId = rows.insertIssue(request.title(), request.body());
        faultHook.reached(CutPoint.AFTER_ISSUE_INSERT);
        String result = "created " + effectId;
        rows.finishOperation(identity, OperationState.APPLIED, effectId, result);
        return new ApplyResult(effectId, result, false, OperationState.APPLIED);
    }

    /**
     * The same rules with the reads and writes in the store's one call: whether a new operation would be admitted is
     * known from the request alone, so it is decided first and its refusal thrown only when no row exists (the binding
     * check still comes before the deadlines). Only an unarmed apply takes it: the cut points are statement boundaries,
     * so a process armed with one (the fault lab's crash servers) applies statement by statement and halts where the
     * cut point says. A crash during the call or before its COMMIT leaves nothing of the operation, as at a cut point.
     */
    private ApplyResult applyAtomicInOneCall(ApplyRequest request) throws SQLException {
        RuntimeException refusal = null;
        try {
            DeadlineRules.admitNewAtomic(request.deadlines(), request.now());
        } catch (RuntimeException notAdmitted) {
            refusal = notAdmitted;
        }
        LedgerRows.AtomicCall call = rows.applyAtomicInOneCall(request, refusal == null);
        if (call.row() == null) {
            if (refusal == null) {
                throw new SQLException("the ledger's apply call answered no row for an admitted operation");
            }
            throw refusal;
        }
        if (!call.created()) {
            return replayOf(call.row(), request);
        }
        return new ApplyResult(call.row().effectId(), call.row().result(), false, OperationState.APPLIED);
    }

    /** An existing row of the operation id: a replay of its settled result, or a conflict, an expiry, in progress. */
    private static ApplyResult replayOf(OperationRecord row, ApplyRequest request) {
        requireSameBinding(row, request);
        DeadlineRules.checkExisting(row, request.now());
        if (row.state() == OperationState.PARTIAL && row.effectId() != null) {
            return new ApplyResult(row.effectId(), row.result() != null ? row.result() : "partial", true,
                    OperationState.PARTIAL);
        }
        if (row.state() != OperationState.APPLIED || row.effectId() == null || row.result() == null) {
            throw inProgress(request.identity(), row);
        }
        return new ApplyResult(row.effectId(), row.result(), true, OperationState.APPLIED);
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
        ApplyResult first = session.immediate(() -> firstEffect(request));
        if (first.replayed()) {
            return first;
        }
        long effectId = first.effectId();
        faultHook.reached(CutPoint.AFTER_PARTIAL_FIRST_COMMIT);
        String operationId = identity.operationId();

        recordEvent(operationId, "watcher", "attempted", null);
        try {
            return session.immediate(() -> {
                steps.watcherStep().apply(session.connection(), effectId, steps.watcher());
                rows.insertEvent(operationId, "watcher", "succeeded", null);
                String result = "created " + effectId + " with watcher";
                rows.finishOperation(identity, OperationState.APPLIED, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.APPLIED);
            });
        } catch (Exception watcherFailure) {
            recordEvent(operationId, "watcher", "failed", errorType(watcherFailure));
        }

        recordEvent(operationId, "rollback_issue", "attempted", null);
        try {
            return session.immediate(() -> {
                steps.compensationStep().apply(session.connection(), effectId);
                rows.insertEvent(operationId, "rollback_issue", "succeeded", null);
                rows.insertCompensation(effectId, "rollback_issue", "succeeded");
                String result = "partial " + effectId + "; watcher failed; rollback succeeded";
                rows.finishOperation(identity, OperationState.PARTIAL, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.PARTIAL);
            });
        } catch (Exception compensationFailure) {
            String type = errorType(compensationFailure);
            return session.immediate(() -> {
                rows.insertEvent(operationId, "rollback_issue", "failed", type);
                rows.insertCompensation(effectId, "rollback_issue", "failed:" + type);
                String result = "partial " + effectId + "; watcher failed; rollback failed";
                rows.finishOperation(identity, OperationState.PARTIAL, effectId, result);
                return new ApplyResult(effectId, result, false, OperationState.PARTIAL);
            });
        }
    }

    /** Case 12's first transaction: a replay of a settled operation, or the new operation and its first effect. */
    private ApplyResult firstEffect(ApplyRequest request) throws SQLException {
        OperationIdentity identity = request.identity();
        OperationRecord row = rows.findByOperationId(identity.operationId());
        if (row != null) {
            requireSameBinding(row, request);
            DeadlineRules.checkExisting(row, request.now());
            if (!row.state().settled() || row.effectId() == null) {
                throw inProgress(identity, row);
            }
            return new ApplyResult(row.effectId(), row.result() != null ? row.result() : "partial", true, row.state());
        }
        DeadlineRules.admitNewPartial(request.deadlines(), request.now());
        rows.insertOperation(request);
        long effectId = rows.insertIssue(request.title(), request.body());
        rows.setEffect(identity, effectId);
        return new ApplyResult(effectId, null, false, OperationState.IN_PROGRESS);
    }

    /**
     * The raw, deliberately non-idempotent write of the unguarded control: every call is a new issue. It exists to
     * witness what the guard prevents.
     */
    public synchronized long createIssue(String title, String body) throws SQLException {
        return session.immediate(() -> rows.insertIssue(title, body));
    }

    /** The row bound to exactly this identity (all three parts), if any. */
    public synchronized Optional<OperationRecord> operationRecord(OperationIdentity identity) throws SQLException {
        return session.read(() -> rows.findByIdentity(identity));
    }

    public synchronized Optional<Issue> issue(long id) throws SQLException {
        List<Issue> issues = session.read(() -> LedgerRows.issues(session.connection(), "SELECT id, title, body FROM issues WHERE id = ?", id));
        return issues.isEmpty() ? Optional.empty() : Optional.of(issues.get(0));
    }

    @Override
    public synchronized void close() throws SQLException {
        session.close();
    }

    /**
     * Runs a read on this ledger's connection, under the same lock as the writes: {@link LedgerQueries} reads through
     * here, so a reader and a writer on one instance never interleave on the connection.
     */
    synchronized <T> T read(SqlRead<T> read) throws SQLException {
        return session.read(() -> read.run(session.connection()));
    }

    @FunctionalInterface
    interface SqlRead<T> {
        T run(Connection connection) throws SQLException;
    }

    /** How many atomic applies are waiting for a commit now (tests use it to line a group up). */
    int waitingApplies() {
        return group.waiting();
    }

    /** Write transactions this instance has committed so far. */
    synchronized long commits() {
        return session.commits();
    }

    synchronized long reruns() {
        return session.reruns();
    }

    private void recordEvent(String operationId, String step, String outcome, String errorType) throws SQLException {
        session.immediate(() -> {
            rows.insertEvent(operationId, step, outcome, errorType);
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

    private static String errorType(Exception e) {
        return e.getClass().getSimpleName();
    }
}
