package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;

/** Writes {@code faults.json} (every figure) and {@code FAULTS.md} (one table row per experiment, transport and scope). */
public final class FaultsReport {
    public static final String JSON = "faults.json";
    public static final String MARKDOWN = "FAULTS.md";

    private FaultsReport() {}

    public static ObjectNode toJson(FaultSession session, List<ExperimentReport> reports) {
        return toJson(session, reports, Map.of(), Map.of());
    }

    /**
     * As above, with the parts of experiments that do not apply to the run's ledger ({@code notApplicable}: experiment
     * name → part → reason), listed as {@code not_applicable} so nothing is dropped silently, and the problems the
     * faults checker derived from the run's history ({@code derived}: {@code experiment (transport)} → problems), which
     * decide each verdict with the experiment's own findings.
     */
    public static ObjectNode toJson(FaultSession session, List<ExperimentReport> reports,
            Map<String, Map<String, String>> notApplicable, Map<String, List<String>> derived) {
        ObjectNode root = Format.FAULTS.document();
        root.put("quick", session.quick());
        root.put("seed", session.seed());
        ArrayNode sdks = root.putArray("sdks");
        session.sdks().forEach(sdk -> sdks.add(sdk.label()));
        ArrayNode transports = root.putArray("transports");
        session.transports().forEach(t -> transports.add(t.label()));
        root.put("ledger", session.ledger().label());
        ArrayNode skipped = root.putArray("not_applicable");
        notApplicable.forEach((experiment, parts) -> parts.forEach((part, reason) -> skipped.addObject()
                .put("experiment", experiment).put("part", part).put("reason", reason)));
        root.put("history", FaultHistory.FILE);
        // set again below, in this place, once every experiment's problems are known
        root.put("passed", false);
        boolean passed = true;
        ArrayNode experiments = root.putArray("experiments");
        for (ExperimentReport report : reports) {
            List<String> problems = derived.getOrDefault(report.name() + " (" + report.transport() + ")", List.of());
            ObjectNode node = experiments.addObject();
            node.put("name", report.name());
            node.put("title", report.title());
            node.put("transport", report.transport());
            node.put("passed", report.passed() && problems.isEmpty());
            passed &= report.passed() && problems.isEmpty();
            node.put("millis", report.millis());
            node.set("figures", report.figures());
            ArrayNode findings = node.putArray("findings");
            report.findings().forEach(findings::add);
            problems.forEach(findings::add);
            ArrayNode fromHistory = node.putArray("history_problems");
            problems.forEach(fromHistory::add);
            ArrayNode observations = node.putArray("observations");
            report.observations().forEach(observations::add);
        }
        root.put("passed", passed);
        return root;
    }

    public static void write(Path folder, ObjectNode json) throws IOException {
        Files.writeString(folder.resolve(JSON), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
        Files.writeString(folder.resolve(MARKDOWN), markdown(json));
    }

    public static String markdown(JsonNode json) {
        StringBuilder md = new StringBuilder("# Fault lab\n\n");
        md.append(json.path("quick").asBoolean() ? "Quick run" : "Full run").append(", seed ").append(json.path("seed").asLong());
        if (json.has("transports")) {
            List<String> transports = new ArrayList<>();
            json.path("transports").forEach(t -> transports.add(t.asText()));
            md.append(", over ").append(String.join(" and ", transports));
        }
        if (json.path("ledger").asText("sqlite").equals("postgres")) {
            md.append(", every ledger on PostgreSQL");
        }
        md.append(". Overall: **").append(json.path("passed").asBoolean() ? "pass" : "FAIL").append("**.\n\n");
        md.append(table(json));
        if (json.path("not_applicable").size() > 0) {
            md.append("\n## Not applicable on this ledger\n\n| experiment | part | why |\n|---|---|---|\n");
            json.path("not_applicable").forEach(n -> md.append("| ").append(n.path("experiment").asText()).append(" | ")
                    .append(n.path("part").asText()).append(" | ").append(n.path("reason").asText().replace("|", "\\|"))
                    .append(" |\n"));
        }
        for (JsonNode experiment : json.path("experiments")) {
            String heading = experiment.path("name").asText() + over(experiment);
            if (experiment.path("findings").size() > 0) {
                md.append("\n## ").append(heading).append(": findings\n\n");
                experiment.path("findings").forEach(f -> md.append("- ").append(f.asText()).append('\n'));
            }
            if (experiment.path("observations").size() > 0) {
                md.append("\n## ").append(heading).append(": observations\n\n");
                experiment.path("observations").forEach(f -> md.append("- ").append(f.asText()).append('\n'));
            }
            experiment.path("figures").fields().forEachRemaining(scope -> scope.getValue().fields().forEachRemaining(f -> {
                if (f.getValue().isObject()) {
                    md.append("\n### ").append(heading).append(", ").append(scope.getKey()).append(": ").append(f.getKey())
                            .append("\n\n| ").append(f.getKey()).append(" | value |\n|---|---|\n");
                    f.getValue().fields().forEachRemaining(e -> md.append("| ").append(e.getKey()).append(" | ")
                            .append(scalar(e.getValue()).replace("|", "\\|")).append(" |\n"));
                }
            }));
        }
        return md.toString();
    }

    private static String over(JsonNode experiment) {
        return experiment.has("transport") ? " (" + experiment.path("transport").asText() + ")" : "";
    }

    /**
     * The table alone, also what {@code lab faults} prints on stdout. A figure that is itself an object (statuses by
     * fuzz class, say) is too wide for a cell: the cell counts its entries and FAULTS.md lists them below the table.
     */
    public static String table(JsonNode json) {
        StringBuilder md = new StringBuilder("| experiment | transport | scope | verdict | figures |\n|---|---|---|---|---|\n");
        for (JsonNode experiment : json.path("experiments")) {
            String verdict = experiment.path("passed").asBoolean() ? "pass" : "FAIL";
            String transport = experiment.path("transport").asText("stdio");
            List<Map.Entry<String, JsonNode>> scopes = new ArrayList<>();
            List<String> flat = new ArrayList<>();
            experiment.path("figures").fields().forEachRemaining(e -> {
                if (e.getValue().isObject()) {
                    scopes.add(e);
                } else {
                    flat.add(e.getKey() + " " + scalar(e.getValue()));
                }
            });
            if (!flat.isEmpty() || scopes.isEmpty()) {
                md.append(row(experiment.path("name").asText(), transport, "all", verdict, String.join(", ", flat)));
            }
            for (Map.Entry<String, JsonNode> scope : scopes) {
                List<String> parts = new ArrayList<>();
                scope.getValue().fields().forEachRemaining(f -> parts.add(f.getKey() + " "
                        + (f.getValue().isObject() ? "(" + f.getValue().size() + " entries, see FAULTS.md)" : scalar(f.getValue()))));
                md.append(row(experiment.path("name").asText(), transport, scope.getKey(), verdict, String.join(", ", parts)));
            }
        }
        return md.toString();
    }

    private static String row(String name, String transport, String scope, String verdict, String figures) {
        return "| " + name + " | " + transport + " | " + scope + " | " + verdict + " | " + figures.replace("|", "\\|") + " |\n";
    }

    private static String scalar(JsonNode value) {
        if (value.isContainerNode()) {
            return value.toString();
        }
        return value.asText();
    }
}
