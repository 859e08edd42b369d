package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code BENCH.md} and the stdout table: one row per goal (figure, baseline, ratio, bound, met), then the details. */
public final class BenchMarkdown {
    private BenchMarkdown() {}

    /** The goal table alone (what stdout and the README show). */
    public static String table(JsonNode report) {
        StringBuilder md = new StringBuilder();
        md.append("| # | goal | figure | baseline | ratio | bound | met |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (ObjectNode goal : BenchReport.goals(report)) {
            md.append("| ").append(goal.path("number").asInt())
                    .append(" | ").append(goal.path("goal").asText())
                    .append(" | ").append(goal.path("figure_name").asText()).append(' ')
                    .append(BenchReport.number(goal.path("figure"))).append(' ').append(goal.path("unit").asText())
                    .append(" | ").append(goal.path("baseline_name").asText()).append(' ')
                    .append(BenchReport.number(goal.path("baseline"))).append(' ').append(goal.path("unit").asText())
                    .append(" | ").append(BenchReport.number(goal.path("ratio"))).append(rounds(goal))
                    .append(" | ").append(goal.path("comparison").asText()).append(' ').append(BenchReport.number(goal.path("bound")))
                    .append(" | ").append(goal.path("met").asBoolean() ? "yes" : "**no**").append(floor(goal))
                    .append(" |\n");
        }
        return md.toString();
    }

    public static String machine(JsonNode report) {
        JsonNode m = report.path("machine");
        return m.path("cores").asInt() + " cores, " + m.path("cpu_model").asText() + ", " + m.path("memory_mib").asLong()
                + " MiB, " + m.path("os").asText() + ", " + m.path("jdk").asText() + ", Node.js " + m.path("node").asText()
                + ", scratch file system " + m.path("file_system").asText()
                + (m.has("load_average_at_start") ? ", load average at start " + m.path("load_average_at_start").asText() : "");
    }

    public static String render(JsonNode report) {
        StringBuilder md = new StringBuilder();
        md.append("# lab bench (").append(report.path("mode").asText()).append(")\n\n");
        md.append("Started ").append(report.path("started_utc").asText()).append(", ")
                .append(BenchReport.number(report.path("duration_s"))).append(" s. Machine: ").append(machine(report)).append(".\n\n");
        md.append(BenchRows.summary(report)).append(". A row's ratio per SDK is the worst of its goals' ratios in this run,"
                + " judged against the row's own bound.\n\n");
        md.append(BenchRows.markdown(report)).append('\n');
        md.append(BenchReport.summary(report)).append(". Each ratio is figure / baseline, measured in this run.\n\n");
        md.append(table(report)).append('\n');
        md.append("bench.html draws each timed series' distribution (`cdf_ms`: the percentiles at every 5 %, 99 % and 100 %).\n\n");
        int number = 0;
        for (String id : BenchReport.BENCHMARKS) {
            number++;
            JsonNode bench = report.path("benchmarks").path(id);
            md.append("## ").append(number).append(". ").append(bench.path("title").asText()).append("\n\n");
            md.append(bench.path("method").asText()).append(" (").append(BenchReport.number(bench.path("duration_s")))
                    .append(" s)\n\n");
            md.append("| figure | value |\n|---|---|\n");
            for (String[] row : BenchReport.flatten(bench.path("figures"))) {
                md.append("| ").append(row[0]).append(" | ").append(row[1]).append(" |\n");
            }
            for (JsonNode note : bench.path("notes")) {
                md.append("\nNote: ").append(note.asText()).append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** A goal's floor after its verdict: the ratio the least work reaches, and whether that is already out of reach. */
    static String floor(JsonNode goal) {
        if (!goal.has("floor")) {
            return "";
        }
        JsonNode floor = goal.path("floor");
        return " (floor " + BenchReport.number(floor.path("ratio")) + (floor.path("out_of_reach").asBoolean() ? ", out of reach" : "") + ")";
    }

    /** For an interleaved goal: how many rounds the median is of, their spread, and whether that makes it unstable. */
    static String rounds(com.fasterxml.jackson.databind.JsonNode goal) {
        if (!goal.has("rounds")) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, " (median of %d rounds, spread %.0f %%%s)", goal.path("rounds").size(),
                goal.path("spread").asDouble() * 100, goal.path("unstable").asBoolean() ? ", **unstable**" : "");
    }
}
