package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * {@code bench.html}: the content of BENCH.md on one self-contained page (inline style and SVG, no scripts, no links),
 * in the order a reader asks: were the goals met, what do the latencies look like, and only then the raw figures,
 * folded away.
 */
public final class BenchHtml {
    private BenchHtml() {}

    public static String render(JsonNode report) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lab bench</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:75em;color:#1b1b1b}")
                .append("table{border-collapse:collapse;margin:1em 0;max-width:100%}")
                .append("td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left;vertical-align:top;overflow-wrap:break-word}")
                .append("th{background:#eee}.met{color:#060}.missed{color:#a00;font-weight:bold}.unstable{color:#a00}")
                .append("code{font-size:.95em;overflow-wrap:anywhere}svg{max-width:100%;height:auto;display:block}")
                .append("details{margin:.5em 0 1.5em}summary{cursor:pointer}</style></head><body>\n");
        html.append("<h1>lab bench (").append(esc(report.path("mode").asText())).append(")</h1>\n");
        html.append("<p>Started ").append(esc(report.path("started_utc").asText())).append(", ")
                .append(esc(BenchReport.number(report.path("duration_s")))).append(" s. Machine: ")
                .append(esc(BenchMarkdown.machine(report))).append(".</p>\n");
        rows(report, html);
        goals(report, html);
        distributions(report, html);
        details(report, html);
        html.append("</body></html>\n");
        return html.toString();
    }

    /** The ten rows first: per SDK a column, the once column for the ledger and the bridge. */
    private static void rows(JsonNode report, StringBuilder html) {
        List<String> sdks = lab.continuationreplay.core.servers.ServerKind.sdkLabels();
        html.append("<h2>Rows</h2>\n<p>").append(esc(BenchRows.summary(report))).append(".</p>\n");
        html.append("<table class=\"rows\"><tr><th>#</th><th>row</th><th>scope</th><th>bound</th>");
        sdks.forEach(sdk -> html.append("<th>").append(esc(sdk)).append("</th>"));
        html.append("<th>once</th><th>met</th></tr>\n");
        for (JsonNode row : report.path("rows")) {
            boolean met = row.path("met").asBoolean();
            html.append("<tr class=\"row\"><td>").append(row.path("number").asInt()).append("</td><td>").append(esc(row.path("title").asText()))
                    .append("</td><td>").append(esc(row.path("scope").asText())).append("</td><td>")
                    .append(esc(row.path("comparison").asText() + " " + BenchReport.number(row.path("bound")))).append("</td>");
            boolean once = row.has("result");
            for (String sdk : sdks) {
                html.append("<td>").append(once ? "" : esc(rowCell(row.path("sdks").path(sdk)))).append("</td>");
            }
            html.append("<td>").append(once ? esc(rowCell(row.path("result"))) : "").append("</td><td class=\"")
                    .append(met ? "met\">yes" : "missed\">no").append(row.has("problem") ? "<br><small>" + esc(row.path("problem").asText())
                            + "</small>" : "").append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static String rowCell(JsonNode part) {
        return !part.path("measured").asBoolean() ? "not measured"
                : BenchReport.number(part.path("ratio")) + (part.path("met").asBoolean() ? "" : " (missed)");
    }

    private static void goals(JsonNode report, StringBuilder html) {
        html.append("<h2>Goals</h2>\n<p>").append(esc(BenchReport.summary(report))).append(". Each ratio is figure / baseline, measured in this run;")
                .append(" an interleaved goal's ratio is the median of its rounds.</p>\n");
        html.append("<table class=\"goals\"><tr><th>#</th><th>goal</th><th>figure</th><th>baseline</th><th>ratio</th><th>bound</th><th>met</th></tr>\n");
        for (ObjectNode goal : BenchReport.goals(report)) {
            boolean met = goal.path("met").asBoolean();
            String unit = goal.path("unit").asText();
            html.append("<tr class=\"goal\"><td>").append(goal.path("number").asInt())
                    .append("</td><td>").append(esc(goal.path("goal").asText()))
                    .append("</td><td>").append(esc(goal.path("figure_name").asText() + " " + BenchReport.number(goal.path("figure")) + " " + unit))
                    .append("</td><td>").append(esc(goal.path("baseline_name").asText() + " " + BenchReport.number(goal.path("baseline")) + " " + unit))
                    .append("</td><td>").append(esc(BenchReport.number(goal.path("ratio")))).append(rounds(goal))
                    .append("</td><td>").append(esc(goal.path("comparison").asText() + " " + BenchReport.number(goal.path("bound"))))
                    .append("</td><td class=\"").append(met ? "met\">yes" : "missed\">no").append(floor(goal)).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    /** A goal's floor under its verdict: what it times, its ratio, and whether it is already beyond the bound. */
    private static String floor(JsonNode goal) {
        if (!goal.has("floor")) {
            return "";
        }
        JsonNode floor = goal.path("floor");
        return "<br><small>floor " + esc(BenchReport.number(floor.path("ratio"))) + " (" + esc(floor.path("what").asText()) + ")"
                + (floor.path("out_of_reach").asBoolean() ? ": out of reach on this runtime" : "") + "</small>";
    }

    /** The rounds of an interleaved goal under its ratio: how many, their spread, and the unstable mark. */
    private static String rounds(JsonNode goal) {
        if (!goal.has("rounds")) {
            return "";
        }
        StringBuilder each = new StringBuilder();
        goal.path("rounds").forEach(r -> each.append(each.isEmpty() ? "" : ", ").append(BenchReport.number(r)));
        return String.format(java.util.Locale.ROOT, "<br><small>median of %d rounds (%s), spread %.0f %%%s</small>",
                goal.path("rounds").size(), esc(each.toString()), goal.path("spread").asDouble() * 100,
                goal.path("unstable").asBoolean() ? ", <span class=\"unstable\">unstable</span>" : "");
    }

    private static void distributions(JsonNode report, StringBuilder html) {
        StringBuilder charts = new StringBuilder();
        int number = 0;
        for (String id : BenchReport.BENCHMARKS) {
            number++;
            JsonNode bench = report.path("benchmarks").path(id);
            List<CdfChart.Series> series = CdfChart.find(bench.path("figures"));
            if (series.isEmpty()) {
                continue;
            }
            String title = number + ". " + bench.path("title").asText();
            charts.append("<h3>").append(esc(title)).append("</h3>\n")
                    .append(CdfChart.svg("Latency distribution: " + title, series));
        }
        if (charts.isEmpty()) {
            return;
        }
        html.append("<h2>Latency distributions</h2>\n<p>One line per timed series, drawn from its percentiles at every 5 %,")
                .append(" 99 % and 100 % (<code>cdf_ms</code> in bench.json). A line further left is quicker; a long flat")
                .append(" top is a slow tail.</p>\n").append(charts);
    }

    private static void details(JsonNode report, StringBuilder html) {
        html.append("<h2>The benchmarks</h2>\n");
        int number = 0;
        for (String id : BenchReport.BENCHMARKS) {
            number++;
            JsonNode bench = report.path("benchmarks").path(id);
            html.append("<h3>").append(number).append(". ").append(esc(bench.path("title").asText())).append("</h3>\n<p>")
                    .append(esc(bench.path("method").asText())).append(" (").append(esc(BenchReport.number(bench.path("duration_s"))))
                    .append(" s)</p>\n");
            for (JsonNode note : bench.path("notes")) {
                html.append("<p>Note: ").append(esc(note.asText())).append("</p>\n");
            }
            List<String[]> rows = BenchReport.flatten(bench.path("figures"));
            html.append("<details><summary>").append(rows.size()).append(" raw figures</summary>\n")
                    .append("<table><tr><th>figure</th><th>value</th></tr>\n");
            for (String[] row : rows) {
                html.append("<tr><td><code>").append(esc(row[0])).append("</code></td><td>").append(esc(row[1])).append("</td></tr>\n");
            }
            html.append("</table></details>\n");
        }
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
