package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code bench.html}: the same content as BENCH.md on one self-contained page (inline style, no scripts, no links). */
public final class BenchHtml {
    private BenchHtml() {}

    public static String render(JsonNode report) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lab bench</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:75em}table{border-collapse:collapse;margin:1em 0}")
                .append("td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left}th{background:#eee}")
                .append(".met{color:#060}.missed{color:#a00;font-weight:bold}code{font-size:.95em}</style></head><body>\n");
        html.append("<h1>lab bench (").append(esc(report.path("mode").asText())).append(")</h1>\n");
        html.append("<p>Started ").append(esc(report.path("started_utc").asText())).append(", ")
                .append(esc(BenchReport.number(report.path("duration_s")))).append(" s. Machine: ")
                .append(esc(BenchMarkdown.machine(report))).append(".</p>\n");
        html.append("<p>Goals met: ").append(report.path("goals_met").asInt()).append(" of ").append(report.path("goals_total").asInt())
                .append(". Each ratio is figure / baseline, measured in this run.</p>\n");
        html.append("<table><tr><th>#</th><th>goal</th><th>figure</th><th>baseline</th><th>ratio</th><th>bound</th><th>met</th></tr>\n");
        for (ObjectNode goal : BenchReport.goals(report)) {
            boolean met = goal.path("met").asBoolean();
            String unit = goal.path("unit").asText();
            html.append("<tr><td>").append(goal.path("number").asInt())
                    .append("</td><td>").append(esc(goal.path("goal").asText()))
                    .append("</td><td>").append(esc(goal.path("figure_name").asText() + " " + BenchReport.number(goal.path("figure")) + " " + unit))
                    .append("</td><td>").append(esc(goal.path("baseline_name").asText() + " " + BenchReport.number(goal.path("baseline")) + " " + unit))
                    .append("</td><td>").append(esc(BenchReport.number(goal.path("ratio"))))
                    .append("</td><td>").append(esc(goal.path("comparison").asText() + " " + BenchReport.number(goal.path("bound"))))
                    .append("</td><td class=\"").append(met ? "met\">yes" : "missed\">no").append("</td></tr>\n");
        }
        html.append("</table>\n");
        int number = 0;
        for (String id : BenchReport.BENCHMARKS) {
            number++;
            JsonNode bench = report.path("benchmarks").path(id);
            html.append("<h2>").append(number).append(". ").append(esc(bench.path("title").asText())).append("</h2>\n<p>")
                    .append(esc(bench.path("method").asText())).append(" (").append(esc(BenchReport.number(bench.path("duration_s"))))
                    .append(" s)</p>\n<table><tr><th>figure</th><th>value</th></tr>\n");
            for (String[] row : BenchReport.flatten(bench.path("figures"))) {
                html.append("<tr><td><code>").append(esc(row[0])).append("</code></td><td>").append(esc(row[1])).append("</td></tr>\n");
            }
            html.append("</table>\n");
            for (JsonNode note : bench.path("notes")) {
                html.append("<p>Note: ").append(esc(note.asText())).append("</p>\n");
            }
        }
        html.append("</body></html>\n");
        return html.toString();
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
