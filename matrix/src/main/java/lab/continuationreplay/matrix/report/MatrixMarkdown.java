package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code MATRIX.md} of one attempt: the checker's records as a table a person reads. */
public final class MatrixMarkdown {
    public static final String FILE = "MATRIX.md";

    private MatrixMarkdown() {}

    public static void write(Path attempt, int requested, List<JsonNode> records) throws IOException {
        Files.writeString(attempt.resolve(FILE), render(attempt.getFileName().toString(), requested, records));
    }

    static String render(String attemptName, int requested, List<JsonNode> records) {
        long passed = records.stream().filter(r -> "pass".equals(r.path("status").textValue())).count();
        StringBuilder md = new StringBuilder();
        md.append("# Guarded stdio matrix: ").append(attemptName).append("\n\n");
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
