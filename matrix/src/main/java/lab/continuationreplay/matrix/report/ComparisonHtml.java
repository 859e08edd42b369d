package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code report.html}: one self-contained page (inline style, no scripts, no network assets). */
public final class ComparisonHtml {
    private ComparisonHtml() {}

    public static String render(JsonNode comparison, JsonNode vectors) {
        StringBuilder h = HtmlPage.start("Continuation Replay Lab: Java vs TypeScript", "Java SDK vs TypeScript SDK: the twelve cases");
        JsonNode sdks = comparison.path("sdks");
        h.append("<p>").append(comparison.path("all_agree").asBoolean() ? "Every case has the same semantic outcome on both SDKs."
                : "<strong>Some cases differ in semantic outcome.</strong>").append("</p>\n<table><tr><th>Case</th><th>Agree</th>");
        sdks.forEach(s -> h.append("<th>").append(escape(s.asText())).append(" status</th><th>rows</th><th>replies</th><th>refusals</th>"));
        h.append("<th>Outcome</th></tr>\n");
        for (JsonNode row : comparison.path("cases")) {
            boolean agree = row.path("agree").asBoolean();
            h.append("<tr class=\"").append(agree ? "yes" : "no").append("\"><td>").append(escape(row.path("case_id").asText() + " "
                    + row.path("name").asText())).append("</td><td>").append(agree ? "yes" : "NO").append("</td>");
            StringBuilder outcomes = new StringBuilder();
            for (JsonNode sdk : sdks) {
                JsonNode side = row.path(sdk.asText());
                h.append("<td>").append(escape(side.path("status").asText())).append("</td><td>").append(side.path("issues").asInt())
                        .append('/').append(side.path("operations").asInt()).append("</td><td>").append(side.path("replies").asInt())
                        .append("</td><td><code>").append(escape(String.join("\n", ComparisonMarkdown.texts(side.path("refusal_shapes")))))
                        .append("</code></td>");
                if (!agree || outcomes.isEmpty()) {
                    outcomes.append(agree ? "" : sdk.asText() + ":\n").append(lines(side.path("outcome"))).append('\n');
                }
            }
            h.append("<td><code>").append(escape(outcomes.toString().trim())).append("</code></td></tr>\n");
        }
        h.append("</table>\n");
        if (comparison.path("cross_sdk_recovery").size() > 0) {
            h.append("<h2>Recovery across SDKs (case 09, one ledger)</h2>\n<table><tr><th>reply lost on → recovered through</th>"
                    + "<th>status</th><th>issues</th><th>outcome</th></tr>\n");
            for (JsonNode cell : comparison.path("cross_sdk_recovery")) {
                boolean pass = "pass".equals(cell.path("status").asText());
                h.append("<tr class=\"").append(pass ? "yes" : "no").append("\"><td>").append(escape(cell.path("cell").asText()
                        .replace("-to-", " → "))).append("</td><td>").append(escape(cell.path("status").asText())).append("</td><td>")
                        .append(cell.path("issues").asInt()).append("</td><td><code>").append(escape(lines(cell.path("outcome"))))
                        .append("</code></td></tr>\n");
            }
            h.append("</table>\n");
        }
        if (comparison.path("http_cases").size() > 0) {
            h.append("<h2>HTTP-only cases (beside the twelve)</h2>\n<table><tr><th>SDK</th><th>case</th>"
                    + "<th>status</th><th>issues</th><th>outcome</th></tr>\n");
            for (JsonNode row : comparison.path("http_cases")) {
                boolean pass = "pass".equals(row.path("status").asText());
                h.append("<tr class=\"").append(pass ? "yes" : "no").append("\"><td>").append(escape(row.path("sdk").asText()))
                        .append("</td><td>").append(escape(row.path("case_id").asText() + " " + row.path("name").asText()))
                        .append("</td><td>").append(escape(row.path("status").asText())).append("</td><td>")
                        .append(row.path("issues").asInt()).append("</td><td><code>").append(escape(lines(row.path("outcome"))))
                        .append("</code></td></tr>\n");
            }
            h.append("</table>\n");
        }
        JsonNode controls = comparison.path("controls");
        if (controls.isObject()) {
            h.append("<h2>Controls: without the guard (duplicates expected)</h2>\n<table><tr><th>control</th><th>issues</th>"
                    + "<th>expected</th><th>witnessed</th></tr>\n");
            controls.fields().forEachRemaining(e -> {
                if (e.getValue().isObject()) {
                    boolean witnessed = e.getValue().path("witnessed").asBoolean();
                    h.append("<tr class=\"").append(witnessed ? "yes" : "no").append("\"><td>").append(escape(e.getKey()))
                            .append("</td><td>").append(e.getValue().path("issues").asInt()).append("</td><td>")
                            .append(e.getValue().path("expected_issues").asInt()).append("</td><td>").append(witnessed ? "yes" : "NO")
                            .append("</td></tr>\n");
                }
            });
            h.append("</table>\n");
        }
        h.append("<h2>Wire differences</h2>\n<table><tr><th></th>");
        sdks.forEach(s -> h.append("<th>").append(escape(s.asText())).append("</th>"));
        h.append("</tr>\n");
        for (String aspect : new String[] {"application_refusal", "request_state_refusal", "request_state_format", "create_result_fields"}) {
            h.append("<tr><td>").append(aspect.replace('_', ' ')).append("</td>");
            for (JsonNode sdk : sdks) {
                h.append("<td><code>").append(escape(String.join("\n", ComparisonMarkdown.texts(
                        comparison.path("wire_differences").path(sdk.asText()).path(aspect))))).append("</code></td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        if (vectors != null && vectors.has("rows")) {
            h.append("<h2>Fingerprint vectors</h2>\n<table><tr><th>vector</th><th>java</th><th>typescript</th><th>agree</th></tr>\n");
            for (JsonNode row : vectors.path("rows")) {
                boolean agree = row.path("agree").asBoolean();
                h.append("<tr class=\"").append(agree ? "yes" : "no").append("\"><td>").append(escape(row.path("name").asText()))
                        .append("</td><td><code>").append(escape(row.path("java").asText())).append("</code></td><td><code>")
                        .append(escape(row.path("typescript").asText())).append("</code></td><td>").append(agree ? "yes" : "NO")
                        .append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /** An outcome one member per line, so the table stays readable without scrolling. */
    static String lines(JsonNode outcome) {
        StringBuilder text = new StringBuilder();
        outcome.fields().forEachRemaining(e -> text.append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        return text.toString().trim();
    }

    static String escape(String text) {
        return HtmlPage.escape(text);
    }
}
