package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** {@code SUMMARY.json} (byte-compatible with the seed's) and the derived {@code MATRIX.md} of one SDK's attempt. */
public final class Summary {
    private Summary() {}

    public static String summaryJson(int requested, List<JsonNode> records) {
        long passed = records.stream().filter(r -> "pass".equals(r.path("status").textValue())).count();
        return "{\n  \"executed\": " + records.size() + ",\n  \"passed\": " + passed + ",\n  \"requested\": " + requested + "\n}\n";
    }

    public static String matrixMarkdown(String sdkLabel, int requested, List<JsonNode> records) {
        long passed = records.stream().filter(r -> "pass".equals(r.path("status").textValue())).count();
        StringBuilder md = new StringBuilder();
        md.append("# Guarded stdio matrix: ").append(sdkLabel).append("\n\n");
        md.append("Requested ").append(requested).append("; executed ").append(records.size()).append("; passed ")
                .append(passed).append(".\n\n");
        md.append("| Case | Expected classification | Status | SQLite issues | Wire replies | Outcome |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (JsonNode r : records) {
            md.append("| ").append(r.path("case_id").asText()).append(' ').append(r.path("name").asText())
                    .append(" | ").append(r.path("expected").asText())
                    .append(" | ").append(r.path("status").asText())
                    .append(" | ").append(r.path("independent_db").path("issues").size())
                    .append(" | ").append(r.path("independent_wire").path("replies").asInt())
                    .append(" | `").append(r.path("outcome").toString()).append("` |\n");
        }
        md.append("\nRe-verify from the artifacts alone: `./lab verify <attempt folder's parent>`.\n");
        return md.toString();
    }
}
