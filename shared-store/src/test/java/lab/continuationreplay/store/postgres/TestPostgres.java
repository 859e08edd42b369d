package lab.continuationreplay.store.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * One embedded PostgreSQL per test JVM, started on first use (as {@value EmbeddedPostgres#ACCOUNT} when the tests
 * run as root) and stopped when the JVM exits; every ledger a test asks for is a fresh schema in it.
 */
public final class TestPostgres {
    private static final AtomicInteger LEDGERS = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TestPostgres() {}

    /** Children started the plain way: test code may construct a ProcessBuilder (the lab's main code may not). */
    public static final ProcessStarter STARTER = (command, environment, output) -> {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(environment);
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.redirectErrorStream(true);
        return builder.start();
    };

    public static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.start(STARTER);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "test-postgres-close"));
        }
        return server;
    }

    /** A new, empty ledger schema. */
    public static LedgerLocation.Postgres freshLedger() {
        String schema = "t" + ProcessHandle.current().pid() + "_" + LEDGERS.incrementAndGet();
        try {
            return server().createLedger(schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the ledger schema " + schema + ": " + e.getMessage(), e);
        }
    }
}
