package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.Control;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The controls' witnesses, from their history alone: per control, the issue rows its database holds against the
 * number its spec expects (duplicates, here, are the witness). The folder's hashes must match what the runner
 * recorded in {@code controls/history.jsonl}.
 */
public final class ControlsCheck {
    /** The witnesses ({@code controls.json}'s content, unstamped) and every problem found. */
    public record Witnesses(ObjectNode witnesses, List<String> problems) {
        public boolean allWitnessed() {
            return witnesses.path("all_witnessed").asBoolean() && problems.isEmpty();
        }
    }

    private ControlsCheck() {}

    /** The witnesses, written as {@code controls/controls.json} (never over an existing one). */
    public static Witnesses deriveAndWrite(Path matrixFolder) throws IOException {
        Witnesses derived = derive(matrixFolder);
        Path file = matrixFolder.resolve(Layout.CONTROLS).resolve(Layout.CONTROLS_FILE);
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " already exists; a derived file is never overwritten");
        }
        Files.writeString(file, ExactJson.mapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(Format.CONTROLS.stamp(derived.witnesses().deepCopy())) + "\n", StandardCharsets.UTF_8);
        return derived;
    }

    /** The witnesses from the history, and whether the folder's {@code controls.json} says the same. */
    public static Witnesses verify(Path matrixFolder) throws IOException {
        Witnesses derived = derive(matrixFolder);
        Path file = matrixFolder.resolve(Layout.CONTROLS).resolve(Layout.CONTROLS_FILE);
        List<String> problems = new ArrayList<>(derived.problems());
        try {
            if (!Files.exists(file)) {
                throw new FormatException("missing " + Layout.CONTROLS + "/" + Layout.CONTROLS_FILE);
            }
            ObjectNode written = Format.CONTROLS.read(Files.readString(file), Layout.CONTROLS + "/" + Layout.CONTROLS_FILE);
            if (!CanonicalJson.canonical(written).equals(CanonicalJson.canonical(Format.CONTROLS.stamp(derived.witnesses().deepCopy())))) {
                problems.add(Layout.CONTROLS + "/" + Layout.CONTROLS_FILE + " differs from the witnesses derived from the history");
            }
        } catch (FormatException e) {
            problems.add(e.getMessage());
        }
        return new Witnesses(derived.witnesses(), problems);
    }

    public static Witnesses derive(Path matrixFolder) throws IOException {
        Path controls = matrixFolder.resolve(Layout.CONTROLS);
        ObjectNode witnesses = JsonNodeFactory.instance.objectNode();
        List<String> problems = new ArrayList<>();
        Map<String, RunLog.Entry> history;
        try {
            history = RunLog.read(controls.resolve(Layout.HISTORY), Layout.CONTROLS + "/" + Layout.HISTORY);
        } catch (FormatException e) {
            witnesses.put("all_witnessed", false);
            return new Witnesses(witnesses, List.of(e.getMessage()));
        }
        boolean all = true;
        for (Control control : Control.values()) {
            ObjectNode witness = witnesses.putObject(control.folder());
            RunLog.Entry entry = history.get(control.folder());
            Path folder = controls.resolve(control.folder());
            long issues = -1;
            String problem = null;
            if (entry == null) {
                problem = "control " + control.folder() + ": " + Layout.HISTORY + " has no line for it";
            } else if (!ArtifactHashes.of(folder, controls).equals(entry.artifactHashes())) {
                problem = "control " + control.folder() + ": artifacts differ from the hashes the run recorded";
            } else {
                try {
                    issues = StoreRows.count(Layout.ledgerEvidence(folder), "issues");
                } catch (SQLException e) {
                    problem = "control " + control.folder() + ": " + e.getMessage();
                }
            }
            boolean witnessed = problem == null && entry.ranToTheEnd() && issues == control.expectedIssues();
            witness.put("issues", issues);
            witness.put("expected_issues", control.expectedIssues());
            witness.put("witnessed", witnessed);
            if (entry != null && !entry.ranToTheEnd()) {
                witness.put("machinery_error", entry.machineryError());
            }
            if (problem != null) {
                problems.add(problem);
            } else if (!witnessed) {
                problems.add("control " + control.folder() + ": " + issues + " issues, expected " + control.expectedIssues()
                        + (entry.ranToTheEnd() ? "" : " (machinery error: " + entry.machineryError() + ")"));
            }
            all &= witnessed;
        }
        for (String folder : history.keySet()) {
            if (java.util.Arrays.stream(Control.values()).noneMatch(c -> c.folder().equals(folder))) {
                problems.add(Layout.CONTROLS + "/" + Layout.HISTORY + " records " + folder + ", which is no control");
            }
        }
        witnesses.put("all_witnessed", all);
        return new Witnesses(witnesses, problems);
    }

    /** The witnesses as a verdict line: four controls requested, each one passed when witnessed. */
    public static Verdict asVerdict(Witnesses w) {
        int witnessed = 0;
        int executed = 0;
        for (Control control : Control.values()) {
            JsonNode witness = w.witnesses().path(control.folder());
            executed += witness.path("issues").asLong(-1) >= 0 ? 1 : 0;
            witnessed += witness.path("witnessed").asBoolean() ? 1 : 0;
        }
        return new Verdict(Layout.CONTROLS, Control.values().length, executed, witnessed, w.problems(), List.of());
    }
}
