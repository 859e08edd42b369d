package lab.continuationreplay.containers;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.checker.FolderCheck;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * What the host concludes about one runtime cell's matrix folder, written inside a container: every attempt verified
 * again from its artifacts alone ({@link Verifier}, trusting nothing the container concluded), the SDKs' outcomes
 * compared from the verified records, and the runtimes the attempts recorded checked against the cell's name.
 */
public record CellVerdict(
        RuntimeCell cell,
        String image,
        int exitCode,
        double wallSeconds,
        Path folder,
        String javaVersion,
        String javaVm,
        String nodeVersion,
        Map<String, Verdict> attempts,
        boolean outcomesAgree,
        List<String> problems) {

    public boolean ok() {
        return problems.isEmpty();
    }

    public Verdict attempt(String name) {
        return attempts.get(name);
    }

    /** Verifies {@code folder} (the cell's {@code /out}) after its container exited with {@code exitCode}. */
    public static CellVerdict of(RuntimeCell cell, String image, int exitCode, double wallSeconds, Path folder) throws Exception {
        List<String> problems = new ArrayList<>();
        if (exitCode != 0) {
            problems.add("the container exited " + exitCode);
        }
        Map<String, Verdict> attempts = Files.isDirectory(folder) ? FolderCheck.verify(folder) : Map.of();
        if (attempts.isEmpty()) {
            problems.add("no attempt in " + folder);
        }
        attempts.forEach((name, verdict) -> {
            verdict.problems().forEach(p -> problems.add(name + ": " + p));
            if (verdict.problems().isEmpty() && verdict.passed() != verdict.requested()) {
                problems.add(name + ": passed " + verdict.passed() + " of " + verdict.requested());
            }
        });
        boolean agree = outcomesAgree(attempts, problems);
        JsonNode first = firstProvenance(cell, folder, attempts, problems);
        return new CellVerdict(cell, image, exitCode, wallSeconds, folder, first.path("java_version").asText(null),
                first.path("java_vm").asText(null), first.path("node_version").asText(null), attempts, agree, List.copyOf(problems));
    }

    /**
     * Whether every SDK column the cell played gives the first column's outcome for every case; each case that differs
     * is added to {@code problems}.
     */
    private static boolean outcomesAgree(Map<String, Verdict> attempts, List<String> problems) {
        boolean agree = true;
        Map<String, String> reference = null;
        String referenceName = null;
        for (String sdk : InContainerMatrix.SDKS_IN_IMAGES) {
            if (!attempts.containsKey(sdk)) {
                continue;
            }
            Map<String, String> these = outcomes(attempts.get(sdk));
            if (reference == null) {
                reference = these;
                referenceName = sdk;
                continue;
            }
            for (String id : reference.keySet()) {
                if (!reference.get(id).equals(these.get(id))) {
                    agree = false;
                    problems.add("case " + id + ": the SDKs' outcomes differ (" + referenceName + ", " + sdk + ")");
                }
            }
            agree &= reference.keySet().equals(these.keySet());
        }
        return agree;
    }

    /**
     * The first attempt's provenance (an empty object without one), after checking that the runtimes each attempt
     * recorded are the cell's; every mismatch, and every provenance of another format, is added to {@code problems}.
     */
    private static JsonNode firstProvenance(RuntimeCell cell, Path folder, Map<String, Verdict> attempts,
            List<String> problems) throws java.io.IOException {
        JsonNode first = null;
        for (String name : attempts.keySet()) {
            Path file = folder.resolve(name).resolve("provenance.json");
            JsonNode provenance = ExactJson.mapper().createObjectNode();
            if (Files.exists(file)) {
                try {
                    provenance = Format.PROVENANCE.read(Files.readString(file), name + "/provenance.json");
                } catch (FormatException e) {
                    // Runtimes read from a document of another format would be guesses; the cell fails on the format.
                    problems.add(e.getMessage());
                    continue;
                }
            }
            String java = provenance.path("java_version").asText(null);
            String node = provenance.path("node_version").asText(null);
            if (!cell.matches(java, node)) {
                problems.add(name + ": ran on Java " + java + " and Node.js " + node + ", not on " + cell);
            }
            first = first == null ? provenance : first;
        }
        return first == null ? ExactJson.mapper().createObjectNode() : first;
    }

    /** Case id to canonical outcome, from an attempt's verified records. */
    static Map<String, String> outcomes(Verdict verdict) {
        Map<String, String> outcomes = new TreeMap<>();
        verdict.records().forEach(r -> outcomes.put(r.path("case_id").asText(), CanonicalJson.canonical(r.path("outcome"))));
        return outcomes;
    }
}
