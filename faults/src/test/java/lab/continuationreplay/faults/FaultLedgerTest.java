package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault lab's ledgers on both stores: a server's environment, the rows read back (none before the ledger exists),
 * the evidence left on PostgreSQL, and a read that survives the database being killed and started again.
 */
class FaultLedgerTest {
    private static PostgresRunLedger run;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPostgres() throws Exception {
        run = PostgresRunLedger.embedded();
    }

    @AfterAll
    static void stopPostgres() {
        run.close();
    }

    @Test
    void onSqliteTheFileIsTheLedgerAndTheEnvironmentIsTheSettingsOwn() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        assertEquals(settings.environment(), FaultLedger.SQLITE.environment(settings));
        assertEquals("sqlite", FaultLedger.SQLITE.label());
        assertTrue(FaultLedger.SQLITE.postgres().isEmpty());
        assertEquals(0, FaultLedger.SQLITE.count(database, "issues"), "no file yet: no rows");
        apply(new LedgerLocation.SqliteFile(database), "one");
        assertEquals(1, FaultLedger.SQLITE.count(database, "issues"));
        FaultLedger.SQLITE.sealAll();
        assertFalse(Files.exists(FaultLedger.dumpOf(database)), "a SQLite file is its own evidence");
    }

    @Test
    void onPostgresEachNameIsItsOwnSchemaReadBackAndLeftAsItsRowsDump() throws Exception {
        try (FaultLedger ledger = FaultLedger.on(run)) {
            assertEquals("postgres", ledger.label());
            Path main = dir.resolve("main.sqlite3");
            Path other = dir.resolve("other.sqlite3");
            assertEquals(0, ledger.count(main, "issues"), "no schema yet: no rows");

            Map<String, String> environment = ledger.environment(WireSettings.matrix(main, "alice"));
            assertNull(environment.get(TrustedEnvironment.SERVER_DB), "the SQLite path is only a name on PostgreSQL");
            assertTrue(environment.get(TrustedEnvironment.LEDGER_URL).contains("currentSchema="), environment.toString());
            assertEquals(environment, ledger.environment(WireSettings.matrix(main, "alice")), "one name, one schema");
            assertEquals(0, ledger.count(main, "issues"), "a schema without tables: no rows");

            apply(new TrustedEnvironment(environment).ledger(), "one", "two");
            ledger.environment(WireSettings.matrix(other, "alice"));
            assertEquals(2, ledger.count(main, "issues"));
            assertEquals(0, ledger.count(other, "issues"), "the other name's schema sees none of them");
            assertEquals(List.of(Map.of("operation_id", "two", "state", "applied")),
                    ledger.rows(main, "SELECT operation_id, state FROM operations WHERE operation_id = ?", "two"));

            // the database killed and started again under the lab's reading session: the next read goes on
            run.server().orElseThrow().kill();
            run.server().orElseThrow().restart();
            assertEquals(2, ledger.count(main, "operations"));

            ledger.sealAll();
            Path dump = dir.resolve("main.rows.json");
            assertEquals(dump, FaultLedger.dumpOf(main));
            assertEquals(2, StoreRows.count(dump, "issues"), "the dump reads as the rows it holds");
            assertEquals(0, ledger.count(main, "issues"), "sealed: the schema is gone from the run");
            assertTrue(Files.exists(dir.resolve("other.rows.json")));
        }
    }

    @Test
    void aQueryOnAMissingTableIsAnErrorNotSilence() throws Exception {
        try (FaultLedger ledger = FaultLedger.on(run)) {
            Path database = dir.resolve("store.sqlite3");
            Map<String, String> environment = ledger.environment(WireSettings.matrix(database, "alice"));
            apply(new TrustedEnvironment(environment).ledger(), "one");
            assertThrows(SQLException.class, () -> ledger.count(database, "no_such_table"));
            assertEquals(1, ledger.count(database, "issues"), "and the next read still works");
        }
    }

    /** Applies each operation once, as a server would, on the ledger at {@code location}. */
    @Test
    void aSchemaThatCannotBeMadeIsAClearErrorNamingTheLedger() throws Exception {
        try (FaultLedger ledger = FaultLedger.on(run)) {
            run.server().orElseThrow().stop();
            try {
                java.io.IOException refused = assertThrows(java.io.IOException.class,
                        () -> ledger.environment(WireSettings.matrix(dir.resolve("late.sqlite3"), "alice")));
                assertTrue(refused.getMessage().startsWith("cannot make the PostgreSQL schema of late.sqlite3: "),
                        refused.getMessage());
            } finally {
                run.server().orElseThrow().restart();
            }
            ledger.environment(WireSettings.matrix(dir.resolve("late.sqlite3"), "alice"));
            assertEquals(0, ledger.count(dir.resolve("late.sqlite3"), "issues"), "made once the server is back");
        }
    }

    private static void apply(LedgerLocation location, String... operationIds) throws SQLException {
        try (IssueLedger ledger = IssueLedger.open(location, WireSettings.BACKEND)) {
            for (String operationId : operationIds) {
                ledger.applyIssueOnce(ApplyRequest.at(new OperationIdentity(operationId, "alice", WireSettings.BACKEND), "fp",
                        "t " + operationId, "b", Deadlines.of(100, 110, 120), 100.0), FaultHook.NONE);
            }
        }
    }
}
