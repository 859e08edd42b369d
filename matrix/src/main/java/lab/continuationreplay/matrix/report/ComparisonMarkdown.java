package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code COMPARISON.md}: the comparison as a table a reviewer can read in a terminal or on a forge. */
public final class ComparisonMarkdown {
    private ComparisonMarkdown() {}

    public static String render(JsonNode comparison) {
        JsonNode sdks = comparison.path("sdks");
        java.util.List<String> columns = new java.util.ArrayList<>();
        sdks.forEach(s -> columns.add(s.asText()));
        StringBuilder md = new StringBuilder("# " + SdkNames.title(columns) + ": the twelve cases\n\n");
        md.append("Columns: each SDK over stdio (`java`, `typescript`, `python`, `go`, where run) and over Streamable HTTP (`-http`),"
                + " where run.\n\n");
        md.append(comparison.path("all_agree").asBoolean() ? "Every case has the same semantic outcome on every SDK.\n\n"
                : "**Some cases differ in semantic outcome.**\n\n");
        appendCases(md, comparison.path("cases"), sdks);
        if (comparison.path("cross_sdk_recovery").size() > 0) {
            md.append("\n## Recovery across SDKs (case 09, one ledger)\n\n| Reply lost on → recovered through | Status | Issues | Outcome |\n|---|---|---|---|\n");
            for (JsonNode cell : comparison.path("cross_sdk_recovery")) {
                md.append("| ").append(cell.path("cell").asText().replace("-to-", " → ")).append(" | ").append(cell.path("status").asText())
                        .append(" | ").append(cell.path("issues").asInt()).append(" | `").append(cell.path("outcome").toString()).append("` |\n");
            }
        }
        if (comparison.path("http_cases").size() > 0) {
            md.append("\n## HTTP-only cases (beside the twelve, not inside them)\n\n| SDK | Case | Status | Issues | Outcome |\n|---|---|---|---|---|\n");
            for (JsonNode row : comparison.path("http_cases")) {
                md.append("| ").append(row.path("sdk").asText()).append(" | ").append(row.path("case_id").asText()).append(' ')
                        .append(row.path("name").asText()).append(" | ").append(row.path("status").asText()).append(" | ")
                        .append(row.path("issues").asInt()).append(" | `").append(row.path("outcome").toString()).append("` |\n");
            }
        }
        JsonNode controls = comparison.path("controls");
        if (controls.isObject()) {
            appendControls(md, controls);
        }
        appendWireDifferences(md, sdks, comparison.path("wire_differences"));
        appendRefusals(md, comparison.path("cases"), sdks);
        return md.toString();
    }

    /** The twelve cases: per SDK its status, rows and replies; the outcome when every SDK agrees. */
    private static void appendCases(StringBuilder md, JsonNode cases, JsonNode sdks) {
        md.append("| Case | Agree |");
        sdks.forEach(s -> md.append(' ').append(s.asText()).append(" status | ").append(s.asText()).append(" rows (issues/ops) | ")
                .append(s.asText()).append(" replies |"));
        md.append(" Outcome |\n|---|---|");
        sdks.forEach(s -> md.append("---|---|---|"));
        md.append("---|\n");
        for (JsonNode row : cases) {
            md.append("| ").append(row.path("case_id").asText()).append(' ').append(row.path("name").asText())
                    .append(" | ").append(row.path("agree").asBoolean() ? "yes" : "**NO**").append(" |");
            String outcome = "";
            for (JsonNode sdk : sdks) {
                JsonNode side = row.path(sdk.asText());
                md.append(' ').append(side.path("status").asText()).append(" | ").append(side.path("issues").asInt()).append('/')
                        .append(side.path("operations").asInt()).append(" | ").append(side.path("replies").asInt()).append(" |");
                outcome = side.path("outcome").toString();
            }
            md.append(" `").append(row.path("agree").asBoolean() ? outcome : "see comparison.json").append("` |\n");
        }
    }

    private static void appendControls(StringBuilder md, JsonNode controls) {
        md.append("\n## Controls: what happens without the guard (duplicates expected)\n\n| Control | Issues | Expected | Witnessed |\n|---|---|---|---|\n");
        controls.fields().forEachRemaining(e -> {
            if (e.getValue().isObject()) {
                md.append("| ").append(e.getKey()).append(" | ").append(e.getValue().path("issues").asInt()).append(" | ")
                        .append(e.getValue().path("expected_issues").asInt()).append(" | ")
                        .append(e.getValue().path("witnessed").asBoolean() ? "yes" : "**NO**").append(" |\n");
            }
        });
    }

    private static void appendWireDifferences(StringBuilder md, JsonNode sdks, JsonNode wireDifferences) {
        md.append("\n## Wire differences (kept, not hidden)\n\n");
        md.append("| | ");
        sdks.forEach(s -> md.append(s.asText()).append(" | "));
        md.append("\n|---|");
        sdks.forEach(s -> md.append("---|"));
        md.append('\n');
        for (String aspect : new String[] {"application_refusal", "request_state_refusal", "request_state_format", "create_result_fields",
                "http_statuses"}) {
            md.append("| ").append(aspect.replace('_', ' ')).append(" | ");
            for (JsonNode sdk : sdks) {
                md.append(String.join("; ", texts(wireDifferences.path(sdk.asText()).path(aspect)))).append(" | ");
            }
            md.append('\n');
        }
    }

    private static void appendRefusals(StringBuilder md, JsonNode cases, JsonNode sdks) {
        md.append("\n## Refusals per case\n\n");
        for (JsonNode row : cases) {
            for (JsonNode sdk : sdks) {
                JsonNode shapes = row.path(sdk.asText()).path("refusal_shapes");
                if (shapes.size() > 0) {
                    md.append("- ").append(row.path("case_id").asText()).append(' ').append(sdk.asText()).append(": ")
                            .append(String.join("; ", texts(shapes))).append('\n');
                }
            }
        }
    }

    static java.util.List<String> texts(JsonNode array) {
        java.util.List<String> texts = new java.util.ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
