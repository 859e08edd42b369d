package lab.continuationreplay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH, benchmark 2's floor: a bare JDBC loop committing one row per {@code BEGIN IMMEDIATE} transaction on an SQLite
 * file with the ledger's durability settings (WAL, synchronous FULL, busy timeout, foreign keys), in the folder
 * {@code dir} (the same file system as the ledger runs). Also, for the profile, the ledger's own apply in one thread.
 */
public class LedgerJmh {

    @State(Scope.Benchmark)
    public static class BareLoop {
        @Param("")
        public String dir;
        Connection connection;
        PreparedStatement insert;
        long row;

        @Setup(Level.Trial)
        public void open() throws Exception {
            Path file = Files.createTempFile(Files.createDirectories(Path.of(dir)), "bare-", ".sqlite3");
            Properties properties = new Properties();
            properties.setProperty("busy_timeout", Integer.toString(IssueLedger.DEFAULT_BUSY_TIMEOUT_MS));
            properties.setProperty("foreign_keys", "true");
            properties.setProperty("synchronous", "FULL");
            connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
            try (Statement statement = connection.createStatement()) {
                try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode=WAL")) {
                    if (!mode.next() || !"wal".equalsIgnoreCase(mode.getString(1))) {
                        throw new IllegalStateException("no WAL journal on " + file);
                    }
                }
                statement.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, operation_id TEXT NOT NULL, body TEXT NOT NULL)");
            }
            insert = connection.prepareStatement("INSERT INTO rows (operation_id, body) VALUES (?, ?)");
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            connection.close();
        }
    }

    @State(Scope.Benchmark)
    public static class OneLedger {
        @Param("")
        public String dir;
        IssueLedger ledger;
        Deadlines deadlines;
        long next;

        @Setup(Level.Trial)
        public void open() throws Exception {
            Path file = Files.createTempFile(Files.createDirectories(Path.of(dir)), "ledger-", ".sqlite3");
            Files.delete(file);
            ledger = IssueLedger.open(file, WireSettings.BACKEND);
            deadlines = Deadlines.of(WireSettings.T0, WireSettings.T0 + 300, WireSettings.T0 + 360);
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            ledger.close();
        }
    }

    /** One durable commit of one row: the physical floor of a commit on this file system. */
    @Benchmark
    public long bareCommit(BareLoop state) throws SQLException {
        try (Statement statement = state.connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            state.insert.setString(1, "bare-" + state.row++);
            state.insert.setString(2, "alpha");
            state.insert.executeUpdate();
            statement.execute("COMMIT");
        }
        return state.row;
    }

    /** One distinct atomic operation applied through the ledger (ledger row, issue row, applied transition). */
    @Benchmark
    public ApplyResult ledgerApply(OneLedger state) throws SQLException {
        OperationIdentity identity = new OperationIdentity("jmh-" + state.next++, "alice", WireSettings.BACKEND);
        return state.ledger.applyIssueOnce(ApplyRequest.at(identity, LedgerWorker.FINGERPRINT, "bench", "alpha",
                state.deadlines, WireSettings.T0), FaultHook.NONE);
    }
}
