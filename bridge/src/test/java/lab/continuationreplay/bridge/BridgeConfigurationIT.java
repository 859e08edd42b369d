package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad environment: one line on stderr naming the variable (never its value), nothing on stdout, exit 2. */
class BridgeConfigurationIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            WIRE_SERVER_DB           | NULL     | WIRE_SERVER_DB is required
            WIRE_BACKEND_ID          | ''       | WIRE_BACKEND_ID is required
            WIRE_PRINCIPAL           | NULL     | WIRE_PRINCIPAL is required
            WIRE_CLOCK_EPOCH         | soon     | WIRE_CLOCK_EPOCH must be numeric
            WIRE_CLOCK_EPOCH         | 17.5     | WIRE_CLOCK_EPOCH must be a whole number of seconds
            WIRE_FINGERPRINT_KEY_HEX | 8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7ad | WIRE_FINGERPRINT_KEY_HEX must contain at least 32 bytes
            WIRE_FINGERPRINT_KEY_HEX | zz0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba | WIRE_FINGERPRINT_KEY_HEX must be hexadecimal
            WIRE_FAULT               | explode  | WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, exit-after-partial-first-commit]
            """)
    void refusesToStart(String name, String value, String message) throws Exception {
        Map<String, String> env = BridgeProcess.environment(dir.resolve("store.sqlite3"));
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        try (BridgeProcess bridge = BridgeProcess.start(env)) {
            bridge.send(Requests.status("op-1"));
            assertNull(bridge.readLine());
            assertEquals(2, bridge.awaitExit());
            String stderr = bridge.stderr();
            assertEquals(message + System.lineSeparator(), stderr);
            if (value != null && value.length() > 8) {
                assertFalse(stderr.contains(value));
            }
        }
        assertFalse(Files.exists(dir.resolve("store.sqlite3")));
    }

    @Test
    void aLedgerBoundToAnotherBackendIsRefused() throws Exception {
        Path database = dir.resolve("store.sqlite3");
        try (BridgeProcess first = BridgeProcess.start(BridgeProcess.environment(database))) {
            first.closeInput();
            assertEquals(0, first.awaitExit());
        }
        Map<String, String> env = BridgeProcess.environment(database);
        env.put("WIRE_BACKEND_ID", "sqlite:other");
        try (BridgeProcess bridge = BridgeProcess.start(env)) {
            assertEquals(2, bridge.awaitExit());
            assertEquals("cannot open the ledger: database is bound to backend_id 'sqlite:guarded-matrix', not 'sqlite:other'"
                    + System.lineSeparator(), bridge.stderr());
        }
    }
}
