package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.id;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.jdbc;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The state column keeps the seed's text; the enum exists only in Java, and an unknown text is a storage fault. */
class OperationStateTest extends FreshLedger {
    @Test
    void storedTextsAreTheSeedsAndMapBothWays() {
        assertEquals(List.of("in_progress", "applied", "partial"),
                Arrays.stream(OperationState.values()).map(OperationState::stored).toList());
        for (OperationState state : OperationState.values()) {
            assertEquals(Optional.of(state), OperationState.fromStored(state.stored()));
        }
        assertEquals(Optional.empty(), OperationState.fromStored("APPLIED"));
        assertEquals(Optional.empty(), OperationState.fromStored("unknown"));
        assertEquals(Optional.empty(), OperationState.fromStored(""));
        assertEquals(Optional.empty(), OperationState.fromStored(null));
    }

    @Test
    void theDatabaseHoldsTheLowercaseText() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("a"), "fp", "T", "B"), FaultHook.NONE);
        ledger.applyPartialIssueOnce(ApplyRequest.unbounded(id("p"), "fp", "T", "B"), PartialSteps.injectedFailures(),
                FaultHook.NONE);
        assertEquals(List.of(Map.of("state", "applied"), Map.of("state", "partial")),
                rows(location, "SELECT state FROM operations ORDER BY operation_id"));
    }

    @Test
    void theSchemaAdmitsExactlyTheEnumsTexts() throws Exception {
        try (Connection connection = jdbc(location)) {
            for (OperationState state : OperationState.values()) {
                insertRaw(connection, "op-" + state.stored(), state.stored());
            }
            SQLException refused = assertThrows(SQLException.class, () -> insertRaw(connection, "op-x", "done"));
            String expected = kind == LedgerKind.SQLITE ? "CHECK constraint failed" : "violates check constraint";
            assertEquals(true, refused.getMessage().contains(expected), refused.getMessage());
        }
    }

    @Test
    void anUnknownStoredStateIsAStorageFaultNamingTheValue() throws Exception {
        ledger.applyIssueOnce(ApplyRequest.unbounded(id("op"), "fp", "T", "B"), FaultHook.NONE);
        // only a file written around the schema's CHECK can hold it; a storage fault, not a request the caller can fix
        try (Connection connection = jdbc(location); Statement statement = connection.createStatement()) {
            statement.execute(kind == LedgerKind.SQLITE ? "PRAGMA ignore_check_constraints = ON"
                    : "ALTER TABLE operations DROP CONSTRAINT operations_state_check");
            statement.execute("UPDATE operations SET state = 'done'");
        }
        String message = "operation 'op' has state 'done', which is none of in_progress, applied, partial";
        assertEquals(message, assertThrows(SQLDataException.class, () -> ledger.operationRecord(id("op"))).getMessage());
        assertEquals(message, assertThrows(SQLDataException.class,
                () -> ledger.applyIssueOnce(ApplyRequest.unbounded(id("op"), "fp", "T", "B"),
                FaultHook.NONE)).getMessage());
        assertEquals(1, queries().issueCount());
    }

    private static void insertRaw(Connection connection, String operationId, String state) throws SQLException {
        try (var insert = connection.prepareStatement("""
                INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at, updated_at)
                VALUES (?, 'alice', 'sqlite:test', 'fp', ?, 'now', 'now')""")) {
            insert.setString(1, operationId);
            insert.setString(2, state);
            insert.executeUpdate();
        }
    }
}
