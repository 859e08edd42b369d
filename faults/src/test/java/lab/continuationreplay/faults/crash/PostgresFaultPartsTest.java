package lab.continuationreplay.faults.crash;

import lab.continuationreplay.faults.secrets.SecretsScanExperiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault lab's own parts for PostgreSQL: the database killer, and the password the secrets scan looks for. */
class PostgresFaultPartsTest {
    @TempDir
    Path dir;

    @Test
    void theDatabaseKillerKillsAtItsChosenOperationsAndRestartsAndSaysWhenItCannot() throws Exception {
        EmbeddedPostgres server = EmbeddedPostgres.start(PostgresRunLedger.EXEC);
        try {
            try (DatabaseKiller killer = new DatabaseKiller(server, new Random(5), 12, 2, how -> { })) {
                for (int i = 0; i < 12; i++) {
                    killer.maybeDuring(i);
                }
                killer.awaitUp();
                assertEquals(2, killer.kills());
                assertEquals(List.of(), killer.failures());
            }
            assertTrue(server.running());
            try (Connection session = server.connect(EmbeddedPostgres.DATABASE)) {
                assertTrue(session.isValid(5), "the server serves again after its kills");
            }
        } finally {
            server.close();
        }
        // a server that is gone: neither the kill nor the restart can work, and both are reported, not swallowed
        try (DatabaseKiller killer = new DatabaseKiller(server, new Random(5), 12, 1, how -> { })) {
            for (int i = 0; i < 12; i++) {
                killer.maybeDuring(i);
            }
            killer.awaitUp();
            assertEquals(0, killer.kills());
            assertEquals(List.of("killing the database failed: java.lang.IllegalStateException: PostgreSQL is not running",
                    "the database did not start again after a kill: java.lang.IllegalStateException: the cluster of this"
                            + " server was removed (closed)"), killer.failures());
        }
    }

    @Test
    void theLedgerPasswordIsReadAsTheServersReadItFromTheFileOrTheVariable() throws Exception {
        Path file = Files.writeString(dir.resolve("password"), "a".repeat(64) + "\r\n\n");
        assertArrayEquals("a".repeat(64).getBytes(StandardCharsets.UTF_8),
                SecretsScanExperiment.ledgerPassword(Map.of(TrustedEnvironment.LEDGER_PASSWORD_FILE, file.toString())));
        assertArrayEquals("b".repeat(40).getBytes(StandardCharsets.UTF_8),
                SecretsScanExperiment.ledgerPassword(Map.of(TrustedEnvironment.LEDGER_PASSWORD, "b".repeat(40))));
        assertThrows(IllegalStateException.class, () -> SecretsScanExperiment.ledgerPassword(Map.of()));
    }
}
