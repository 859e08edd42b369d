package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged bridge on a PostgreSQL ledger (an embedded server, run as an unprivileged account when the tests run as
 * root), chosen by WIRE_LEDGER_URL alone; and every credential mistake refused at start with a message that names
 * the variable and never the secret.
 */
class BridgePostgresIT {
    private static EmbeddedPostgres server;
    private static int schemas;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPostgres() throws Exception {
        server = EmbeddedPostgres.start((command, environment, output) -> {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().clear();
            builder.environment().putAll(environment);
            builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
            builder.redirectErrorStream(true);
            return builder.start();
        });
    }

    @AfterAll
    static void stopPostgres() {
        server.close();
    }

    private static LedgerLocation.Postgres freshLedger() throws Exception {
        return server.createLedger("bridge_" + (++schemas));
    }

    /** The lab's bridge environment with the ledger on PostgreSQL: no WIRE_SERVER_DB at all. */
    private static Map<String, String> environment(LedgerLocation.Postgres ledger, Path passwordFile) {
        Map<String, String> env = BridgeProcess.environment(Path.of("unused"));
        env.remove("WIRE_SERVER_DB");
        env.put("WIRE_LEDGER_URL", ledger.url());
        env.put("WIRE_LEDGER_USER", ledger.user());
        env.put("WIRE_LEDGER_PASSWORD_FILE", passwordFile.toString());
        return env;
    }

    @Test
    void appliesReplaysAndReportsStatusOnPostgres() throws Exception {
        LedgerLocation.Postgres ledger = freshLedger();
        try (BridgeProcess bridge = BridgeProcess.start(environment(ledger, server.passwordFile()))) {
            assertEquals("{\"ok\":true,\"result\":{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":false,\"state\":\"applied\"}}", bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "alpha")));
            assertEquals("{\"ok\":true,\"result\":{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\","
                    + "\"replayed\":true,\"state\":\"applied\"}}", bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "alpha")));
            assertTrue(bridge.call(Requests.apply("case-01", "guarded-01", "atomic", "beta")).contains("\"operation_conflict\""));
            assertTrue(bridge.call(Requests.status("case-01")).contains("\"storedResult\":\"created 1\""));
            bridge.closeInput();
            assertNull(bridge.readLine());
            assertEquals(0, bridge.awaitExit());
            assertEquals("", bridge.stderr());
        }
        try (IssueLedger reopened = IssueLedger.open(ledger, Requests.BACKEND)) {
            assertEquals(1, new LedgerQueries(reopened).issueCount());
            assertEquals(1, new LedgerQueries(reopened).operationCount());
        }
    }

    @Test
    void aWrongPasswordIsRefusedAtStartWithoutPrintingIt() throws Exception {
        String wrong = "w".repeat(40);
        Path file = Files.writeString(dir.resolve("wrong-password"), wrong);
        LedgerLocation.Postgres ledger = freshLedger();
        try (BridgeProcess bridge = BridgeProcess.start(environment(ledger, file))) {
            assertEquals(BridgeMain.BAD_CONFIGURATION, bridge.awaitExit());
            String stderr = bridge.stderr();
            assertTrue(stderr.startsWith("cannot open the ledger: cannot connect to the ledger " + ledger.url() + " as lab: "),
                    stderr);
            assertTrue(stderr.contains("password authentication failed"), stderr);
            assertFalse(stderr.contains(wrong), stderr);
            assertFalse(stderr.contains(Files.readString(server.passwordFile())), stderr);
        }
    }

    @Test
    void aPasswordInTheUrlOrAShortOneIsRefusedByNameWithoutTheValue() throws Exception {
        LedgerLocation.Postgres ledger = freshLedger();
        String secret = Files.readString(server.passwordFile());
        Map<String, String> inUrl = environment(ledger, server.passwordFile());
        inUrl.put("WIRE_LEDGER_URL", ledger.url() + "&password=" + secret);
        Path shortFile = Files.writeString(dir.resolve("short"), "x".repeat(31));
        Map<String, String> tooShort = environment(ledger, shortFile);
        Map<String, String> none = environment(ledger, server.passwordFile());
        none.remove("WIRE_LEDGER_PASSWORD_FILE");
        Map<Map<String, String>, String> refusals = Map.of(
                inUrl, "WIRE_LEDGER_URL: a ledger URL must not carry a password; give it in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD\n",
                tooShort, "the ledger password must contain at least 32 bytes\n",
                none, "WIRE_LEDGER_URL needs a password in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD\n");
        for (Map.Entry<Map<String, String>, String> refusal : refusals.entrySet()) {
            try (BridgeProcess bridge = BridgeProcess.start(refusal.getKey())) {
                assertEquals(BridgeMain.BAD_CONFIGURATION, bridge.awaitExit());
                assertEquals(refusal.getValue(), bridge.stderr());
            }
        }
    }
}
