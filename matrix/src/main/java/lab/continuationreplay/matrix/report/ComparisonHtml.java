package lab.continuationreplay.matrix.report;

import lab.continuationreplay.history.html.HtmlPage;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code report.html}: one self-contained page (inline style, no scripts, no network assets). The case table keeps to
 * the window's width with up to four SDK columns (stdio and HTTP): per SDK one compact cell, refusals folded, and the
 * time each SDK took per case as a bar.
 */
public final class ComparisonHtml {
    private ComparisonHtml() {}

    public static String render(JsonNode comparison, JsonNode vectors) {
        JsonNode sdks = comparison.path("sdks");
        List<String> names = new ArrayList<>();
        sdks.forEach(s -> names.add(s.asText()));
        String subject = SdkNames.title(names);
        StringBuilder h = HtmlPage.start("Continuation Replay Lab: " + subject, subject + ": the twelve cases");
        h.append("<p>").append(comparison.path("all_agree").asBoolean() ? "Every case has the same semantic outcome on every SDK."
                : "<strong>Some cases differ in semantic outcome.</strong>").append(" Per SDK: its status, the rows in its database")
                .append(" (issues/operations) and the replies on the wire; its refusals are folded under each cell. The time is how")
                .append(" long the runner took to play the case, process starts included, from each attempt's history.jsonl; all")
                .append(" bars share one scale.</p>\n");
        appendCases(h, comparison.path("cases"), names);
        if (comparison.path("cross_sdk_recovery").size() > 0) {
            appendCrossSdkRecovery(h, comparison.path("cross_sdk_recovery"));
        }
        if (comparison.path("http_cases").size() > 0) {
            appendHttpCases(h, comparison.path("http_cases"));
        }
        JsonNode controls = comparison.path("controls");
        if (controls.isObject()) {
            appendControls(h, controls);
        }
        appendWireDifferences(h, sdks, comparison.path("wire_differences"));
        if (vectors != null && vectors.has("rows")) {
            appendVectors(h, vectors);
        }
        return h.append("</body></html>\n").toString();
    }

    /** The twelve cases' table: a column per SDK, the time each took, and the outcome (one per SDK where they differ). */
    private static void appendCases(StringBuilder h, JsonNode cases, List<String> names) {
        long scale = longest(cases, names);
        // Fixed widths, so a long outcome wraps inside its column instead of widening the table past the window.
        double sdkShare = 38.0 / Math.max(1, names.size());
        h.append("<table class=\"fit cases\"><colgroup><col style=\"width:16%\"><col style=\"width:5%\">");
        names.forEach(n -> h.append("<col style=\"width:").append(String.format(Locale.ROOT, "%.1f", sdkShare)).append("%\">"));
        h.append("<col style=\"width:18%\"><col style=\"width:23%\"></colgroup>\n<tr><th>Case</th><th>Agree</th>");
        names.forEach(n -> h.append("<th>").append(escape(n)).append("</th>"));
        h.append("<th>Time to play</th><th>Outcome</th></tr>\n");
        for (JsonNode row : cases) {
            appendCase(h, row, names, scale);
        }
        h.append("</table>\n");
    }

    private static void appendCase(StringBuilder h, JsonNode row, List<String> names, long scale) {
        boolean agree = row.path("agree").asBoolean();
        h.append("<tr class=\"").append(agree ? "yes" : "no").append("\" data-case=\"").append(escape(row.path("case_id").asText()))
                .append("\"><td>").append(HtmlPage.name(row.path("case_id").asText() + " " + row.path("name").asText())).append("</td><td>")
                .append(agree ? "yes" : "NO").append("</td>");
        StringBuilder times = new StringBuilder();
        for (String sdk : names) {
            JsonNode side = row.path(sdk);
            h.append("<td><strong>").append(escape(side.path("status").asText())).append("</strong><div class=\"facts\">rows ")
                    .append(side.path("issues").asInt()).append('/').append(side.path("operations").asInt()).append(", replies ")
                    .append(side.path("replies").asInt()).append("</div>");
            List<String> refusals = ComparisonMarkdown.texts(side.path("refusal_shapes"));
            if (!refusals.isEmpty()) {
                h.append("<details><summary>").append(refusals.size()).append(refusals.size() == 1 ? " refusal" : " refusals")
                        .append("</summary><code>").append(escape(String.join("\n", refusals))).append("</code></details>");
            }
            h.append("</td>");
            times.append(HtmlPage.timeRow(sdk, played(side), scale));
        }
        h.append("<td><div class=\"times\">").append(times).append("</div></td><td>");
        if (agree) {
            h.append("<code>").append(escape(lines(row.path(names.get(0)).path("outcome")))).append("</code>");
        } else {
            for (String sdk : names) {
                h.append("<details open><summary>").append(escape(sdk)).append("</summary><code>")
                        .append(escape(lines(row.path(sdk).path("outcome")))).append("</code></details>");
            }
        }
        h.append("</td></tr>\n");
    }

