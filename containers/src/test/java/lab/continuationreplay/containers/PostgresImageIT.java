package lab.continuationreplay.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The PostgreSQL image of {@code lab replicas} ({@code containers/build-images.sh --postgres}) and its entrypoint's
 * contract, on a real engine: containers with network {@code none} and the password folder bind-mounted read-only,
 * talked to through {@code docker exec} (psql over loopback TCP or, as the postgres account, over the Unix socket).
 * Every container a test makes is removed after it, also when it fails.
 */
@ExtendWith(DockerEngine.class)
class PostgresImageIT {
    private static final String READY = "crlab-postgres: ready on port 5432";
    private static final Pattern BUILT = Pattern.compile("postgres\tlocal/lab-postgres:bookworm-[0-9a-f]{12}\n");
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static String image;

    private final List<String> containers = new ArrayList<>();
    @TempDir
    Path dir;

    @BeforeAll
    static void buildTheImageThroughTheScript() throws Exception {
        Path home = LabHome.resolve();
        Path progress = Files.createTempFile("build-images-postgres", ".err");
        long started = System.nanoTime();
        Exec.Result built = Exec.command("bash", home.resolve("containers/build-images.sh").toString(), "--postgres")
                .withDirectory(home).withStderr(Exec.Io.file(progress)).run(Duration.ofMinutes(20));
        double seconds = (System.nanoTime() - started) / 1e9;
        String log = Files.readString(progress);
        Files.delete(progress);
        System.err.print(log);
        assertEquals(0, built.exitStatus(), "build-images.sh --postgres failed; its progress:\n" + log);
        assertTrue(BUILT.matcher(built.output()).matches(), "stdout must be exactly one 'postgres<TAB>image' line: [" + built.output() + "]");
        image = built.output().strip().split("\t")[1];
        System.err.printf("PostgresImageIT: %s built or found in %.1f s%n", image, seconds);
    }

    @AfterEach
    void removeTheContainers() throws Exception {
        for (String name : containers) {
            Exec.run(List.of("docker", "rm", "--force", "--volumes", name), LIMIT);
        }
    }

