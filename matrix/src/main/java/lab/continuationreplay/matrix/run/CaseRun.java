package lab.continuationreplay.matrix.run;

import java.nio.file.Path;
import java.sql.SQLException;
import lab.continuationreplay.cases.CaseScript;
import lab.continuationreplay.core.ledger.RunLedger;

/** Plays one script in its folder and seals its ledger's evidence; any exception is recorded as a machinery error, never hidden. */
public final class CaseRun {
    private CaseRun() {}

    /** Plays {@code script} in {@code caseFolder} on {@code setting}'s servers and ledger. */
    public static CaseOutcome execute(CaseScript script, Path caseFolder, CaseSetting setting) throws SQLException {
        return execute(script, caseFolder, setting.ledger(), setting.stage());
    }

    /** Plays {@code script} on the steps {@code stage} opens for the folder (the stage's processes use {@code ledger}). */
    public static CaseOutcome execute(CaseScript script, Path caseFolder, RunLedger ledger, CaseStage stage) throws SQLException {
        long started = System.nanoTime();
        CaseOutcome outcome;
        try (CaseStage.Opened context = stage.open(caseFolder)) {
            script.run(context);
            outcome = new CaseOutcome.Completed();
        } catch (Exception e) {
            outcome = new CaseOutcome.Stopped(e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            PhaseTimes.add(PhaseTimes.CASE_SCRIPTS, System.nanoTime() - started);
        }
        try {
            ledger.seal(caseFolder);
        } catch (java.io.IOException e) {
            throw new SQLException("cannot write the ledger's evidence into " + caseFolder + ": " + e.getMessage(), e);
        }
        return outcome;
    }
}
