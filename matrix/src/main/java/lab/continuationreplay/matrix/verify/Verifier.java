package lab.continuationreplay.matrix.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.evidence.Artifacts;
import lab.continuationreplay.matrix.evidence.CaseFacts;
import lab.continuationreplay.matrix.run.CaseRecord;
import lab.continuationreplay.matrix.run.MatrixRunner;
import lab.continuationreplay.matrix.run.Summary;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Re-derives an attempt from its artifacts alone and checks it agrees with what the run wrote: one record per
 * requested case and no other, every artifact hash, the row and wire facts, the outcome, the predicate, the summary.
 * It trusts nothing the run concluded.
 */
public final class Verifier {
    /** The verdict on one SDK's attempt folder. */
    public record Verdict(String sdk, int requested, int executed, int passed, List<String> problems, List<JsonNode> records) {
        public boolean ok() {
            return problems.isEmpty() && passed == requested;
        }
    }

    private Verifier() {}

    /**
     * Verifies an attempt against the frozen {@code known} cases: the attempt's {@code requested.json} names which of
     * them it was asked to run, and each must match a frozen case id and classification.
     */
    public static Verdict verify(Path attempt, List<MatrixCase> known) throws Exception {
        String sdk = attempt.getFileName().toString();
        List<String> problems = new ArrayList<>();
        List<MatrixCase> cases = new ArrayList<>();
        Path requested = attempt.resolve(MatrixRunner.REQUESTED);
        if (!Files.exists(requested)) {
            return new Verdict(sdk, known.size(), 0, 0, List.of("missing " + requested), List.of());
        }
        for (JsonNode entry : ExactJson.parse(Files.readString(requested))) {
            MatrixCase frozen = known.stream().filter(c -> c.id().equals(entry.path("id").asText())).findFirst().orElse(null);
            if (frozen == null || !frozen.expected().equals(entry.path("expected").asText())) {
                problems.add("requested case " + entry + " is not a frozen case");
            } else {
                cases.add(frozen);
            }
        }
        Path results = attempt.resolve(MatrixRunner.RESULTS);
        if (!Files.exists(results)) {
            return new Verdict(sdk, cases.size(), 0, 0, List.of("missing " + results), List.of());
        }
        List<String> lines = Files.readAllLines(results);
        List<JsonNode> records = new ArrayList<>();
        for (String line : lines) {
            records.add(ExactJson.parse(line));
        }
        if (records.size() != cases.size()) {
            problems.add(records.size() + " records for " + cases.size() + " requested cases");
        }
        int passed = 0;
        for (int i = 0; i < Math.min(records.size(), cases.size()); i++) {
            MatrixCase matrixCase = cases.get(i);
            JsonNode stored = records.get(i);
            String id = matrixCase.id();
            if (!id.equals(stored.path("case_id").asText()) || !matrixCase.expected().equals(stored.path("expected").asText())) {
                problems.add("record " + (i + 1) + " is not case " + id + " / " + matrixCase.expected());
                continue;
            }
            Path folder = attempt.resolve("case-" + id);
            Map<String, String> hashes = Artifacts.hashes(folder, attempt);
            if (!ExactJson.mapper().valueToTree(hashes).equals(stored.path("artifact_hashes"))) {
                problems.add("case " + id + ": artifacts differ from their recorded hashes");
                continue;
            }
            JsonNode machinery = stored.get("machinery_error");
            JsonNode recomputed = CaseRecord.of(matrixCase, stored.path("sdk").asText(), CaseFacts.read(id, folder), hashes,
                    machinery == null ? null : machinery.asText());
            if (!CanonicalJson.canonical(recomputed).equals(lines.get(i))) {
                problems.add("case " + id + ": facts recomputed from the artifacts differ from the record");
            }
            if (!"pass".equals(recomputed.path("status").asText())) {
                problems.add("case " + id + ": " + recomputed.path("status").asText() + " " + recomputed.path("violations"));
            } else {
                passed++;
            }
        }
        Path summary = attempt.resolve(MatrixRunner.SUMMARY);
        String expectedSummary = Summary.summaryJson(cases.size(), records);
        if (!Files.exists(summary) || !Files.readString(summary).equals(expectedSummary)) {
            problems.add("SUMMARY.json does not match the records");
        }
        return new Verdict(sdk, cases.size(), records.size(), passed, List.copyOf(problems), List.copyOf(records));
    }
}