    @Test
    void theFirstStartInitialisesOnceTheRoleLogsInWithItsPasswordAndRowsSurviveRestartAndStop() throws Exception {
        // exactly the minimum length: 32 bytes, and the newline an editor leaves
        String password = HexFormat.of().formatHex(random(16));
        String name = name();
        long started = System.nanoTime();
        run(name, passwordFolder(password + "\n"));
        awaitReadyLines(name, 1);
        System.err.printf("PostgresImageIT: first start to ready line %.2f s%n", (System.nanoTime() - started) / 1e9);

        Logs first = logs(name);
        assertEquals("", first.stdout(), "everything goes to stderr");
        assertEquals(1, count(first.stderr(), READY), first.stderr());

        assertEquals("crlab|crlab|t", overTcp(name, password, "select current_user, current_database(), rolsuper from pg_roles where rolname = current_user"));
        assertEquals("crlab", overTcp(name, password, "select string_agg(rolname, ',') from pg_roles where rolname !~ '^pg_'"), "no other role");
        assertEquals("crlab", overTcp(name, password, "select pg_get_userbyid(datdba) from pg_database where datname = 'crlab'"));
        assertEquals("SCRAM-SHA-256$", overTcp(name, password, "select left(rolpassword, 14) from pg_authid where rolname = 'crlab'"));
        assertEquals("on", overTcp(name, password, "SHOW fsync"));
        // read over TCP, so the keepalive settings are the ones this socket really has
        assertEquals(String.join("\n", "fsync=on", "full_page_writes=on", "idle_in_transaction_session_timeout=10000",
                "listen_addresses=*", "max_connections=100", "password_encryption=scram-sha-256", "port=5432",
                "synchronous_commit=on", "tcp_keepalives_count=3", "tcp_keepalives_idle=5", "tcp_keepalives_interval=2"),
                overTcp(name, password, "select name || '=' || setting from pg_settings where name in ('fsync', 'full_page_writes',"
                        + " 'idle_in_transaction_session_timeout', 'listen_addresses', 'max_connections', 'password_encryption',"
                        + " 'port', 'synchronous_commit', 'tcp_keepalives_count', 'tcp_keepalives_idle', 'tcp_keepalives_interval')"
                        + " order by name"));
        assertEquals(String.join("\n", "local|{all}|{crlab}|||peer|{map=crlab}",
                "host|{all}|{crlab}|127.0.0.1|255.255.255.255|scram-sha-256|",
                "host|{all}|{crlab}|10.231.0.0|255.255.0.0|scram-sha-256|"),
                overTcp(name, password, "select type, database, user_name, address, netmask, auth_method, options"
                        + " from pg_hba_file_rules order by line_number"), "pg_hba.conf holds these three rules and nothing else");

        Exec.Result wrong = psqlOverTcp(name, HexFormat.of().formatHex(random(16)), "select 1");
        assertNotEquals(0, wrong.exitStatus(), wrong.output());
        assertTrue(wrong.output().contains("password authentication failed for user \"crlab\""), wrong.output());
        Exec.Result root = docker("exec", name, "psql", "-X", "-At", "-c", "select 1");
        assertNotEquals(0, root.exitStatus(), "root may not log in over the Unix socket: " + root.output());
        assertEquals("crlab", overSocket(name, "select current_user"), "the postgres account logs in as crlab, by peer");

        // the orchestrator's tunnel: bash's /dev/tcp to the server, which answers an SSLRequest with N (no TLS here)
        Exec.Result tunnel = docker("exec", "-i", name, "timeout", "10", "bash", "-c",
                "command -v cat >&2 && exec 3<>/dev/tcp/127.0.0.1/5432 && printf '\\x00\\x00\\x00\\x08\\x04\\xd2\\x16\\x2f' >&3 && head -c 1 <&3");
        assertEquals(0, tunnel.exitStatus(), tunnel.output());
        // stdout's N and stderr's path of cat reach the merged output in either order
        assertEquals("N", tunnel.output().replaceFirst("/\\S*cat\n", ""), tunnel.output());

        overTcp(name, password, "create table survives (n int); insert into survives values (42)");
        String identifier = overSocket(name, "select system_identifier from pg_control_system()");

        assertSucceeds(docker("restart", "--time", "30", name));
        awaitReadyLines(name, 2);
        assertEquals("42", overTcp(name, password, "select n from survives"));
        assertEquals(identifier, overSocket(name, "select system_identifier from pg_control_system()"), "the same cluster, not a new one");
        Logs restarted = logs(name);
        assertEquals(1, count(restarted.stderr(), "crlab-postgres: first start: initdb"), restarted.stderr());
        assertEquals(1, count(restarted.stderr(), "The files belonging to this database system"), "initdb ran once: " + restarted.stderr());
        assertEquals(1, count(restarted.stderr(), "initialised before; starting the server"), restarted.stderr());
        assertEquals(2, count(restarted.stderr(), READY), restarted.stderr());

        assertSucceeds(docker("stop", "--time", "30", name));
        assertEquals("0", docker("inspect", "--format", "{{.State.ExitCode}}", name).output().strip(), "a clean shutdown exits 0");
        assertTrue(logs(name).stderr().contains("database system is shut down"));
        assertSucceeds(docker("start", name));
        awaitReadyLines(name, 3);
        assertEquals("42", overTcp(name, password, "select n from survives"));
        assertEquals(identifier, overSocket(name, "select system_identifier from pg_control_system()"));

        // the password in nothing docker shows, and in no file the container wrote (its data folder among them)
        Exec.Result inspect = docker("inspect", name);
        assertSucceeds(inspect);
        assertFalse(inspect.output().contains(password), "docker inspect shows the password");
        Logs last = logs(name);
        assertFalse(last.stdout().contains(password) || last.stderr().contains(password), "the container's log shows the password");
        Exec.Result changed = docker("diff", name);
        assertSucceeds(changed);
        assertTrue(changed.output().contains("/var/lib/postgresql/crlab/PG_VERSION"), changed.output());
        String paths = changed.output().lines().map(line -> line.substring(2)).collect(Collectors.joining("\n", "", "\n"));
        String found = withInput(paths, "docker", "exec", "-i", name, "bash", "-c", "n=0; while IFS= read -r f; do"
                + " if [[ -f $f ]]; then n=$((n + 1)); grep -l -F -f /run/crlab/ledger-password -- \"$f\" || true; fi; done; echo \"files $n\"");
        assertTrue(found.strip().matches("files [1-9][0-9]+"), "a file the container wrote holds the password: " + found);
    }

