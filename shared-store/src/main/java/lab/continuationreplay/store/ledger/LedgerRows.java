package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.store.OperationIdentity;

/**
 * The ledger's rows in SQL: each statement of the write path on the session's prepared statements (what differs between
 * the two databases comes from {@link LedgerStore}), and how a row becomes a record. It decides nothing: the rules
 * that choose which of these run are {@link IssueLedger}'s.
 */
final class LedgerRows {
    private static final DateTimeFormatter WALL_CLOCK = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx");
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

    private final LedgerSession session;

    LedgerRows(LedgerSession session) {
        this.session = session;
    }

    /** Operation ids form one namespace: apply looks rows up by id alone, so another principal's id conflicts. */
    OperationRecord findByOperationId(String operationId) throws SQLException {
        String lock = session.store().lockOperationSql();
        if (lock != null) {
            // a statement of its own: the read below must see what the lock's last holder committed
            PreparedStatement claim = session.statement(lock);
            claim.setString(1, operationId);
            claim.execute();
        }
        PreparedStatement select = session.statement(session.store().findByOperationIdSql());
        select.setString(1, operationId);
        try (ResultSet row = select.executeQuery()) {
            return row.next() ? readRecord(row) : null;
        }
    }

    /** The row bound to exactly this identity (all three parts), if any. */
    Optional<OperationRecord> findByIdentity(OperationIdentity identity) throws SQLException {
        PreparedStatement select = session.statement(FIND_BY_IDENTITY);
        bindIdentity(select, 1, identity);
        try (ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(readRecord(row)) : Optional.empty();
        } catch (SQLException | RuntimeException | Error e) {
            session.forgetStatements(e);
            throw e;
        }
    }

    void insertOperation(ApplyRequest request) throws SQLException {
        Deadlines deadlines = request.deadlines();
        double issuedAt = effectiveIssuedAt(request);
        String stamp = wallClock();
        PreparedStatement insert = session.statement(INSERT_OPERATION);
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

    /** What {@link #applyAtomicInOneCall} found or made: the row (null: none, and none admitted), and whether it is new. */
    record AtomicCall(OperationRecord row, boolean created) {}

    /** The atomic apply's reads and writes as the store's one statement ({@link LedgerStore#applyAtomicSql}). */
    AtomicCall applyAtomicInOneCall(ApplyRequest request, boolean admitted) throws SQLException {
        Deadlines deadlines = request.deadlines();
        double issuedAt = effectiveIssuedAt(request);
        PreparedStatement call = session.statement(session.store().applyAtomicSql());
        bindIdentity(call, 1, request.identity());
        call.setString(4, request.fingerprint());
        call.setDouble(5, issuedAt);
        setNullableDouble(call, 6, deadlines.authorityExpiresAt());
        setNullableDouble(call, 7, deadlines.replayExpiresAt());
        call.setString(8, wallClock());
        call.setString(9, request.title());
        call.setString(10, request.body());
        call.setBoolean(11, admitted);
        try (ResultSet row = call.executeQuery()) {
            return row.next() ? new AtomicCall(readRecord(row), row.getBoolean("created")) : new AtomicCall(null, false);
        }
    }

    long insertIssue(String title, String body) throws SQLException {
        LedgerStore store = session.store();
        PreparedStatement insert = session.statement(store.insertIssueSql());
        insert.setString(1, title);
        insert.setString(2, body);
        String insertedId = store.insertedIdSql();
        if (insertedId != null) {
            insert.executeUpdate();
        }
        try (ResultSet row = insertedId == null ? insert.executeQuery() : session.statement(insertedId).executeQuery()) {
            if (!row.next()) {
                throw new SQLException("inserting an issue returned no id");
            }
            return row.getLong(1);
        }
    }

    /** Case 12's first effect: its issue named on the operation before the operation is settled. */
    void setEffect(OperationIdentity identity, long effectId) throws SQLException {
        PreparedStatement update = session.statement(SET_EFFECT);
        update.setLong(1, effectId);
        update.setString(2, wallClock());
        bindIdentity(update, 3, identity);
        update.executeUpdate();
    }

    void finishOperation(OperationIdentity identity, OperationState state, long effectId, String result) throws SQLException {
        PreparedStatement update = session.statement(FINISH_OPERATION);
        update.setString(1, state.stored());
        update.setLong(2, effectId);
        update.setString(3, result);
        update.setString(4, wallClock());
        bindIdentity(update, 5, identity);
        update.executeUpdate();
    }

    void insertEvent(String operationId, String step, String outcome, String errorType) throws SQLException {
        PreparedStatement insert = session.statement(INSERT_EVENT);
        insert.setString(1, operationId);
        insert.setString(2, step);
        insert.setString(3, outcome);
        insert.setString(4, errorType);
        insert.setString(5, wallClock());
        insert.executeUpdate();
    }

    void insertCompensation(long issueId, String kind, String outcome) throws SQLException {
        PreparedStatement insert = session.statement(INSERT_COMPENSATION);
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

    /** The seed's effective issued_at: the state's own, else the clock reading, else 0.0 for an unclocked request. */
    private static double effectiveIssuedAt(ApplyRequest request) {
        Double own = request.deadlines().issuedAt();
        return own != null ? own : request.now().orElse(0.0);
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

    private static String wallClock() {
        return OffsetDateTime.now(ZoneOffset.UTC).format(WALL_CLOCK);
    }
}
