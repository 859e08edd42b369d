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
 * Benchmark 5: {@code lab matrix} as a process, the way {@code ./lab matrix} runs it once built (both SDKs, the
 * cross-SDK cells, the controls, the vectors, the reports), timed from spawn to exit, with the per-phase breakdown the
 * run writes when {@code -Dlab.matrix.phases} names a file. {@code --quick} runs a subset of cases.
 */
final class MatrixWallTimeBench {
    static final double GOAL_SECONDS = 15;

    private MatrixWallTimeBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("matrix"));
        Path phases = folder.resolve("phases.json");
        // The goal is defined on the Java and TypeScript columns (issue 17); more SDK columns would change what it measures.
        List<String> arguments = new ArrayList<>(List.of("--sdk", "java,typescript", "--out", folder.resolve("run").toString()));
        if (plan.matrixCases() != null) {
            arguments.addAll(List.of("--cases", plan.matrixCases()));
        }
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
        JsonNode phaseTimes = ExactJson.parse(Files.readString(phases));
        progress.printf("bench      matrix: %.1f s%n", seconds);
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("scope", plan.matrixCases() == null ? "full: 12 cases x 2 SDKs, 2 cross-SDK cells, 4 controls, vectors, reports"
                : "quick subset: cases " + plan.matrixCases() + " x 2 SDKs, cross-SDK cells, controls, vectors, reports");
        figures.put("wall_s", Round.of(seconds));
        figures.set("phases", phaseTimes);
        figures.put("server_processes_started", phaseTimes.path(PhaseTimes.PROCESS_STARTS).path("count").asLong());
        String largest = largestPhase(phaseTimes);
        figures.put("largest_phase", largest);
        List<String> notes = new ArrayList<>();
        if (plan.matrixCases() != null) {
            notes.add("quick runs a subset of the matrix; the 15 s goal is judged on it only as a smoke check");
        }
        List<Goal> goals = List.of(Goal.atMost("matrix_wall_time", "full lab matrix <= 15 s on a 2-core machine",
                "lab matrix wall time", seconds, "goal", GOAL_SECONDS, "s", 1.0));
        return new BenchResult("matrix_wall_time", "Matrix wall time",
                "`java -jar lab.jar matrix` as a process (spawn to exit), per-phase times summed over cases from the run",
                figures, goals, notes);
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
