package lab.continuationreplay.store.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * A real PostgreSQL server for one run, started from the binaries on the class path ({@link PostgresBinaries}),
 * listening on a free loopback port only, with a fresh cluster in a private temporary folder that is deleted when
 * the server is closed.
 *
 * <p>PostgreSQL refuses to run as root ({@code initdb} and {@code postgres} both check), and CI runs as root. So as
 * root the lab runs both as the unprivileged system account {@value #ACCOUNT}: created with {@code useradd --system}
 * (no home, no login shell, its own group) the first time it is needed, then reused; the programs are started through
 * {@code setpriv} with that account's user and group ids and no supplementary groups, and the data folder is chowned
 * to it (mode 700, as initdb demands). As any other user the programs run as that user. The role {@value #ROLE} gets a
 * fresh 32-byte random password per run (scram-sha-256), kept in a file only the lab's user can read; initdb reads
 * its own copy, which is deleted once the cluster exists.
 *
 * <p>Durability is PostgreSQL's default and is pinned on the command line so no configuration file can weaken it:
 * {@code fsync=on}, {@code synchronous_commit=on}, {@code full_page_writes=on}.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    /** The operating-system account the server runs as when the lab runs as root. */
    public static final String ACCOUNT = "crlab-postgres";
    /** The database role (a superuser of this throw-away cluster) the ledgers connect as. */
    public static final String ROLE = "lab";
    /** The database that holds the ledgers, one schema per ledger. */
    public static final String DATABASE = "ledgers";

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final List<String> PROGRAM_FOLDERS = List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin");
    private static final Map<String, String> CHILD_ENVIRONMENT = Map.of("LC_ALL", "C", "LANG", "C", "TZ", "UTC",
            "PATH", "/usr/sbin:/usr/bin:/sbin:/bin");

    private final ProcessStarter starter;
    private final Path folder;
    private final Path binaries;
    private final List<String> runAs;
    private final String account;
    private final byte[] password;
    private final Path passwordFile;
    private Process server;
    private int port;
    private Thread shutdownHook;

    private EmbeddedPostgres(ProcessStarter starter, Path folder, Path binaries, List<String> runAs, String account,
            byte[] password, Path passwordFile) {
        this.starter = starter;
        this.folder = folder;
        this.binaries = binaries;
        this.runAs = runAs;
        this.account = account;
        this.password = password;
        this.passwordFile = passwordFile;
    }

    /**
     * Where a server lives and whom it runs as. {@code temporary} must be reachable by every user (as root, the
     * server's account must be able to enter it): the system's temporary folder is. {@code account} is the system
     * account used when the lab runs as root; it is created if missing.
     */
    public record Options(Path temporary, String account) {
        private static final Pattern ACCOUNT_NAME = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");

        public Options {
            if (temporary == null) {
                throw new IllegalArgumentException("the temporary folder is missing");
            }
            if (account == null || !ACCOUNT_NAME.matcher(account).matches()) {
                throw new IllegalArgumentException("an account name is 1 to 32 of a-z, 0-9, _ and -, starting with a"
                        + " letter or _: " + account);
            }
        }

        /** The system's temporary folder and the account {@value EmbeddedPostgres#ACCOUNT}. */
        public static Options defaults() {
            return new Options(Path.of(System.getProperty("java.io.tmpdir")), ACCOUNT);
        }
    }

    /** Starts a server with {@link Options#defaults()}. */
    public static EmbeddedPostgres start(ProcessStarter starter) throws IOException {
        return start(starter, Options.defaults());
    }

    /** Starts a server in a new folder under {@code options.temporary()}. */
    public static EmbeddedPostgres start(ProcessStarter starter, Options options) throws IOException {
        Path temporary = options.temporary();
        Path binaries = PostgresBinaries.unpacked(temporary);
        Path folder = Files.createTempDirectory(temporary, "continuation-replay-pg-");
        EmbeddedPostgres postgres = null;
        try {
            boolean root = isRoot();
            List<String> runAs = List.of();
            String account = System.getProperty("user.name");
            if (root) {
                account = options.account();
                long[] ids = ensureAccount(starter, folder, account);
                runAs = List.of(program("setpriv"), "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups", "--");
                // the account only passes through the folder (x), it reads nothing in it but its own data
                Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx--x--x"));
            } else {
                Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
            }
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            byte[] password = HexFormat.of().formatHex(secret).getBytes(StandardCharsets.US_ASCII);
            Path passwordFile = folder.resolve("ledger-password");
            writePrivate(passwordFile, password);
            postgres = new EmbeddedPostgres(starter, folder, binaries, runAs, account, password, passwordFile);
            postgres.initdb(root);
            postgres.startServer();
            postgres.createDatabase();
            return postgres;
        } catch (IOException | RuntimeException | Error e) {
            if (postgres != null) {
                postgres.close();
            } else {
                Folders.deleteQuietly(folder);
            }
            throw e;
        }
    }

    /** The loopback port the server listens on. */
    public int port() {
        return port;
    }

    /** The operating-system user the server runs as. */
    public String account() {
        return account;
    }

    /** A file holding the role's password, readable by the lab's user only: for {@code WIRE_LEDGER_PASSWORD_FILE}. */
    public Path passwordFile() {
        return passwordFile;
    }

    /** The URL of one ledger's schema, with no credential in it. */
    public String url(String schema) {
        checkSchema(schema);
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?currentSchema=" + schema;
    }

    /** Creates the schema {@code schema} (empty; the ledger creates its tables on open) and answers its location. */
    public LedgerLocation.Postgres createLedger(String schema) throws SQLException {
        checkSchema(schema);
        try (Connection connection = connect(DATABASE); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return location(schema);
    }

    /** The database {@value #DATABASE} itself (no schema chosen): for the lab's own sessions around the ledgers. */
    public LedgerLocation.Postgres database() {
        return new LedgerLocation.Postgres("jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE, ROLE, password);
    }

    /** The location of an existing schema's ledger. */
    public LedgerLocation.Postgres location(String schema) {
        return new LedgerLocation.Postgres(url(schema), ROLE, password);
    }

    /** A connection as the role to {@code database} of this server: for administration and dumps. */
    public Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", ROLE);
        properties.setProperty("password", new String(password, StandardCharsets.US_ASCII));
        properties.setProperty("connectTimeout", "10");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, properties);
    }

    /** Stops the server (fast shutdown: open sessions are ended) and deletes its folder with the cluster. */
    @Override
    public synchronized void close() {
        if (server != null) {
            try {
                Process stop = starter.start(command("pg_ctl", "stop", "-D", data().toString(), "-m", "fast", "-w",
                        "-t", "30"), CHILD_ENVIRONMENT, folder.resolve("pg_ctl.log"));
                if (!stop.waitFor(40, TimeUnit.SECONDS)) {
                    stop.destroyForcibly();
                }
                if (!server.waitFor(10, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                server.destroyForcibly();
            } catch (InterruptedException e) {
                server.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            server = null;
        }
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
            shutdownHook = null;
        }
        Folders.deleteQuietly(folder);
    }

    /** The shutdown hook: under the same lock as {@link #close}, so the two never delete the folder at once. */
    private synchronized void killAtExit() {
        Process running = server;
        if (running != null) {
            running.destroyForcibly();
            try {
                running.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
        }
        Folders.deleteQuietly(folder);
    }

    @Override
    public String toString() {
        return "EmbeddedPostgres[127.0.0.1:" + port + " as " + account + "]";
    }

    private Path data() {
        return folder.resolve("data");
    }

    private void initdb(boolean root) throws IOException {
        Path data = Files.createDirectory(data());
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        Path initdbPassword = folder.resolve("initdb-password");
        writePrivate(initdbPassword, password);
        if (root) {
            giveToAccount(data, account);
            giveToAccount(initdbPassword, account);
        }
        try {
            run(command("initdb", "-D", data.toString(), "-U", ROLE, "--auth=scram-sha-256",
                    "--pwfile=" + initdbPassword, "-E", "UTF8", "--no-locale"), folder.resolve("initdb.log"), START_LIMIT);
        } finally {
            Files.deleteIfExists(initdbPassword);
        }
    }

    private void startServer() throws IOException {
        // a lab ended from outside (Ctrl-C, SIGTERM) still stops its server and removes the cluster; the data is
        // thrown away, so the server is killed, and its sessions end when they notice the postmaster is gone
        shutdownHook = new Thread(this::killAtExit, "embedded-postgres-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            port = freePort();
            try {
                launch();
                return;
            } catch (IOException e) {
                last = e;
                if (!e.getMessage().contains("could not bind")) {
                    break;
                }
            }
        }
        throw last;
    }

    /** Starts {@code postgres} on the cluster and {@link #port} and waits until a session succeeds. */
    private void launch() throws IOException {
        Path log = folder.resolve("postgres.log");
        server = starter.start(command("postgres", "-D", data().toString(), "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=on",
                "-c", "synchronous_commit=on", "-c", "full_page_writes=on", "-c", "max_connections=200",
                "-c", "log_min_messages=warning"), CHILD_ENVIRONMENT, log);
        try {
            awaitReady(log);
        } catch (IOException e) {
            server.destroyForcibly();
            try {
                server.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting PostgreSQL", interrupted);
            } finally {
                server = null;
            }
            throw e;
        }
    }

    /** The server's process id (the postmaster: {@code setpriv} replaces itself with the program it starts). */
    public synchronized long pid() {
        requireRunning();
        return server.pid();
    }

    /** True while the server process runs. */
    public synchronized boolean running() {
        return server != null && server.isAlive();
    }

    /**
     * Kills the server with SIGKILL, as a crash or the kernel's out-of-memory killer would: no shutdown and no
     * checkpoint, so its committed transactions survive only through the WAL. The cluster stays for {@link #restart}.
     */
    public synchronized void kill() throws IOException {
        requireRunning();
        Process killed = server;
        server = null;
        killed.destroyForcibly();
        try {
            if (!killed.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException("PostgreSQL (pid " + killed.pid() + ") did not end within 10 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while killing PostgreSQL", e);
        }
    }

    /** Stops the server the orderly way ({@code pg_ctl stop -m fast}: sessions are ended, a checkpoint is written). */
    public synchronized void stop() throws IOException {
        requireRunning();
        run(command("pg_ctl", "stop", "-D", data().toString(), "-m", "fast", "-w", "-t", "30"),
                folder.resolve("pg_ctl.log"), Duration.ofSeconds(40));
        try {
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException("PostgreSQL (pid " + server.pid() + ") still runs 10 s after pg_ctl stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping PostgreSQL", e);
        }
        server = null;
    }

    /**
     * Starts the server again on the same cluster and port, after {@link #kill} or {@link #stop}, so every ledger URL
     * handed out stays valid; after a kill it first replays the WAL. A killed server's sessions end only when each
     * notices the postmaster is gone, and until then PostgreSQL refuses to start on their shared memory, so that
     * refusal (and a port not yet free) is waited out, up to the start limit.
     */
    public synchronized void restart() throws IOException {
        if (running()) {
            throw new IllegalStateException("PostgreSQL is running; kill or stop it first");
        }
        if (!Files.isDirectory(data())) {
            throw new IllegalStateException("the cluster of this server was removed (closed)");
        }
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (true) {
            try {
                launch();
                return;
            } catch (IOException e) {
                String message = e.getMessage();
                boolean leftovers = message.contains("pre-existing shared memory block") || message.contains("could not bind")
                        || message.contains("lock file");
                if (!leftovers || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while restarting PostgreSQL", e);
            }
        }
    }

    private void requireRunning() {
        if (server == null) {
            throw new IllegalStateException("PostgreSQL is not running");
        }
    }

    /** Ready means a session as the role, with its password, succeeds; a server that ended is a failure at once. */
    private void awaitReady(Path log) throws IOException {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        SQLException lastFailure = null;
        while (System.nanoTime() - deadline < 0) {
            if (!server.isAlive()) {
                throw new IOException("PostgreSQL ended with status " + server.exitValue() + " while starting: " + tail(log));
            }
            try (Connection connection = connect("postgres")) {
                return;
            } catch (SQLException e) {
                lastFailure = e;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for PostgreSQL", e);
            }
        }
        throw new IOException("PostgreSQL did not accept a session within " + START_LIMIT.toSeconds() + " s ("
                + (lastFailure == null ? "" : lastFailure.getMessage()) + "): " + tail(log));
    }

    private void createDatabase() throws IOException {
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IOException("cannot create the database " + DATABASE + ": " + e.getMessage(), e);
        }
    }

    private List<String> command(String program, String... arguments) {
        List<String> command = new ArrayList<>(runAs);
        command.add(binaries.resolve("bin").resolve(program).toString());
        command.addAll(List.of(arguments));
        return command;
    }

    private void run(List<String> command, Path log, Duration limit) throws IOException {
        int status = runForStatus(starter, command, log, limit);
        if (status != 0) {
            throw new IOException(Path.of(command.get(runAs.size())).getFileName() + " failed with status " + status
                    + ": " + tail(log));
        }
    }

    private static int runForStatus(ProcessStarter starter, List<String> command, Path log, Duration limit)
            throws IOException {
        Process process = starter.start(command, CHILD_ENVIRONMENT, log);
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(command.get(0) + " did not end within " + limit.toSeconds() + " s");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
    }

    /**
     * The server account's user and group ids, the account created first if it is missing. Two labs creating it at
     * once are fine: the loser's {@code useradd} fails and the ids are read again. The account gets no comment:
     * useradd refuses one holding {@code :}, the separator of the account database, and nothing reads it.
     */
    static long[] ensureAccount(ProcessStarter starter, Path folder, String account) throws IOException {
        Path log = folder.resolve("account.log");
        if (runForStatus(starter, List.of(program("id"), "-u", account), log, Duration.ofSeconds(10)) != 0) {
            Files.deleteIfExists(log);
            int status = runForStatus(starter, List.of(program("useradd"), "--system", "--no-create-home",
                    "--user-group", "--shell", "/usr/sbin/nologin", account), log, Duration.ofSeconds(30));
            // 9: another lab created it first; a lab that lost the race for the account files' lock gets another
            // status while the winner's account exists: either way, an account that exists now is the one to use.
            if (status != 0 && status != 9
                    && runForStatus(starter, List.of(program("id"), "-u", account), log, Duration.ofSeconds(10)) != 0) {
                throw new IOException("cannot create the account " + account + " to run PostgreSQL as (useradd status "
                        + status + "): " + tail(log));
            }
        }
        Files.deleteIfExists(log);
        long uid = idOf(starter, "-u", account, log);
        long gid = idOf(starter, "-g", account, log);
        if (uid == 0) {
            throw new IOException("the account " + account + " has user id 0; PostgreSQL will not run as root");
        }
        return new long[] {uid, gid};
    }

    private static long idOf(ProcessStarter starter, String which, String account, Path log) throws IOException {
        Files.deleteIfExists(log);
        if (runForStatus(starter, List.of(program("id"), which, account), log, Duration.ofSeconds(10)) != 0) {
            throw new IOException("cannot read the ids of " + account + ": " + tail(log));
        }
        try {
            return Long.parseLong(Files.readString(log).trim());
        } catch (NumberFormatException e) {
            throw new IOException("id " + which + " " + account + " printed no number: " + tail(log), e);
        }
    }

    private static void giveToAccount(Path path, String account) throws IOException {
        UserPrincipalLookupService lookup = path.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        view.setOwner(lookup.lookupPrincipalByName(account));
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(account);
        view.setGroup(group);
    }

    private static boolean isRoot() throws IOException {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return uid instanceof Integer id && id == 0;
    }

    private static String program(String name) throws IOException {
        for (String folder : PROGRAM_FOLDERS) {
            Path candidate = Path.of(folder, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new IOException(name + " is not installed (looked in " + String.join(", ", PROGRAM_FOLDERS)
                + "); it is needed to run PostgreSQL as an unprivileged user");
    }

    private static void writePrivate(Path file, byte[] content) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(file, content);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void checkSchema(String schema) {
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("a ledger schema name is 1 to 63 of a-z, 0-9 and _, not starting with a digit");
        }
    }

    /** The last lines of a log, for an error message (PostgreSQL's logs hold no password). */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
