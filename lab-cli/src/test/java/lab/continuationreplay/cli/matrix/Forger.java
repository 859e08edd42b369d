package lab.continuationreplay.cli.matrix;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.ControlsCheck;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

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
        rehash(attempt, Layout.caseFolder(caseId));
        Files.delete(attempt.resolve(Layout.RESULTS));
        Files.delete(attempt.resolve(Layout.SUMMARY));
        AttemptCheck.deriveAndWrite(attempt);
    }

    /** Re-seals one control of a matrix folder after its artifacts were changed, controls.json derived again. */
    static void resealControl(Path matrixFolder, String control) throws Exception {
        Path controls = matrixFolder.resolve(Layout.CONTROLS);
        rehash(controls, control);
        Files.delete(controls.resolve(Layout.CONTROLS_FILE));
        ControlsCheck.deriveAndWrite(matrixFolder);
    }

    /** Gives {@code folder}'s line in {@code dir}'s history.jsonl the hashes of the folder as it is now. */
    private static void rehash(Path dir, String folder) throws Exception {
        Path log = dir.resolve(Layout.HISTORY);
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        Path attempt = dir;
        boolean found = false;
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode line = (ObjectNode) ExactJson.parse(lines.get(i));
            if (folder.equals(line.path("folder").asText())) {
                line.set("artifact_hashes", ExactJson.mapper().valueToTree(
                        new TreeMap<>(ArtifactHashes.of(attempt.resolve(folder), attempt))));
                lines.set(i, CanonicalJson.canonical(line));
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException(log + " has no line for " + folder);
        }
        Files.write(log, lines);
    }

    /** Runs SQL against a case folder's evidence database (sealed: one file, journal mode DELETE). */
    static void sql(Path caseFolder, String statement) throws Exception {
        try (var db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + caseFolder.resolve(Layout.DATABASE));
                var s = db.createStatement()) {
            s.executeUpdate(statement);
        }
    }
}
