package lab.continuationreplay.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The path a machine that has never run the lab takes: as root, the server's account does not exist yet and the lab
 * creates it. The shared test server's account ({@value EmbeddedPostgres#ACCOUNT}) may exist from an earlier run, so
 * this test creates an account of its own name through the same code, runs a server as it, and removes it.
 */
class AccountCreationTest {

    @Test
    void asRootAMissingAccountIsCreatedAndTheServerRunsAsIt() throws Exception {
        Assumptions.assumeTrue(isRoot(), "the lab creates an account only when it runs as root");
        String account = "crlab-pgt-" + Long.toString(ProcessHandle.current().pid(), 36);
        assertNotEquals(0, run("id", "-u", account), "the account " + account + " exists before the test");
        try {
            EmbeddedPostgres.Options options = new EmbeddedPostgres.Options(Path.of(System.getProperty("java.io.tmpdir")), account);
            try (EmbeddedPostgres server = EmbeddedPostgres.start(TestPostgres.STARTER, options)) {
                assertEquals(account, server.account());
                long uid = Long.parseLong(output("id", "-u", account));
                try (Connection connection = server.connect(EmbeddedPostgres.DATABASE);
                        Statement statement = connection.createStatement();
                        ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
                    pid.next();
                    String uidLine = Files.readAllLines(Path.of("/proc", Long.toString(pid.getLong(1)), "status")).stream()
                            .filter(line -> line.startsWith("Uid:")).findFirst().orElseThrow();
                    assertEquals(uid, Long.parseLong(uidLine.split("\\s+")[1]), uidLine);
                }
            }
            // a second start finds the account and reuses it
            try (EmbeddedPostgres again = EmbeddedPostgres.start(TestPostgres.STARTER,
                    new EmbeddedPostgres.Options(Path.of(System.getProperty("java.io.tmpdir")), account))) {
                assertEquals(account, again.account());
            }
        } finally {
            run("userdel", account);
        }
        assertNotEquals(0, run("id", "-u", account), "the test's account is removed");
    }

    @Test
    void anAccountNameTheSystemWouldRefuseIsRefusedBeforeAnyProgramRuns() {
        Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
        for (String name : new String[] {"", "Root", "a:b", "-x", "a b", "x".repeat(33)}) {
            assertThrows(IllegalArgumentException.class, () -> new EmbeddedPostgres.Options(temporary, name), name);
        }
    }

    private static boolean isRoot() throws IOException {
        return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end");
        }
        return process.exitValue();
    }

    private static String output(String... command) throws Exception {
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, process.waitFor(), String.join(" ", command));
        return out;
    }
}
