package lab.continuationreplay.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.regex.Pattern;
import lab.continuationreplay.core.exec.Exec;

/**
 * Reads how many effects the server has committed so far. A reading that fails says why; the probe never guesses.
 */
interface EffectObserver {
    /** One reading; {@code copyAs} names the file a database copy goes to (under the history's folder). */
    Reading read(Path history, String copyAs);

    /** A count, or why there is none; {@code copy} is the kept database file, relative to the history folder. */
    record Reading(Long value, String error, String copy) {}

    static EffectObserver of(ProbeOptions.Observer observer) {
        if (observer instanceof ProbeOptions.Observer.ShellCount shell) {
            return (history, copyAs) -> shell(shell.command());
        }
        if (observer instanceof ProbeOptions.Observer.SqliteRows rows) {
            return (history, copyAs) -> sqlite(rows, history, copyAs);
        }
        return (history, copyAs) -> new Reading(null, null, null);
    }

    Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");
    Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private static Reading shell(String command) {
        try {
            Exec.Result result = Exec.command("sh", "-c", command).withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofSeconds(30));
            String out = result.output().strip();
            if (result.timedOut()) {
                return new Reading(null, "--effects-cmd did not end within 30 s", null);
            }
            if (result.exitStatus() != 0) {
                return new Reading(null, "--effects-cmd exited " + result.exitStatus() + ": " + abbreviated(out), null);
            }
            if (!INTEGER.matcher(out).matches()) {
                return new Reading(null, "--effects-cmd printed no integer: '" + abbreviated(out) + "'", null);
            }
            return new Reading(Long.parseLong(out), null, null);
        } catch (IOException e) {
            return new Reading(null, "--effects-cmd could not run: " + e.getMessage(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reading(null, "interrupted", null);
        }
    }

    private static Reading sqlite(ProbeOptions.Observer.SqliteRows rows, Path history, String copyAs) {
        if (!TABLE.matcher(rows.table()).matches()) {
            return new Reading(null, "--effects-sqlite: '" + rows.table() + "' is not a table name", null);
        }
        if (!Files.exists(rows.database())) {
            // A server may create its database with its first effect: none yet counts 0. A wrong file stays at 0 and
            // p1 (exactly one more after one call) stops the probe on it.
            return new Reading(0L, null, null);
        }
        if (!Files.isRegularFile(rows.database())) {
            return new Reading(null, "--effects-sqlite: " + rows.database() + " is not a file", null);
        }
        Properties readOnly = new Properties();
        readOnly.setProperty("open_mode", "1");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + rows.database(), readOnly);
                Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(30);
            if (!tableExists(statement, rows.table())) {
                return new Reading(0L, null, null); // created with the first effect, as the file may be
            }
            long count;
            try (ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM \"" + rows.table() + "\"")) {
                result.next();
                count = result.getLong(1);
            }
            // The copy is what the checker counts again: the reading is evidence, not the runner's word. It leaves
            // WAL mode, so reading it later creates no -wal or -shm file beside it.
            Path copy = history.resolve(copyAs);
            Files.createDirectories(copy.getParent());
            statement.executeUpdate("backup to '" + copy.toString().replace("'", "''") + "'");
            try (Connection kept = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement mode = kept.createStatement()) {
                mode.execute("PRAGMA journal_mode=DELETE");
            }
            return new Reading(count, null, history.relativize(copy).toString());
        } catch (SQLException | IOException e) {
            return new Reading(null, "--effects-sqlite " + rows.database() + " " + rows.table() + ": " + e.getMessage(), null);
        }
    }

    private static boolean tableExists(Statement statement, String table) throws SQLException {
        try (ResultSet found = statement.executeQuery("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")) {
            return found.next();
        }
    }

    private static String abbreviated(String text) {
        String line = text.replace('\n', ' ');
        return line.length() > 120 ? line.substring(0, 120) + "..." : line;
    }
}
