package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.postgres.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is PostgreSQL's own in the schema and the session: the columns' types, the backend binding, a refused login. */
class PostgresSchemaTest {
    @TempDir
    Path dir;

    @Test
    void theTablesHaveTheSeedsColumnsInPostgresTypesAndTheSessionCommitsDurably() throws Exception {
        LedgerLocation location = LedgerKind.POSTGRES.fresh(dir);
        try (IssueLedger ledger = IssueLedger.open(location, "A")) {
            // the ledger's own session: commits wait for the WAL flush, on a server that fsyncs
            assertEquals(List.of("on", "on"), ledger.read(connection -> {
                try (var statement = connection.createStatement(); var value = statement.executeQuery(
                        "SELECT current_setting('synchronous_commit'), current_setting('fsync')")) {
                    value.next();
                    return List.of(value.getString(1), value.getString(2));
                }
            }));
        }
        assertEquals(List.of(
                Map.of("c", "operation_id", "t", "text"), Map.of("c", "principal", "t", "text"),
                Map.of("c", "backend", "t", "text"), Map.of("c", "request_fingerprint", "t", "text"),
                Map.of("c", "state", "t", "text"), Map.of("c", "effect_id", "t", "bigint"), Map.of("c", "result", "t", "text"),
                Map.of("c", "issued_at", "t", "double precision"), Map.of("c", "authority_expires_at", "t", "double precision"),
                Map.of("c", "replay_expires_at", "t", "double precision"), Map.of("c", "created_at", "t", "text"),
                Map.of("c", "updated_at", "t", "text")), rows(location, """
                SELECT column_name AS c, data_type AS t FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'operations' ORDER BY ordinal_position"""));
        assertEquals(List.of(Map.of("k", "operation_id,principal,backend")), rows(location, """
                SELECT string_agg(a.attname, ',' ORDER BY k.n) AS k FROM pg_index i
                CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = 'operations'::regclass AND i.indisprimary"""));
    }

    @Test
    void anotherBackendIsRefusedAndTheSchemaStaysUsable() throws Exception {
        LedgerLocation location = LedgerKind.POSTGRES.fresh(dir);
        IssueLedger.open(location, "A").close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IssueLedger.open(location, "B"));
        assertEquals("database is bound to backend_id 'A', not 'B'", e.getMessage());
        try (IssueLedger ledger = IssueLedger.open(location, "A")) {
            assertEquals(new ApplyResult(1, "created 1", false, OperationState.APPLIED),
                    ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity("op", "alice", "A"), "fp", "t", "b"),
                    FaultHook.NONE));
        }
    }

    @Test
    void aWrongPasswordIsRefusedNamingTheLedgerAndNotThePassword() throws Exception {
        LedgerLocation.Postgres real = TestPostgres.freshLedger();
        String wrong = "not-the-password-".repeat(3);
        LedgerLocation.Postgres location = new LedgerLocation.Postgres(real.url(), real.user(),
                wrong.getBytes(StandardCharsets.UTF_8));
        SQLException refused = assertThrows(SQLException.class, () -> IssueLedger.open(location, "A"));
        assertTrue(refused.getMessage().startsWith("cannot connect to the ledger " + real.url() + " as lab: "),
                refused.getMessage());
        assertEquals("28P01", refused.getSQLState());
        assertFalse(refused.getMessage().contains(wrong));
        assertFalse(location.toString().contains(wrong));
    }
}
