package lab.continuationreplay.containers;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.checker.Verdict;

/**
 * {@code lab matrix --in-container}: builds (or finds) the runner images, runs the matrix once per runtime cell in its
 * own container, verifies each cell's folder on the host and writes the runtime table ({@code runtimes.md},
 * {@code runtimes.json}). Layout: {@code OUT/<cell>/} is one cell's {@code /out}, the same folders {@code lab matrix}
 * writes; {@code OUT/runtimes.*} compares the cells.
 */
public final class InContainerMatrix {
    /**
     * The SDK columns the runtime images carry (containers/build-images.sh copies their artifacts in: the Java server,
     * the TypeScript fixture, the py-fixture with its virtual environment built in the image, the Go fixture's static
     * binary), in the matrix's column order.
     */
    public static final List<String> SDKS_IN_IMAGES = lab.continuationreplay.history.Sdk.labels();

    /** Generous: a cell takes about two minutes on two cores. */
    public static final Duration CELL_TIMEOUT = Duration.ofMinutes(20);

    private InContainerMatrix() {}

    /** Returns the exit status: 0 only if every cell passes, verifies and agrees, and the outcomes are the same on all. */
    public static int run(Path home, Path out, List<RuntimeCell> cells, List<String> matrixOptions, PrintStream stdout,
            PrintStream stderr) throws Exception {
        String problem = DockerCli.engineProblem();
        if (problem != null) {
            throw new IllegalStateException("no Docker engine answers (" + problem + "); start one as docs/containers.md shows");
        }
        stderr.println("in-container: building or finding the runner images for " + cells);
        RunnerImages.Built built = RunnerImages.build(home, cells, line -> stderr.println("  " + line));
        List<CellVerdict> verdicts = new ArrayList<>();
        for (RuntimeCell cell : cells) {
            String image = built.images().get(cell);
            List<String> args = new ArrayList<>(List.of("matrix", "--out", "/out"));
            args.addAll(matrixOptions);
            stderr.println("in-container: " + cell + " in " + image);
            long started = System.nanoTime();
            int exit = DockerCli.run(image, "lab-matrix-" + cell.id() + "-" + ProcessHandle.current().pid(), out.resolve(cell.id()),
                    args, line -> stderr.println("  [" + cell.id() + "] " + line), CELL_TIMEOUT);
            double seconds = (System.nanoTime() - started) / 1e9;
            CellVerdict verdict = CellVerdict.of(cell, image, exit, seconds, out.resolve(cell.id()));
            verdicts.add(verdict);
            stdout.println(line(verdict));
            stdout.flush();
        }
        JsonNode table = RuntimeTable.write(out, verdicts, built.seconds());
        stdout.println();
        stdout.print(RuntimeTable.cellTable(table));
        stdout.println();
        stdout.print(RuntimeTable.verdictLines(table).replace("**", ""));
        stdout.println("runtimes   " + out.resolve(RuntimeTable.MARKDOWN));
        stdout.println("evidence   " + out);
        stdout.flush();
        return table.path("all_ok").asBoolean() ? 0 : 1;
    }

    public static String line(CellVerdict verdict) {
        StringBuilder s = new StringBuilder(String.format("%-13s", verdict.cell().id()));
        for (String sdk : SDKS_IN_IMAGES) {
            Verdict v = verdict.attempt(sdk);
            if (v != null) {
                s.append(sdk).append(' ').append(v.passed()).append('/').append(v.requested()).append(", ");
            }
        }
        s.append(verdict.outcomesAgree() ? "outcomes agree" : "OUTCOMES DIFFER");
        s.append(String.format(", %.0f s", verdict.wallSeconds()));
        s.append(verdict.ok() ? "; host verification agrees" : "; FAILED " + verdict.problems());
        return s.toString();
    }
}
