package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.bench.BenchHtml;
import lab.continuationreplay.bench.BenchMarkdown;
import lab.continuationreplay.bench.BenchPlan;
import lab.continuationreplay.bench.BenchReport;
import lab.continuationreplay.bench.BenchSuite;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the eight benchmarks of the lab on this machine in one run (guard overhead over stdio, ledger"
                    + " throughput against the bare SQLite commit loop, bridge round trip, fingerprint cost, matrix wall"
                    + " time, peak RSS, HTTP against stdio, ledger throughput on an embedded PostgreSQL against its bare"
                    + " INSERT+COMMIT loop) and reports each figure as a ratio against its baseline. See"
                    + " docs/benchmarks.md.",
            "Writes OUT/bench.json, OUT/BENCH.md and OUT/bench.html (scratch databases and logs in OUT/work/); prints"
                    + " the goal table and one line per goal. Exit 0 when the benchmarks ran, whether or not each goal was"
                    + " met (a missed goal is a finding, reported); 1 when a benchmark could not run; 2 for bad options."
        })
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "Fewer samples and a subset of the matrix: under two minutes on two cores"
            + " (what the tests run; figures are noisier).")
    boolean quick;

    @Option(names = "--out", description = "Output folder, new or empty (default: target/attempts/bench-<UTC time>).")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        Path folder = OutputFolder.of(out, home, "bench");
        OutputFolder.requireNewOrEmpty(folder);
        Path work = Files.createDirectories(folder.resolve("work"));
        BenchPlan plan = quick ? BenchPlan.quick(home, work) : BenchPlan.full(home, work);
        Streams.stderr().println("bench      " + (quick ? "quick" : "full") + " run into " + folder);
        ObjectNode report = BenchSuite.run(plan, Streams.stderr());
        Files.writeString(folder.resolve("bench.json"), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n");
        Files.writeString(folder.resolve("BENCH.md"), BenchMarkdown.render(report));
        Files.writeString(folder.resolve("bench.html"), BenchHtml.render(report));
        Streams.stdout().print(lab.continuationreplay.bench.BenchRows.markdown(report));
        Streams.stdout().println();
        Streams.stdout().print(BenchMarkdown.table(report));
        Streams.stdout().println();
        for (ObjectNode goal : BenchReport.goals(report)) {
            Streams.stdout().printf("goal %-40s %s (ratio %s, %s %s)%n", goal.path("id").asText(),
                    goal.path("met").asBoolean() ? "met" : goal.path("floor").path("out_of_reach").asBoolean() ? "MISSED, out of reach" : "MISSED",
                    goal.path("ratio").asText(), goal.path("comparison").asText(), goal.path("bound").asText());
        }
        Streams.stdout().println("rows       " + report.path("rows_met").asInt() + " of " + report.path("rows_total").asInt()
                + " met (the goal table of docs/benchmarks.md; a row not measured for an SDK is not met)");
        Streams.stdout().println("goals      " + report.path("goals_met").asInt() + " of " + report.path("goals_total").asInt() + " met"
                + (report.path("goals_out_of_reach").asInt() > 0 ? ", " + report.path("goals_out_of_reach").asInt() + " missed out of reach" : ""));
        Streams.stdout().println("report     " + folder.resolve("BENCH.md"));
        Streams.stdout().flush();
        return 0;
    }

}
