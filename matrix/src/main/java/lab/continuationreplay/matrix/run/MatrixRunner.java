package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.evidence.Artifacts;
import lab.continuationreplay.matrix.evidence.CaseFacts;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Runs the cases against one SDK into {@code out/<sdk>/}: a {@code case-NN/} folder per case, then
 * {@code results.jsonl}, {@code SUMMARY.json}, {@code MATRIX.md} and {@code provenance.json}. Never overwrites.
 */
public final class MatrixRunner {
    public static final String RESULTS = "results.jsonl";
    public static final String SUMMARY = "SUMMARY.json";
    /** The cases this attempt was asked to run, written before the first one starts. */
    public static final String REQUESTED = "requested.json";

    private MatrixRunner() {}

    public static List<JsonNode> run(List<MatrixCase> cases, ServerKind sdk, Path out, Path home, PrintStream progress)
            throws Exception {
        return run(cases, sdk, sdk.label(), out, home, progress);
    }

    /** Runs into {@code out/<attemptName>/}; {@code sdk} serves every process the scripts do not place elsewhere. */
    public static List<JsonNode> run(List<MatrixCase> cases, ServerKind sdk, String attemptName, Path out, Path home,
            PrintStream progress) throws Exception {
        Path attempt = out.resolve(attemptName);
        if (Files.exists(attempt)) {
            throw new IllegalArgumentException(attempt + " already exists; an attempt folder is never overwritten");
        }
        Files.createDirectories(attempt);
        Files.writeString(attempt.resolve("provenance.json"),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(Provenance.of(sdk, home)) + "\n");
        ObjectNode requested = Format.REQUESTED.document();
        requested.set("cases", ExactJson.mapper().valueToTree(
                cases.stream().map(c -> java.util.Map.of("id", c.id(), "name", c.name(), "expected", c.expected())).toList()));
        Files.writeString(attempt.resolve(REQUESTED), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(requested) + "\n");
        List<JsonNode> records = new ArrayList<>();
        StringBuilder lines = new StringBuilder();
        for (MatrixCase matrixCase : cases) {
            long started = System.nanoTime();
            Path folder = attempt.resolve("case-" + matrixCase.id());
            String machineryError = CaseRun.execute(matrixCase, sdk, folder, home);
            long evidence = System.nanoTime();
            Artifacts.seal(folder.resolve(CaseContext.DATABASE));
            ObjectNode record = CaseRecord.of(matrixCase, attemptName, CaseFacts.read(matrixCase.id(), folder),
                    Artifacts.hashes(folder, attempt), machineryError);
            PhaseTimes.add(PhaseTimes.EVIDENCE, System.nanoTime() - evidence);
            records.add(record);
            lines.append(CanonicalJson.canonical(record)).append('\n');
            progress.printf("%-10s case %s %-42s %-15s %5d ms%n", attemptName, matrixCase.id(), matrixCase.name(),
                    record.path("status").asText(), (System.nanoTime() - started) / 1_000_000);
            for (JsonNode violation : record.path("violations")) {
                progress.println("           " + violation.asText());
            }
            if (machineryError != null) {
                progress.println("           machinery error: " + machineryError);
            }
        }
        Files.writeString(attempt.resolve(RESULTS), lines.toString());
        Files.writeString(attempt.resolve(SUMMARY), Summary.summaryJson(cases.size(), records));
        Files.writeString(attempt.resolve("MATRIX.md"), Summary.matrixMarkdown(attemptName, cases.size(), records));
        return records;
    }
}