    /**
     * A process a {@code docker exec} leaves behind (the orchestrator's tunnel can) becomes a child of the container's
     * PID 1. Were that the postmaster, its death by a signal would count as a crashed backend: every session killed and
     * the server restarted. tini is PID 1, so such a death leaves the server and its sessions alone.
     */
    @Test
    void anOrphanOfADockerExecKilledByASignalLeavesTheServerAndItsSessionsAlone() throws Exception {
        String name = name();
        // what counts is bytes: 32 of them in 16 characters are enough
        run(name, passwordFolder("\u00e9".repeat(16)));
        awaitReadyLines(name, 1);
        Process session = Exec.command("docker", "exec", "-i", "-u", "postgres", name, "psql", "-X", "-At", "-v", "ON_ERROR_STOP=1")
                .withStdout(Exec.Io.PIPE).withStderr(Exec.Io.INTO_STDOUT).start();
        try (Writer in = new java.io.OutputStreamWriter(session.getOutputStream(), StandardCharsets.UTF_8);
                BufferedReader out = new BufferedReader(new InputStreamReader(session.getInputStream(), StandardCharsets.UTF_8))) {
            in.write("select pg_backend_pid();\n");
            in.flush();
            String backend = readLine(out);
            assertTrue(backend.matches("[0-9]+"), backend);

            String orphan = docker("exec", name, "bash", "-c", "sleep 600 >/dev/null 2>&1 & echo $!").output().strip();
            assertTrue(orphan.matches("[0-9]+"), orphan);
            assertEquals("1 tini", docker("exec", name, "bash", "-c",
                    "echo \"$(awk '/^PPid:/ {print $2}' /proc/" + orphan + "/status) $(cat /proc/1/comm)\"").output().strip(),
                    "the orphan is a child of PID 1, which is tini");
            assertSucceeds(docker("exec", name, "bash", "-c", "kill -KILL " + orphan));
            assertSucceeds(docker("exec", name, "timeout", "10", "bash", "-c", "while [[ -e /proc/" + orphan + " ]]; do sleep 0.1; done"));

            in.write("select pg_backend_pid();\n");
            in.flush();
            assertEquals(backend, readLine(out), "the session survived");
            in.write("\\q\n");
            in.flush();
        } finally {
            Exec.awaitOrKill(session, LIMIT);
        }
        String log = logs(name).stderr();
        assertFalse(log.contains("terminating any other active server processes"), log);
        assertEquals(1, count(log, "database system is ready to accept connections"), "no restart after a crash: " + log);
    }

