package lab.continuationreplay.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The embedded server: who it runs as, what it listens on, its durability, and its secret. */
class EmbeddedPostgresTest {

    @Test
    void runsAsAnUnprivilegedAccountWhenTheTestsRunAsRoot() throws Exception {
        EmbeddedPostgres server = TestPostgres.server();
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        assertEquals(root ? EmbeddedPostgres.ACCOUNT : System.getProperty("user.name"), server.account());
        try (Connection connection = server.connect(EmbeddedPostgres.DATABASE);
                Statement statement = connection.createStatement()) {
            // the server process's own user, as the operating system sees it
            try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
                pid.next();
                Path status = Path.of("/proc", Long.toString(pid.getLong(1)), "status");
                String uidLine = Files.readAllLines(status).stream().filter(line -> line.startsWith("Uid:")).findFirst()
                        .orElseThrow();
                long uid = Long.parseLong(uidLine.split("\\s+")[1]);
                assertTrue(uid != 0, "the server process runs as user id " + uid + ", never root: " + uidLine);
                if (!root) {
                    assertEquals(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue(), uid);
                }
            }
            for (String[] setting : new String[][] {{"fsync", "on"}, {"synchronous_commit", "on"},
                    {"full_page_writes", "on"}, {"listen_addresses", "127.0.0.1"}, {"password_encryption", "scram-sha-256"}}) {
                try (ResultSet value = statement.executeQuery("SHOW " + setting[0])) {
                    value.next();
                    assertEquals(setting[1], value.getString(1), setting[0]);
                }
            }
        }
    }

    @Test
    void thePasswordIsAPrivateFileOfAtLeast32BytesAndAWrongOneIsRefused() throws Exception {
        EmbeddedPostgres server = TestPostgres.server();
        Path file = server.passwordFile();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(Files.size(file) >= 32);
        String url = server.url("public");
        assertFalse(url.contains(Files.readString(file)), url);
        var wrong = new java.util.Properties();
        wrong.setProperty("user", EmbeddedPostgres.ROLE);
        wrong.setProperty("password", "x".repeat(64));
        var refused = assertThrows(java.sql.SQLException.class,
                () -> java.sql.DriverManager.getConnection(url, wrong).close());
        assertEquals("28P01", refused.getSQLState(), refused.getMessage());
    }

    @Test
    void aSchemaNameOutsideTheSafeAlphabetIsRefusedBeforeAnySql() {
        EmbeddedPostgres server = TestPostgres.server();
        assertThrows(IllegalArgumentException.class, () -> server.createLedger("x; DROP DATABASE ledgers"));
        assertThrows(IllegalArgumentException.class, () -> server.createLedger("9lives"));
        assertThrows(IllegalArgumentException.class, () -> server.createLedger(""));
    }
}
