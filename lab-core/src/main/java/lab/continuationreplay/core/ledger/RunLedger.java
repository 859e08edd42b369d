package lab.continuationreplay.core.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

/**
 * Which ledger a run's servers use, case folder by case folder: a SQLite file in the folder (the default; the
 * servers' {@code WIRE_SERVER_DB}), or a fresh schema of a PostgreSQL server per folder ({@code WIRE_LEDGER_URL}).
 * After a case, {@link #seal} leaves the ledger's evidence in the folder.
 */
public sealed interface RunLedger permits SqliteRunLedger, PostgresRunLedger {
    RunLedger SQLITE = new SqliteRunLedger();

    /** {@code sqlite} or {@code postgres}: the {@code --ledger} value. */
    String label();

    /**
     * The variables that point a server process of the case in {@code caseFolder} at its ledger, to lay over its
     * {@code WIRE_*} environment; names mapped to null are to be removed. Every process of one folder gets the same.
     */
    Map<String, String> environment(Path caseFolder) throws SQLException;

    /** After the case: its ledger as evidence in the folder (the sealed SQLite file, or the rows' dump). */
    void seal(Path caseFolder) throws SQLException, IOException;
}
