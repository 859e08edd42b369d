package lab.continuationreplay.cli.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.cases.MatrixCases;
import lab.continuationreplay.matrix.evidence.Artifacts;
import lab.continuationreplay.matrix.evidence.CaseFacts;
import lab.continuationreplay.matrix.run.CaseRecord;
import lab.continuationreplay.matrix.run.MatrixRunner;
import lab.continuationreplay.matrix.run.Summary;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The strongest forger of matrix evidence the lab can imagine: after changing an artifact it makes the whole history
 * self-consistent again, as the runner would have written it (every hash, the case's record recomputed from the
 * forged artifacts, results.jsonl and SUMMARY.json). What is left to catch it is the checker's judgement of the
 * history itself: the predicate and the frozen outcome.
 */
final class Forger {
    private Forger() {}

    /** Re-seals one case of an attempt folder ({@code <out>/<sdk>/}) after its artifacts were changed. */
    static void reseal(Path attempt, String caseId) throws Exception {
        MatrixCase matrixCase = MatrixCases.all().stream().filter(c -> c.id().equals(caseId)).findFirst().orElseThrow();
        Path results = attempt.resolve(MatrixRunner.RESULTS);
        List<String> lines = new ArrayList<>(Files.readAllLines(results));
        List<JsonNode> records = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            JsonNode record = ExactJson.parse(lines.get(i));
            if (caseId.equals(record.path("case_id").asText())) {
                Path folder = attempt.resolve("case-" + caseId);
                Map<String, String> hashes = Artifacts.hashes(folder, attempt);
                record = CaseRecord.of(matrixCase, record.path("sdk").asText(), CaseFacts.read(caseId, folder), hashes, null);
                lines.set(i, CanonicalJson.canonical(record));
            }
            records.add(record);
        }
        Files.write(results, lines);
        Files.writeString(attempt.resolve(MatrixRunner.SUMMARY), Summary.summaryJson(records.size(), records));
    }

    /** Runs SQL against a case folder's evidence database (sealed: one file, journal mode DELETE). */
    static void sql(Path caseFolder, String statement) throws Exception {
        try (var db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + caseFolder.resolve("store.sqlite3"));
                var s = db.createStatement()) {
            s.executeUpdate(statement);
        }
    }
}
