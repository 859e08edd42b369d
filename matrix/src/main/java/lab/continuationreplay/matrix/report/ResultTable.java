package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** The final table of {@code lab matrix} on stdout: one line per case, each SDK's status and the agreement. */
public final class ResultTable {
    private ResultTable() {}

    public static String render(JsonNode comparison) {
        StringBuilder out = new StringBuilder();
        JsonNode sdks = comparison.path("sdks");
        out.append(String.format(Locale.ROOT, "%-46s", "case"));
        // Twelve characters a column, wider for a label that would otherwise run into the next ("typescript-http").
        int width = 12;
        for (JsonNode s : sdks) {
            width = Math.max(width, s.asText().length() + 1);
        }
        String cell = "%-" + width + "s";
        sdks.forEach(s -> out.append(String.format(Locale.ROOT, cell, s.asText())));
        out.append("agree\n");
        for (JsonNode row : comparison.path("cases")) {
            out.append(String.format(Locale.ROOT, "%-46s", row.path("case_id").asText() + " " + row.path("name").asText()));
            sdks.forEach(s -> out.append(String.format(Locale.ROOT, cell, row.path(s.asText()).path("status").asText())));
            out.append(row.path("agree").asBoolean() ? "yes" : "NO").append('\n');
        }
        return out.toString();
    }
}
