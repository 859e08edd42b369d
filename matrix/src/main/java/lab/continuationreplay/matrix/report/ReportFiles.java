package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;

/** Writes {@code comparison.json}, {@code COMPARISON.md} and {@code report.html} at the top of a matrix folder. */
public final class ReportFiles {
    private ReportFiles() {}

    /** @param httpCases the HTTP-only cases per {@code http-cases-<sdk>} attempt, reported beside the twelve */
    public static ObjectNode write(Path out, Map<String, List<JsonNode>> recordsBySdk, Map<String, List<JsonNode>> crossCells,
            Map<String, List<JsonNode>> httpCases, JsonNode controls, JsonNode vectors) throws IOException {
        ObjectNode comparison = Format.COMPARISON.stamp(Comparison.compare(recordsBySdk));
        // Each case's time comes from the runner's history of its attempt, beside the verdicts, never inside them.
        Map<String, Map<String, Long>> times = new java.util.HashMap<>();
        for (String attempt : recordsBySdk.keySet()) {
            times.put(attempt, CaseTimes.of(out.resolve(attempt)));
        }
        for (JsonNode row : comparison.path("cases")) {
            for (String attempt : recordsBySdk.keySet()) {
                Long ms = times.get(attempt).get(row.path("case_id").asText());
                if (ms != null && row.path(attempt).isObject()) {
                    ((ObjectNode) row.path(attempt)).put("played_ms", ms);
                }
            }
        }
        comparison.set("controls", controls);
        com.fasterxml.jackson.databind.node.ArrayNode cross = comparison.putArray("cross_sdk_recovery");
        crossCells.forEach((cell, records) -> {
            Map<String, Long> played = CaseTimes.of(out.resolve(cell));
            records.forEach(r -> played(cross.addObject()
                    .put("cell", cell.substring("cross-".length()))
                    .put("status", r.path("status").asText())
                    .put("issues", r.path("independent_db").path("issues").size())
                    .set("outcome", r.path("outcome")), played.get(r.path("case_id").asText())));
        });
        com.fasterxml.jackson.databind.node.ArrayNode http = comparison.putArray("http_cases");
        httpCases.forEach((attempt, records) -> {
            Map<String, Long> played = CaseTimes.of(out.resolve(attempt));
            records.forEach(r -> played(http.addObject()
                    .put("sdk", lab.continuationreplay.history.Layout.sdkOf(attempt))
                    .put("case_id", r.path("case_id").asText())
                    .put("name", r.path("name").asText())
                    .put("status", r.path("status").asText())
                    .put("issues", r.path("independent_db").path("issues").size())
                    .set("outcome", r.path("outcome")), played.get(r.path("case_id").asText())));
        });
        if (vectors != null) {
            comparison.set("fingerprint_vectors", vectors);
        }
        Files.writeString(out.resolve("comparison.json"),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(comparison) + "\n");
        Files.writeString(out.resolve("COMPARISON.md"), ComparisonMarkdown.render(comparison));
        Files.writeString(out.resolve("report.html"), ComparisonHtml.render(comparison, vectors));
        return comparison;
    }

    private static void played(JsonNode row, Long ms) {
        if (ms != null) {
            ((ObjectNode) row).put("played_ms", ms);
        }
    }
}