    /** Password folders the entrypoint refuses, each before anything is initialised. */
    enum BadPassword {
        MISSING(folder -> {}, "no ledger password file /run/crlab/ledger-password (bind-mount a folder holding ledger-password at /run/crlab, read-only)"),
        A_FOLDER(folder -> Files.createDirectory(folder.resolve("ledger-password")),
                "the ledger password file /run/crlab/ledger-password is not a readable file"),
        SHORT(file("a".repeat(31) + "\n"), "the ledger password in /run/crlab/ledger-password is shorter than 32 bytes"),
        // 33 bytes in the file, 31 once the line end is taken off
        SHORT_BEFORE_ITS_LINE_END(file("a".repeat(31) + "\r\n"), "the ledger password in /run/crlab/ledger-password is shorter than 32 bytes"),
        TWO_LINES(file("a".repeat(40) + "\n" + "b".repeat(40) + "\n"), "the ledger password file /run/crlab/ledger-password holds more than one line"),
        NUL(file("a".repeat(20) + "\0" + "b".repeat(20)), "the ledger password file /run/crlab/ledger-password contains a NUL byte");

        final Setup setup;
        final String line;

        BadPassword(Setup setup, String line) {
            this.setup = setup;
            this.line = line;
        }

        private static Setup file(String content) {
            return folder -> Files.write(folder.resolve("ledger-password"), content.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Makes what a password folder holds. */
    interface Setup {
        void make(Path folder) throws IOException;
    }

    @ParameterizedTest
    @EnumSource(BadPassword.class)
    void aBadPasswordFileStopsTheContainerWithExit2AndOneClearLine(BadPassword bad) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("bad"));
        bad.setup.make(folder);
        assertRefused(List.of("--volume", folder + ":/run/crlab:ro"), bad.line);
    }

    @Test
    void startingAsAnotherUserThanRootIsRefused() throws Exception {
        assertRefused(List.of("--user", "postgres", "--volume", passwordFolder("p".repeat(40)) + ":/run/crlab:ro"),
                "the entrypoint must start as root (it reads the password file, then runs PostgreSQL as the postgres account);"
                        + " do not pass --user");
    }

    @Test
    void aDataFolderThatHoldsSomethingElseIsNeverInitialisedOver() throws Exception {
        Path password = passwordFolder("p".repeat(40));
        Path stray = Files.createDirectories(dir.resolve("stray"));
        Files.writeString(stray.resolve("notes.txt"), "not a cluster\n");
        assertRefused(List.of("--volume", password + ":/run/crlab:ro", "--volume", stray + ":/var/lib/postgresql/crlab"),
                "/var/lib/postgresql/crlab is not empty and holds no cluster");
        Path cutShort = Files.createDirectories(dir.resolve("cut-short"));
        Files.writeString(cutShort.resolve("PG_VERSION"), "15\n");
        assertRefused(List.of("--volume", password + ":/run/crlab:ro", "--volume", cutShort + ":/var/lib/postgresql/crlab"),
                "/var/lib/postgresql/crlab holds a cluster whose initialisation was cut short or not made by this image"
                        + " (no crlab-initialised); start a new container");
        assertEquals(List.of("notes.txt"), List.of(stray.toFile().list()), "nothing written into the stray folder");
    }

    @Test
    void thePostgresImageIsBuiltAloneNeverWithTheRuntimeCells() throws Exception {
        Path home = LabHome.resolve();
        Path errors = dir.resolve("err");
        Exec.Result both = Exec.command("bash", home.resolve("containers/build-images.sh").toString(), "--postgres", "--runtime", "jdk17-node20")
                .withStderr(Exec.Io.file(errors)).run(LIMIT);
        assertEquals(1, both.exitStatus());
        assertEquals("", both.output());
        assertTrue(Files.readString(errors).contains("--postgres builds only the PostgreSQL image; give it without --runtime"), Files.readString(errors));
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    private void assertRefused(List<String> options, String reason) throws Exception {
        String name = name();
        List<String> command = new ArrayList<>(List.of("docker", "run", "--name", name, "--network", "none", "--pull", "never"));
        command.addAll(options);
        command.add(image);
        Exec.Result result = Exec.command(command).withStderr(Exec.Io.DISCARD).run(LIMIT);
        assertEquals(2, result.exitStatus(), "the container's exit status");
        Logs logs = logs(name);
        assertEquals("", logs.stdout());
        assertEquals("crlab-postgres: refusing to start: " + reason + "\n", logs.stderr(), "one clear line and nothing else");
    }

    private String name() {
        String name = "crlab-pg-it-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
        containers.add(name);
        return name;
    }

    /** A folder holding ledger-password, readable by its owner only (root in the container reads it anyway). */
    private Path passwordFolder(String content) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("secret-" + NAMES.incrementAndGet()));
        Path file = folder.resolve("ledger-password");
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        return folder;
    }

