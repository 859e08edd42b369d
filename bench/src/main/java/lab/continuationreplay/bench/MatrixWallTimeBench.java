package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.MatrixAsProcess;
import lab.continuationreplay.matrix.run.PhaseTimes;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Benchmark 5: the main job, {@code lab matrix} as a process the way {@code ./lab matrix} runs it once built (the four
 * SDK columns, the twelve cross-SDK cells, the controls, the vectors, the reports), timed from spawn to exit, three
 * runs one after the other, the median judged; with the per-phase breakdown of the median run (the run writes it when
 * {@code -Dlab.matrix.phases} names a file). {@code --quick} runs case 01 on two columns once, as a smoke check.
 */
final class MatrixWallTimeBench {
    /** Step 18: the main job under 45 s after the build on two cores. */
    static final double GOAL_SECONDS = 45;
    static final int RUNS = 3;

    private MatrixWallTimeBench() {}

    /** One run of the matrix: its wall time and the phase times it wrote. */
    private record Timed(double seconds, JsonNode phases) {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("matrix"));
        boolean quick = plan.matrixCases() != null;
        List<String> options = quick ? List.of("--sdk", "java,typescript", "--cases", plan.matrixCases()) : List.of();
        List<Timed> runs = new ArrayList<>();
        for (int i = 1; i <= (quick ? 1 : RUNS); i++) {
            runs.add(once(plan, folder.resolve("run-" + i), options));
            progress.printf("bench      matrix run %d: %.1f s%n", i, runs.get(i - 1).seconds());
        }
        List<Timed> sorted = runs.stream().sorted(java.util.Comparator.comparingDouble(Timed::seconds)).toList();
        Timed median = sorted.get(sorted.size() / 2);
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("scope", quick ? "quick: case 01 on java and typescript, cross-SDK cells, controls, vectors, reports; one run"
                : "the main job: 12 cases x 4 SDKs, 12 cross-SDK cells, controls, vectors, reports; median of " + RUNS + " runs");
        figures.put("wall_s", Round.of(median.seconds()));
        figures.set("runs_s", ExactJson.mapper().valueToTree(runs.stream().map(t -> Round.of(t.seconds())).toList()));
        figures.put("spread_pct", Round.of(100 * (sorted.get(sorted.size() - 1).seconds() - sorted.get(0).seconds()) / median.seconds()));
        figures.set("phases", median.phases());
        figures.put("server_processes_started", median.phases().path(PhaseTimes.PROCESS_STARTS).path("count").asLong());
        figures.put("largest_phase", largestPhase(median.phases()));
        List<String> notes = new ArrayList<>();
        if (quick) {
            notes.add("quick runs a subset of the matrix once; the 45 s goal is judged on it only as a smoke check");
        }
        List<Goal> goals = List.of(Goal.atMost("matrix_wall_time", "the main job (./lab matrix) <= 45 s after the build on 2 cores",
                "lab matrix wall time, median", median.seconds(), "goal", GOAL_SECONDS, "s", 1.0));
        return new BenchResult("matrix_wall_time", "Main job wall time",
                "`java -jar lab.jar matrix` as a process (spawn to exit), as `./lab matrix` runs it once built; per-phase"
                        + " times summed over cases from the median run", figures, goals, notes);
    }

    private static Timed once(BenchPlan plan, Path folder, List<String> options) throws Exception {
        Files.createDirectories(folder);
        Path phases = folder.resolve("phases.json");
        List<String> arguments = new ArrayList<>(options);
        arguments.addAll(List.of("--out", folder.resolve("run").toString()));
        long started = System.nanoTime();
        int exit = MatrixAsProcess.run(plan.home(), List.of("-D" + PhaseTimes.PROPERTY + "=" + phases), arguments,
                folder.resolve("matrix.stdout.log"), folder.resolve("matrix.stderr.log"));
        if (exit == -1) {
            throw new IllegalStateException("lab matrix did not finish in 15 minutes");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("lab matrix exited " + exit + " (see " + folder.resolve("matrix.stdout.log") + ")");
        }
        return new Timed(seconds, ExactJson.parse(Files.readString(phases)));
    }

    static String largestPhase(JsonNode phases) {
        String largest = null;
        long most = -1;
        for (String phase : List.of(PhaseTimes.PROCESS_STARTS, "calls", PhaseTimes.PROCESS_EXITS, PhaseTimes.EVIDENCE,
                PhaseTimes.VERIFICATION, PhaseTimes.VECTORS, PhaseTimes.REPORTS)) {
            long ms = phases.path(phase).path("ms").asLong(0);
            if (ms > most) {
                most = ms;
                largest = phase;
            }
        }
        return largest;
    }
}