    private static void appendCrossSdkRecovery(StringBuilder h, JsonNode crossSdkRecovery) {
        h.append("<h2>Recovery across SDKs (case 09, one ledger)</h2>\n<table><tr><th>reply lost on → recovered through</th>"
                + "<th>status</th><th>issues</th><th>time to play</th><th>outcome</th></tr>\n");
        long crossScale = longest(crossSdkRecovery);
        for (JsonNode cell : crossSdkRecovery) {
            boolean pass = "pass".equals(cell.path("status").asText());
            h.append("<tr class=\"").append(pass ? "yes" : "no").append("\"><td>").append(escape(cell.path("cell").asText()
                    .replace("-to-", " → "))).append("</td>");
            appendPlayed(h, cell, crossScale);
        }
        h.append("</table>\n");
    }

    /** A played row's last cells: its status, its issues, its time against the table's scale, its outcome. */
    private static void appendPlayed(StringBuilder h, JsonNode row, long scale) {
        h.append("<td>").append(escape(row.path("status").asText())).append("</td><td>")
                .append(row.path("issues").asInt()).append("</td><td><div class=\"times\">")
                .append(HtmlPage.timeRow("", played(row), scale)).append("</div></td><td><code>")
                .append(escape(lines(row.path("outcome")))).append("</code></td></tr>\n");
    }

    private static void appendHttpCases(StringBuilder h, JsonNode httpCases) {
        h.append("<h2>HTTP-only cases (beside the twelve)</h2>\n<table><tr><th>SDK</th><th>case</th>"
                + "<th>status</th><th>issues</th><th>time to play</th><th>outcome</th></tr>\n");
        long httpScale = longest(httpCases);
        for (JsonNode row : httpCases) {
            boolean pass = "pass".equals(row.path("status").asText());
            h.append("<tr class=\"").append(pass ? "yes" : "no").append("\" data-http-case=\"")
                    .append(escape(row.path("sdk").asText() + " " + row.path("case_id").asText())).append("\"><td>")
                    .append(escape(row.path("sdk").asText()))
                    .append("</td><td>").append(HtmlPage.name(row.path("case_id").asText() + " " + row.path("name").asText()))
                    .append("</td>");
            appendPlayed(h, row, httpScale);
        }
        h.append("</table>\n");
    }

    private static void appendControls(StringBuilder h, JsonNode controls) {
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

    private static void appendWireDifferences(StringBuilder h, JsonNode sdks, JsonNode wireDifferences) {
        h.append("<h2>Wire differences</h2>\n<table><tr><th></th>");
        sdks.forEach(s -> h.append("<th>").append(escape(s.asText())).append("</th>"));
        h.append("</tr>\n");
        for (String aspect : new String[] {"application_refusal", "request_state_refusal", "request_state_format", "create_result_fields"}) {
            h.append("<tr><td>").append(aspect.replace('_', ' ')).append("</td>");
            for (JsonNode sdk : sdks) {
                h.append("<td><code>").append(escape(String.join("\n", ComparisonMarkdown.texts(
                        wireDifferences.path(sdk.asText()).path(aspect))))).append("</code></td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static void appendVectors(StringBuilder h, JsonNode vectors) {
        // One column per language the run compared; a comparison written before the four columns names java and
        // typescript only, without the list.
        List<String> languages = new ArrayList<>();
        vectors.path("languages").forEach(l -> languages.add(l.asText()));
        if (languages.isEmpty()) {
            languages.addAll(List.of("java", "typescript"));
        }
        h.append("<h2>Fingerprint vectors</h2>\n<table><tr><th>vector</th>");
        languages.forEach(l -> h.append("<th>").append(escape(l)).append("</th>"));
        h.append("<th>agree</th></tr>\n");
        for (JsonNode row : vectors.path("rows")) {
            boolean agree = row.path("agree").asBoolean();
            h.append("<tr class=\"").append(agree ? "yes" : "no").append("\"><td>").append(HtmlPage.name(row.path("name").asText()))
                    .append("</td>");
            languages.forEach(l -> h.append("<td><code>").append(digest(row.path(l).asText())).append("</code></td>"));
            List<String> disagreeing = new ArrayList<>();
            row.path("disagreeing").forEach(d -> disagreeing.add(d.asText()));
            h.append("<td>").append(agree ? "yes" : escape("NO" + (disagreeing.isEmpty() ? "" : ": " + String.join(", ", disagreeing))))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    /** A hex digest that may wrap in its middle, into two equal halves, rather than one character short of its end. */
    private static String digest(String hex) {
        return hex.length() == 64 ? escape(hex.substring(0, 32)) + "<wbr>" + escape(hex.substring(32)) : escape(hex);
    }

    /** The runner's recorded time of a case (its {@code played_ms}), or null when its history has none. */
    static Long played(JsonNode side) {
        JsonNode ms = side.path("played_ms");
        return ms.canConvertToLong() ? ms.asLong() : null;
    }

    /** The longest recorded time among the given SDKs' sides of every case: the full width of their bars. */
    private static long longest(JsonNode cases, List<String> sdks) {
        long longest = 0;
        for (JsonNode row : cases) {
            for (String sdk : sdks) {
                Long ms = played(row.path(sdk));
                longest = Math.max(longest, ms == null ? 0 : ms);
            }
        }
        return longest;
    }

    private static long longest(JsonNode rows) {
        long longest = 0;
        for (JsonNode row : rows) {
            Long ms = played(row);
            longest = Math.max(longest, ms == null ? 0 : ms);
        }
        return longest;
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
