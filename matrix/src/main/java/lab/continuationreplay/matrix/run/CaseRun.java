package lab.continuationreplay.matrix.run;

import java.nio.file.Path;
import java.sql.SQLException;
import lab.continuationreplay.cases.CaseScript;
import lab.continuationreplay.core.ledger.RunLedger;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;

/** Plays one script in its folder and seals its ledger's evidence; any exception is recorded as a machinery error, never hidden. */
public final class CaseRun {
    private CaseRun() {}

    /** Returns null when the script ran to the end, else a one-line description of what stopped it. */
    public static String execute(CaseScript script, ServerKind sdk, Path caseFolder, Path home) throws SQLException {
        return execute(script, sdk, caseFolder, home, Transport.STDIO, null);
    }

    /** As above over {@code transport}; {@code credentials} issues the bearer tokens over HTTP. */
    public static String execute(CaseScript script, ServerKind sdk, Path caseFolder, Path home, Transport transport,
            BearerCredentials credentials) throws SQLException {
        return execute(script, sdk, caseFolder, home, transport, credentials, RunLedger.SQLITE);
    }

    /** As above on {@code ledger}: the case's servers use it, and its evidence is sealed into the folder. */
    public static String execute(CaseScript script, ServerKind sdk, Path caseFolder, Path home, Transport transport,
            BearerCredentials credentials, RunLedger ledger) throws SQLException {
        return execute(script, caseFolder, ledger, folder -> new CaseContext(folder, sdk, home, transport, credentials, ledger));
    }

    /** As above on the steps {@code stage} opens for the folder (the stage's processes use {@code ledger}). */
    public static String execute(CaseScript script, Path caseFolder, RunLedger ledger, CaseStage stage) throws SQLException {
        long started = System.nanoTime();
        String error;
        try (CaseStage.Opened context = stage.open(caseFolder)) {
            script.run(context);
            error = null;
        } catch (Exception e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            PhaseTimes.add(PhaseTimes.CASE_SCRIPTS, System.nanoTime() - started);
        }
        try {
            ledger.seal(caseFolder);
        } catch (java.io.IOException e) {
            throw new SQLException("cannot write the ledger's evidence into " + caseFolder + ": " + e.getMessage(), e);
        }
        return error;
    }
}
