package lab.continuationreplay.store.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import lab.continuationreplay.store.ledger.LedgerLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a process chooses its ledger ({@code WIRE_LEDGER_URL}, else {@code WIRE_SERVER_DB}) and keeps the password out of messages. */
class LedgerConfigurationTest {
    private static final String SECRET = "s3cret-".repeat(6);
    private static final String URL = "jdbc:postgresql://127.0.0.1:5432/ledgers?currentSchema=case_01";

    @TempDir
    Path dir;

    private static TrustedEnvironment environment(String... pairs) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return new TrustedEnvironment(env);
    }

    @Test
    void withoutAUrlTheLedgerIsTheSqliteFile() {
        LedgerLocation location = environment("WIRE_SERVER_DB", "/tmp/x/store.sqlite3", "WIRE_LEDGER_URL", "").ledger();
        assertEquals(new LedgerLocation.SqliteFile(Path.of("/tmp/x/store.sqlite3")), location);
        assertEquals("WIRE_SERVER_DB is required", assertThrows(IllegalArgumentException.class,
                () -> environment().ledger()).getMessage());
    }

    @Test
    void aUrlWithAPasswordFileIsPostgresAndItsDescriptionHasNoPassword() throws Exception {
        Path file = dir.resolve("password");
        Files.writeString(file, SECRET + "\n");
        LedgerLocation location = environment("WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab",
                "WIRE_LEDGER_PASSWORD_FILE", file.toString()).ledger();
        LedgerLocation.Postgres postgres = assertInstanceOf(LedgerLocation.Postgres.class, location);
        assertEquals(URL, postgres.url());
        assertEquals(URL + " as lab", postgres.describe());
        assertFalse(postgres.toString().contains(SECRET));
        // the trailing newline is not part of the secret: the same ledger as the password given inline
        assertEquals(postgres, environment("WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab",
                "WIRE_LEDGER_PASSWORD", SECRET).ledger());
    }

    @Test
    void everyRefusalNamesTheVariableAndNeverTheValue() throws Exception {
        Path shortFile = dir.resolve("short");
        Files.writeString(shortFile, "x".repeat(31));
        Map<String, String[]> cases = new java.util.LinkedHashMap<>();
        cases.put("the ledger password must contain at least 32 bytes",
                new String[] {"WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab", "WIRE_LEDGER_PASSWORD_FILE", shortFile.toString()});
        cases.put("WIRE_LEDGER_PASSWORD_FILE cannot be read",
                new String[] {"WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab", "WIRE_LEDGER_PASSWORD_FILE", dir.resolve("none").toString()});
        cases.put("WIRE_LEDGER_URL needs a password in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD",
                new String[] {"WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab"});
        cases.put("give the ledger password in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD, not both",
                new String[] {"WIRE_LEDGER_URL", URL, "WIRE_LEDGER_USER", "lab", "WIRE_LEDGER_PASSWORD", SECRET,
                        "WIRE_LEDGER_PASSWORD_FILE", shortFile.toString()});
        cases.put("WIRE_LEDGER_USER is required",
                new String[] {"WIRE_LEDGER_URL", URL, "WIRE_LEDGER_PASSWORD", SECRET});
        cases.put("WIRE_LEDGER_URL: a ledger URL must not carry a password; give it in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD",
                new String[] {"WIRE_LEDGER_URL", URL + "&password=" + SECRET, "WIRE_LEDGER_USER", "lab", "WIRE_LEDGER_PASSWORD", SECRET});
        cases.put("WIRE_LEDGER_URL: a ledger URL must not carry a password; give it in WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD ",
                new String[] {"WIRE_LEDGER_URL", "jdbc:postgresql://lab:" + SECRET + "@127.0.0.1/ledgers", "WIRE_LEDGER_USER", "lab",
                        "WIRE_LEDGER_PASSWORD", SECRET});
        cases.put("WIRE_LEDGER_URL: a ledger URL must start with jdbc:postgresql:// and name a host",
                new String[] {"WIRE_LEDGER_URL", "postgres://" + SECRET, "WIRE_LEDGER_USER", "lab", "WIRE_LEDGER_PASSWORD", SECRET});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> environment(c.getValue()).ledger(), c.getKey());
            assertEquals(c.getKey().strip(), refused.getMessage());
            assertFalse(refused.getMessage().contains(SECRET), refused.getMessage());
        }
    }
}
