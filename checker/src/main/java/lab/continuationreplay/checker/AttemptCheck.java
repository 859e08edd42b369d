package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * Derives an attempt's verdict from its history alone: {@code requested.json} (what was asked), {@code history.jsonl}
 * (what the runner says it filled, with hashes), and each case folder (transcripts, database, exits). The runner's
 * word counts for nothing but the hashes, and those are checked against the files. {@link #deriveAndWrite} is what
 * {@code lab matrix} runs after the runner; {@link #verify} is what {@code lab verify} runs on a published folder.
 */
public final class AttemptCheck {
    private AttemptCheck() {}

    /** The verdict from the history, written as {@code results.jsonl} and {@code SUMMARY.json} (never over existing ones). */
    public static Verdict deriveAndWrite(Path attempt) throws IOException {
        Verdict verdict = derive(attempt);
        for (String file : List.of(Layout.RESULTS, Layout.SUMMARY)) {
            if (Files.exists(attempt.resolve(file))) {
                throw new IllegalArgumentException(attempt.resolve(file) + " already exists; a derived file is never overwritten");
            }
        }
        StringBuilder lines = new StringBuilder();
        verdict.records().forEach(r -> lines.append(CanonicalJson.canonical(r)).append('\n'));
        Files.writeString(attempt.resolve(Layout.RESULTS), lines.toString(), StandardCharsets.UTF_8);
        Files.writeString(attempt.resolve(Layout.SUMMARY), summaryJson(verdict.requested(), verdict.records()), StandardCharsets.UTF_8);
        return verdict;
    }

    /**
     * The verdict from the history, and whether the {@code results.jsonl} and {@code SUMMARY.json} the folder holds
     * say the same: a published result that the history does not support is a problem.
     */
    public static Verdict verify(Path attempt) throws IOException {
        String name = attempt.getFileName().toString();
        Path results = attempt.resolve(Layout.RESULTS);
        if (!Files.exists(attempt.resolve(Layout.REQUESTED))) {
            return Verdict.refused(name, Judge.of(name).known(), List.of("missing " + attempt.resolve(Layout.REQUESTED)));
        }
        // Every document's format first, so an older run hears about each of them before any of their content counts.
        List<String> formatProblems = new ArrayList<>();
        header(attempt, formatProblems);
        List<String> lines = Files.exists(results) ? Files.readAllLines(results, StandardCharsets.UTF_8) : List.of();
        List<String> refusedRecords = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            try {
                Judge.of(name).format().read(lines.get(i), name + "/" + Layout.RESULTS + ": record " + (i + 1));
            } catch (FormatException e) {
                refusedRecords.add(e.getMessage());
            }
        }
        if (!refusedRecords.isEmpty()) {
            formatProblems.add(refusedRecords.get(0));
        }
        if (refusedRecords.size() > 1) {
            formatProblems.add(name + "/" + Layout.RESULTS + ": " + (refusedRecords.size() - 1) + " more records refused for their format");
        }
        if (!formatProblems.isEmpty()) {
            return Verdict.refused(name, Judge.of(name).known(), formatProblems);
        }
        Verdict derived = derive(attempt);
        if (!Files.exists(results)) {
            return with(derived, "missing " + name + "/" + Layout.RESULTS);
        }
        List<String> problems = new ArrayList<>(derived.problems());
        if (lines.size() != derived.records().size()) {
            problems.add(lines.size() + " records in " + Layout.RESULTS + " for " + derived.records().size() + " cases in the history");
        }
        for (int i = 0; i < Math.min(lines.size(), derived.records().size()); i++) {
            JsonNode record = derived.records().get(i);
            if (!CanonicalJson.canonical(record).equals(lines.get(i))) {
                problems.add("case " + record.path("case_id").asText() + ": " + Layout.RESULTS
                        + " differs from the record derived from the history");
            }
        }
        Path summary = attempt.resolve(Layout.SUMMARY);
        if (!Files.exists(summary) || !Files.readString(summary).equals(summaryJson(derived.requested(), derived.records()))) {
            problems.add(Layout.SUMMARY + " does not match the history");
        }
        return new Verdict(name, derived.requested(), derived.executed(), derived.passed(), problems, derived.records());
    }

    /** The verdict on an attempt, from its history alone; writes nothing. */
    public static Verdict derive(Path attempt) throws IOException {
        String name = attempt.getFileName().toString();
        Judge judge = Judge.of(name);
        if (!Files.exists(attempt.resolve(Layout.REQUESTED))) {
            return Verdict.refused(name, judge.known(), List.of("missing " + attempt.resolve(Layout.REQUESTED)));
        }
        List<String> formatProblems = new ArrayList<>();
        Header header = header(attempt, formatProblems);
        if (!formatProblems.isEmpty()) {
            return Verdict.refused(name, judge.known(), formatProblems);
        }
        Map<String, RunLog.Entry> history = header.history();
        List<String> problems = new ArrayList<>();
        List<String> cases = new ArrayList<>();
        for (JsonNode entry : header.requested()) {
            String id = judge.caseId(entry);
            if (id == null) {
                problems.add("requested case " + entry + " " + judge.refusal());
            } else if (cases.contains(id)) {
                // one case folder cannot be two runs of it: counted twice, one pass would read as two
                problems.add("requested case " + entry + " is requested twice");
            } else {
                cases.add(id);
            }
        }
        unrequested(attempt, cases, history, problems);
        List<JsonNode> records = new ArrayList<>();
        int passed = 0;
        for (String id : cases) {
            RunLog.Entry entry = history.get(Layout.caseFolder(id));
            if (entry == null) {
                problems.add("case " + id + ": " + Layout.HISTORY + " has no line for it (the run stopped before it ended)");
                continue;
            }
            JsonNode record = caseRecord(judge, attempt, id, entry, problems);
            if (record == null) {
                continue;
            }
            records.add(record);
            String status = record.path("status").asText();
            if (CaseRecord.Status.PASS.wire().equals(status)) {
                passed++;
            } else if (!CaseRecord.Status.EXPECTED_FAILURE.wire().equals(status)) {
                problems.add("case " + id + ": " + status + " " + record.path("violations")
                        + (entry.ranToTheEnd() ? "" : " (machinery error: " + entry.machineryError() + ")"));
            }
        }
        return new Verdict(name, cases.size(), records.size(), passed, problems, records);
    }

    /** A folder or a history line of a case nobody requested is a problem: a run adds nothing it was not asked for. */
    private static void unrequested(Path attempt, List<String> cases, Map<String, RunLog.Entry> history, List<String> problems)
            throws IOException {
        Set<String> expectedFolders = new LinkedHashSet<>();
        cases.forEach(id -> expectedFolders.add(Layout.caseFolder(id)));
        for (String folder : history.keySet()) {
            if (!expectedFolders.contains(folder)) {
                problems.add(Layout.HISTORY + " records " + folder + ", which was not requested");
            }
        }
        try (Stream<Path> entries = Files.list(attempt)) {
            entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(f -> f.startsWith("case-") && !expectedFolders.contains(f)).sorted()
                    .forEach(f -> problems.add(f + "/ is in the attempt but was not requested"));
        }
    }

    /** One case's record from its folder, once its hashes match the history's; null (and a problem) otherwise. */
    private static JsonNode caseRecord(Judge judge, Path attempt, String id, RunLog.Entry entry, List<String> problems) throws IOException {
        Path folder = attempt.resolve(Layout.caseFolder(id));
        Map<String, String> hashes = ArtifactHashes.of(folder, attempt);
        if (!hashes.equals(entry.artifactHashes())) {
            problems.add("case " + id + ": artifacts differ from the hashes the run recorded in " + Layout.HISTORY);
            return null;
        }
        try {
            return judge.record(id, folder, hashes, entry.machineryError());
        } catch (FormatException | java.sql.SQLException e) {
            problems.add("case " + id + ": " + e.getMessage());
            return null;
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("case " + id + ": " + e.getMessage(), e);
        }
    }

    private record Header(JsonNode requested, Map<String, RunLog.Entry> history) {}

    /** requested.json and history.jsonl, each checked for its format; a problem line per document refused. */
    private static Header header(Path attempt, List<String> formatProblems) throws IOException {
        String name = attempt.getFileName().toString();
        JsonNode requested = null;
        Path requestedFile = attempt.resolve(Layout.REQUESTED);
        try {
            requested = Format.REQUESTED.read(Files.readString(requestedFile), name + "/" + Layout.REQUESTED).path("cases");
            if (!requested.isArray()) {
                throw new FormatException(name + "/" + Layout.REQUESTED + " has no \"cases\" array");
            }
        } catch (FormatException e) {
            formatProblems.add(e.getMessage());
        }
        Map<String, RunLog.Entry> history = null;
        try {
            history = RunLog.read(attempt.resolve(Layout.HISTORY), name + "/" + Layout.HISTORY);
        } catch (FormatException e) {
            formatProblems.add(e.getMessage());
        }
        return new Header(requested, history);
    }

    /** {@code SUMMARY.json}, byte-compatible with the seed's. */
    public static String summaryJson(int requested, List<JsonNode> records) {
        long passed = records.stream().filter(r -> CaseRecord.Status.PASS.wire().equals(r.path("status").textValue())).count();
        return "{\n  \"executed\": " + records.size() + ",\n  \"passed\": " + passed + ",\n  \"requested\": " + requested + "\n}\n";
    }

    private static Verdict with(Verdict verdict, String problem) {
        List<String> problems = new ArrayList<>(verdict.problems());
        problems.add(problem);
        return new Verdict(verdict.name(), verdict.requested(), verdict.executed(), verdict.passed(), problems, verdict.records());
    }
}
