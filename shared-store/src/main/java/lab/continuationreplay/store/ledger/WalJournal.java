package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Switches a connection's file to the WAL journal. SQLite answers {@code SQLITE_BUSY} to
 * {@code PRAGMA journal_mode=WAL} without calling the busy handler when another connection is opening the same new
 * file at that moment (the switch needs a lock upgrade the handler cannot wait for without risking deadlock), so
 * the driver's own {@code journal_mode} property fails a few opens in a hundred under a race. This retries within
 * the caller's busy timeout instead.
 */
final class WalJournal {
    private static final long PAUSE_MS = 5;

    private WalJournal() {}

    static void enable(Connection connection, int busyTimeoutMs) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(busyTimeoutMs);
        while (true) {
            try (Statement statement = connection.createStatement();
                    ResultSet mode = statement.executeQuery("PRAGMA journal_mode=WAL")) {
                String now = mode.next() ? mode.getString(1) : null;
                if (!"wal".equalsIgnoreCase(now)) {
                    throw new SQLException("the ledger file cannot use the WAL journal (journal_mode is " + now + ")");
                }
                return;
            } catch (SQLiteException e) {
                if (!isBusy(e) || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting to enable the WAL journal", e);
            }
        }
    }

    private static boolean isBusy(SQLiteException e) {
        SQLiteErrorCode code = e.getResultCode();
        return code == SQLiteErrorCode.SQLITE_BUSY || code.name().startsWith("SQLITE_BUSY_")
                || code == SQLiteErrorCode.SQLITE_LOCKED;
    }
}