    private static void run(String name, Path passwordFolder) throws Exception {
        assertSucceeds(docker("run", "--detach", "--name", name, "--network", "none", "--pull", "never",
                "--volume", passwordFolder + ":/run/crlab:ro", image));
    }

    private static void awaitReadyLines(String name, int lines) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            Logs logs = logs(name);
            if (count(logs.stderr(), READY) >= lines) {
                return;
            }
            String state = docker("inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", name).output().strip();
            if (state.startsWith("exited")) {
                fail("the container ended (" + state + ") before ready line " + lines + ":\n" + logs.stderr());
            }
            Thread.sleep(100);
        }
        fail("no ready line " + lines + " within 120 s:\n" + logs(name).stderr());
    }

    private record Logs(String stdout, String stderr) {}

    /** The container's own stdout and stderr, kept apart. */
    private static Logs logs(String name) throws Exception {
        Path stderr = Files.createTempFile("crlab-pg-logs", ".err");
        try {
            Exec.Result out = Exec.command("docker", "logs", name).withStderr(Exec.Io.file(stderr)).run(LIMIT);
            assertEquals(0, out.exitStatus(), "docker logs " + name);
            return new Logs(out.output(), Files.readString(stderr));
        } finally {
            Files.delete(stderr);
        }
    }

    private static int count(String text, String part) {
        return (int) text.lines().filter(line -> line.contains(part)).count();
    }

    /** psql over TCP on the container's loopback as crlab; the password reaches docker exec through its environment. */
    private static Exec.Result psqlOverTcp(String name, String password, String sql) throws Exception {
        return Exec.command("docker", "exec", "-e", "PGPASSWORD", name, "psql", "-X", "-At", "-v", "ON_ERROR_STOP=1",
                        "-h", "127.0.0.1", "-U", "crlab", "-d", "crlab", "-c", sql)
                .addingEnvironment(Map.of("PGPASSWORD", password)).withStderr(Exec.Io.INTO_STDOUT).run(LIMIT);
    }

    private static String overTcp(String name, String password, String sql) throws Exception {
        Exec.Result result = psqlOverTcp(name, password, sql);
        assertSucceeds(result);
        return result.output().strip();
    }

    /** psql as the postgres account over the Unix socket (peer, mapped to crlab). */
    private static String overSocket(String name, String sql) throws Exception {
        Exec.Result result = docker("exec", "-u", "postgres", name, "psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql);
        assertSucceeds(result);
        return result.output().strip();
    }

    /** A command with {@code input} on its stdin; its stdout and stderr together, after it ended with status 0. */
    private static String withInput(String input, String... command) throws Exception {
        Process process = Exec.command(command).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.INTO_STDOUT).start();
        CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
            try {
                return process.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (var stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Exec.awaitOrKill(process, LIMIT), "no end within " + LIMIT + ": " + String.join(" ", command));
        String text = new String(output.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        return text;
    }

    private static Exec.Result docker(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        return Exec.run(command, LIMIT);
    }

    private static void assertSucceeds(Exec.Result result) {
        assertTrue(result.succeeded(), "exit " + result.exitStatus() + (result.timedOut() ? " (timed out)" : "") + ": " + result.output());
    }

    private static String readLine(BufferedReader reader) throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(30, TimeUnit.SECONDS);
        assertTrue(line != null, "the session ended");
        return line;
    }

    private static byte[] random(int bytes) {
        byte[] value = new byte[bytes];
        new SecureRandom().nextBytes(value);
        return value;
    }
}
