package lab.continuationreplay.cli.matrix;

import java.nio.file.Files;
import java.nio.file.Path;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.ControlsCheck;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.history.Layout;

/**
 * The strongest forger of matrix evidence the lab can imagine: after changing an artifact it makes the whole history
 * self-consistent again (the case's line in history.jsonl gets the forged files' hashes) and has the checker derive
 * results.jsonl and SUMMARY.json from the forged history, so nothing published disagrees with it. What is left to
 * catch it is the checker's judgement of the history itself: the predicate and the frozen outcome.
 */
final class Forger {
    private Forger() {}

    /** Re-seals one case of an attempt folder ({@code <out>/<sdk>/}) after its artifacts were changed. */
    static void reseal(Path attempt, String caseId) throws Exception {
        EvidenceCopies.rehash(attempt, Layout.caseFolder(caseId));
        Files.delete(attempt.resolve(Layout.RESULTS));
        Files.delete(attempt.resolve(Layout.SUMMARY));
        AttemptCheck.deriveAndWrite(attempt);
    }

    /** Re-seals one control of a matrix folder after its artifacts were changed, controls.json derived again. */
    static void resealControl(Path matrixFolder, String control) throws Exception {
        Path controls = matrixFolder.resolve(Layout.CONTROLS);
        EvidenceCopies.rehash(controls, control);
        Files.delete(controls.resolve(Layout.CONTROLS_FILE));
        ControlsCheck.deriveAndWrite(matrixFolder);
    }

    /** Runs SQL against a case folder's evidence database (sealed: one file, journal mode DELETE). */
    static void sql(Path caseFolder, String statement) throws Exception {
        try (var db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + caseFolder.resolve(Layout.DATABASE));
                var s = db.createStatement()) {
            s.executeUpdate(statement);
        }
    }
}
