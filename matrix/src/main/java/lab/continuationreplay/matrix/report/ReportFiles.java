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
        comparison.set("controls", controls);
        com.fasterxml.jackson.databind.node.ArrayNode cross = comparison.putArray("cross_sdk_recovery");
        crossCells.forEach((cell, records) -> records.forEach(r -> cross.addObject()
                .put("cell", cell.substring("cross-".length()))
                .put("status", r.path("status").asText())
                .put("issues", r.path("independent_db").path("issues").size())
                .set("outcome", r.path("outcome"))));
        com.fasterxml.jackson.databind.node.ArrayNode http = comparison.putArray("http_cases");
        httpCases.forEach((attempt, records) -> records.forEach(r -> http.addObject()
                .put("sdk", lab.continuationreplay.history.Layout.sdkOf(attempt))
                .put("case_id", r.path("case_id").asText())
                .put("name", r.path("name").asText())
                .put("status", r.path("status").asText())
                .put("issues", r.path("independent_db").path("issues").size())
                .set("outcome", r.path("outcome"))));
        if (vectors != null) {
            comparison.set("fingerprint_vectors", vectors);
        }
        Files.writeString(out.resolve("comparison.json"),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(comparison) + "\n");
        Files.writeString(out.resolve("COMPARISON.md"), ComparisonMarkdown.render(comparison));
        Files.writeString(out.resolve("report.html"), ComparisonHtml.render(comparison, vectors));
        return comparison;
    }
}
