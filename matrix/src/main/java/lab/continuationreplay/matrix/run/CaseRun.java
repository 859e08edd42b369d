package lab.continuationreplay.matrix.run;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Files;
import lab.continuationreplay.cases.CaseScript;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.history.Layout;

/** Plays one script in its folder and seals its database; any exception is recorded as a machinery error, never hidden. */
public final class CaseRun {
    private CaseRun() {}

    /** Returns null when the script ran to the end, else a one-line description of what stopped it. */
    public static String execute(CaseScript script, ServerKind sdk, Path caseFolder, Path home) throws SQLException {
        return execute(script, sdk, caseFolder, home, Transport.STDIO, null);
    }

    /** As above over {@code transport}; {@code credentials} issues the bearer tokens over HTTP. */
    public static String execute(CaseScript script, ServerKind sdk, Path caseFolder, Path home, Transport transport,
            BearerCredentials credentials) throws SQLException {
        long started = System.nanoTime();
        String error;
        try (CaseContext context = new CaseContext(caseFolder, sdk, home, transport, credentials)) {
            script.run(context);
            error = null;
        } catch (Exception e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            PhaseTimes.add(PhaseTimes.CASE_SCRIPTS, System.nanoTime() - started);
        }
        seal(caseFolder.resolve(Layout.DATABASE));
        return error;
    }

    /**
     * Folds the write-ahead log into the database file and switches the journal off WAL, so the evidence is one file
     * that opens read-only anywhere. Changes no row.
     */
    public static void seal(Path database) throws SQLException {
        if (!Files.exists(database)) {
            return;
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
                Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            statement.execute("PRAGMA journal_mode=DELETE");
        }
    }
}
