package lab.continuationreplay.matrix.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
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
     * them it was asked to run, and each must match a frozen case id and classification. Every document is checked for
     * its format before anything in it is read: an attempt written by an older lab, or by another version of it, is
     * refused with one problem line naming the file and the version, never read as if it were this lab's.
     */
    public static Verdict verify(Path attempt, List<MatrixCase> known) throws Exception {
        String sdk = attempt.getFileName().toString();
        List<String> problems = new ArrayList<>();
        List<MatrixCase> cases = new ArrayList<>();
        Path requested = attempt.resolve(MatrixRunner.REQUESTED);
        if (!Files.exists(requested)) {
            return new Verdict(sdk, known.size(), 0, 0, List.of("missing " + requested), List.of());
        }
        Path results = attempt.resolve(MatrixRunner.RESULTS);
        // Both documents' formats first, so an older run hears about each of them, before any of their content counts.
        List<String> formatProblems = new ArrayList<>();
        JsonNode requestedCases = requestedCases(requested, sdk, formatProblems);
        List<String> lines = Files.exists(results) ? Files.readAllLines(results) : null;
        List<JsonNode> records = lines == null ? List.of() : records(lines, sdk, formatProblems);
        if (!formatProblems.isEmpty()) {
            return new Verdict(sdk, known.size(), 0, 0, List.copyOf(formatProblems), List.of());
        }
        for (JsonNode entry : requestedCases) {
            MatrixCase frozen = known.stream().filter(c -> c.id().equals(entry.path("id").asText())).findFirst().orElse(null);
            if (frozen == null || !frozen.expected().equals(entry.path("expected").asText())) {
                problems.add("requested case " + entry + " is not a frozen case");
            } else {
                cases.add(frozen);
            }
        }
        if (lines == null) {
            return new Verdict(sdk, cases.size(), 0, 0, List.of("missing " + results), List.of());
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
            CaseFacts facts;
            try {
                facts = CaseFacts.read(id, folder);
            } catch (FormatException e) {
                problems.add(e.getMessage());
                continue;
            }
            JsonNode machinery = stored.get("machinery_error");
            JsonNode recomputed = CaseRecord.of(matrixCase, stored.path("sdk").asText(), facts, hashes,
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

    /** The requested cases, or null (and a problem line) when requested.json is not one this checker reads. */
    private static JsonNode requestedCases(Path requested, String sdk, List<String> formatProblems) throws IOException {
        String where = sdk + "/" + MatrixRunner.REQUESTED;
        try {
            JsonNode cases = Format.REQUESTED.read(Files.readString(requested), where).path("cases");
            if (!cases.isArray()) {
                throw new FormatException(where + " has no \"cases\" array");
            }
            return cases;
        } catch (FormatException e) {
            formatProblems.add(e.getMessage());
            return null;
        }
    }

    /**
     * Every record of results.jsonl whose format this checker reads. An older run refuses every record the same way,
     * so the first refusal is the problem line and a count stands for the rest.
     */
    private static List<JsonNode> records(List<String> lines, String sdk, List<String> formatProblems) {
        String file = sdk + "/" + MatrixRunner.RESULTS;
        List<JsonNode> records = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            try {
                records.add(Format.RESULTS.read(lines.get(i), file + ": record " + (i + 1)));
            } catch (FormatException e) {
                refused.add(e.getMessage());
            }
        }
        if (!refused.isEmpty()) {
            formatProblems.add(refused.get(0));
        }
        if (refused.size() > 1) {
            formatProblems.add(file + ": " + (refused.size() - 1) + " more records refused for their format");
        }
        return records;
    }
}
