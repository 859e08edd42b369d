package lab.continuationreplay.core.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import lab.continuationreplay.history.Layout;

/** Today's ledger: {@code store.sqlite3} in each case folder, which the settings already name. */
final class SqliteRunLedger implements RunLedger {
    private static final java.time.Duration SEAL_PATIENCE = java.time.Duration.ofSeconds(10);

    @Override
    public String label() {
        return "sqlite";
    }

    @Override
    public Map<String, String> environment(Path caseFolder) {
        return Map.of();
    }

    /**
     * Folds the write-ahead log into the database file and switches the journal off WAL, so the evidence is one file
     * that opens read-only anywhere. Changes no row.
     */
    @Override
    public void seal(Path caseFolder) throws SQLException {
        seal(caseFolder, SEAL_PATIENCE);
    }

    /** As above, trying again for {@code patience} at most. */
    void seal(Path caseFolder, java.time.Duration patience) throws SQLException {
        Path database = caseFolder.resolve(Layout.DATABASE);
        if (!Files.exists(database)) {
            return;
        }
        // Leaving WAL needs the file to itself, and SQLite refuses at once, busy timeout or not, while any other
        // connection is open. A server the lab had to kill may leave a process that is still letting go of the file
        // (a fixture's bridge), so a refusal is tried again for a while before it is the run's error.
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
                    Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA busy_timeout=1000");
                statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                statement.execute("PRAGMA journal_mode=DELETE");
                return;
            } catch (SQLException busy) {
                if (!busy.getMessage().contains("SQLITE_BUSY") || System.nanoTime() > deadline) {
                    throw new SQLException(busy.getMessage() + " sealing " + database + holders(database), busy);
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while sealing " + database, e);
            }
        }
    }

    /** Which processes still hold the file open (read from /proc), for the error's message; empty where unknown. */
    static String holders(Path database) {
        java.util.List<String> found = new java.util.ArrayList<>();
        Path proc = Path.of("/proc");
        try (java.util.stream.Stream<Path> processes = Files.list(proc)) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                if (!process.getFileName().toString().matches("[0-9]+")) {
                    continue;
                }
                try (java.util.stream.Stream<Path> fds = Files.list(process.resolve("fd"))) {
                    for (Path fd : (Iterable<Path>) fds::iterator) {
                        Path target = Files.readSymbolicLink(fd);
                        if (target.toString().startsWith(database.toAbsolutePath().toString())) {
                            String command = new String(Files.readAllBytes(process.resolve("cmdline"))).replace('\0', ' ').strip();
                            found.add(process.getFileName() + " (" + (command.length() > 120 ? command.substring(0, 120) + "..." : command) + ")");
                            break;
                        }
                    }
                } catch (java.io.IOException | RuntimeException gone) {
                    // ended meanwhile, or not ours to read
                }
            }
        } catch (java.io.IOException | RuntimeException noProc) {
            return "";
        }
        return found.isEmpty() ? "" : "; held open by " + String.join(", ", found);
    }
}
