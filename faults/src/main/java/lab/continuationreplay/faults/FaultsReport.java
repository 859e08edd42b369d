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
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;

/** Writes {@code faults.json} (every figure) and {@code FAULTS.md} (one table row per experiment and scope). */
public final class FaultsReport {
    public static final String JSON = "faults.json";
    public static final String MARKDOWN = "FAULTS.md";

    private FaultsReport() {}

    public static ObjectNode toJson(FaultSession session, List<ExperimentReport> reports) {
        ObjectNode root = Format.FAULTS.document();
        root.put("quick", session.quick());
        root.put("seed", session.seed());
        ArrayNode sdks = root.putArray("sdks");
        session.sdks().forEach(sdk -> sdks.add(sdk.label()));
        root.put("passed", reports.stream().allMatch(ExperimentReport::passed));
        ArrayNode experiments = root.putArray("experiments");
        for (ExperimentReport report : reports) {
            ObjectNode node = experiments.addObject();
            node.put("name", report.name());
            node.put("title", report.title());
            node.put("passed", report.passed());
            node.put("millis", report.millis());
            node.set("figures", report.figures());
            ArrayNode findings = node.putArray("findings");
            report.findings().forEach(findings::add);
        }
        return root;
    }

    public static void write(Path folder, ObjectNode json) throws IOException {
        Files.writeString(folder.resolve(JSON), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
        Files.writeString(folder.resolve(MARKDOWN), markdown(json));
    }

    public static String markdown(JsonNode json) {
        StringBuilder md = new StringBuilder("# Fault lab\n\n");
        md.append(json.path("quick").asBoolean() ? "Quick run" : "Full run").append(", seed ").append(json.path("seed").asLong())
                .append(". Overall: **").append(json.path("passed").asBoolean() ? "pass" : "FAIL").append("**.\n\n");
        md.append(table(json));
        for (JsonNode experiment : json.path("experiments")) {
            if (experiment.path("findings").size() > 0) {
                md.append("\n## ").append(experiment.path("name").asText()).append(": findings\n\n");
                experiment.path("findings").forEach(f -> md.append("- ").append(f.asText()).append('\n'));
            }
        }
        return md.toString();
    }

    /** The table alone, also what {@code lab faults} prints on stdout. */
    public static String table(JsonNode json) {
        StringBuilder md = new StringBuilder("| experiment | scope | verdict | figures |\n|---|---|---|---|\n");
        for (JsonNode experiment : json.path("experiments")) {
            String verdict = experiment.path("passed").asBoolean() ? "pass" : "FAIL";
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
                md.append(row(experiment.path("name").asText(), "all", verdict, String.join(", ", flat)));
            }
            for (Map.Entry<String, JsonNode> scope : scopes) {
                List<String> parts = new ArrayList<>();
                scope.getValue().fields().forEachRemaining(f -> parts.add(f.getKey() + " " + scalar(f.getValue())));
                md.append(row(experiment.path("name").asText(), scope.getKey(), verdict, String.join(", ", parts)));
            }
        }
        return md.toString();
    }

    private static String row(String name, String scope, String verdict, String figures) {
        return "| " + name + " | " + scope + " | " + verdict + " | " + figures.replace("|", "\\|") + " |\n";
    }

    private static String scalar(JsonNode value) {
        if (value.isContainerNode()) {
            return value.toString();
        }
        return value.asText();
    }
}
