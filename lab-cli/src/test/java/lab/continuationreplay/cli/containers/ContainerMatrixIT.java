package lab.continuationreplay.cli.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.containers.CellVerdict;
import lab.continuationreplay.containers.InContainerMatrix;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.containers.RuntimeTable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's {@code ./lab matrix --in-container} in its smallest form, as a user runs it: on the two cells
 * {@link #CELLS} of the runtime axis that together hold each JDK (17, 25) and each Node.js (20, 22) once, the matrix
 * of {@link #CASES} (every SDK column, the cross-SDK cells of case 09 for every ordered pair, the controls) runs in a container
 * from the cell's runner image, network {@code none}, into a bind-mounted host folder; the command verifies every
 * attempt on the host and writes one runtime table. This test derives each cell's verdict again from the folders
 * (every case passes per SDK, outcomes agree) and reads the table. {@code RunnerImageIT} checks the runtimes of all
 * four cells' images; the four cells with the twelve cases are {@code ./lab matrix --in-container} itself
 * (docs/containers.md), and the host runs all twelve in {@code LabMatrixIT}. Evidence stays in
 * {@code lab-cli/target/in-container-it/<UTC time>/}.
 */
@ExtendWith(DockerEngine.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContainerMatrixIT {
    /** A plain retry, and the crash after commit whose recovery crosses every pair of SDKs. */
    static final List<String> CASES = List.of("01", "09");
    /** The diagonal of {JDK 17, JDK 25} × {Node.js 20, Node.js 22}: half the cells, every runtime version once. */
    static final List<RuntimeCell> CELLS = List.of(new RuntimeCell(17, 20), new RuntimeCell(25, 22));
    private Path out;
    private LabProcess.Result run;
    private JsonNode table;

    static List<RuntimeCell> cells() {
        return CELLS;
    }

    @BeforeAll
    void runTheMainJobInEveryCell() throws Exception {
        out = LabHome.resolve().resolve("lab-cli/target/in-container-it")
                .resolve(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")));
        Map<String, String> env = new HashMap<>();
        // The docker CLI reads its configuration under HOME; the lab passes nothing else of the test's environment.
        env.put("HOME", System.getProperty("user.home"));
        run = LabProcess.run(List.of("matrix", "--in-container", "--runtime", String.join(",", CELLS.stream().map(RuntimeCell::id).toList()),
                "--cases", String.join(",", CASES), "--out", out.toString()), env, new byte[0],
                InContainerMatrix.CELL_TIMEOUT.multipliedBy(CELLS.size()).plus(Duration.ofMinutes(10)));
        System.err.println(run.stderr().lines().filter(l -> !l.startsWith("  [")).reduce("", (a, b) -> a + b + "\n"));
        table = Files.exists(out.resolve(RuntimeTable.JSON)) ? ExactJson.parse(Files.readString(out.resolve(RuntimeTable.JSON))) : null;
    }

    @ParameterizedTest(name = "{0}: lab matrix in a container, verified on the host")
    @MethodSource("cells")
    void theWholeMatrixPassesInTheCellsContainer(RuntimeCell cell) throws Exception {
        assertTrue(table != null, "no runtime table; lab matrix --in-container exited " + run.exitCode() + ": " + run.stderr());
        JsonNode row = null;
        for (JsonNode candidate : table.path("cells")) {
            if (candidate.path("cell").asText().equals(cell.id())) {
                row = candidate;
            }
        }
        assertTrue(row != null, cell + " has no row in " + out.resolve(RuntimeTable.JSON));
        assertEquals(0, row.path("exit_code").asInt(), cell + ": lab matrix exited in the container; see " + out.resolve(cell.id()));
        CellVerdict verdict = CellVerdict.of(cell, row.path("image").asText(), 0, row.path("wall_seconds").asDouble(), out.resolve(cell.id()));
        for (String sdk : InContainerMatrix.SDKS_IN_IMAGES) {
            Verdict attempt = verdict.attempt(sdk);
            assertTrue(attempt != null, cell + ": no " + sdk + " attempt in " + verdict.folder());
            assertEquals(List.of(), attempt.problems(), cell + " " + sdk + ": verified again here");
            assertEquals(CASES.size(), attempt.requested(), cell + " " + sdk);
            assertEquals(CASES.size(), attempt.passed(), cell + " " + sdk + " passed");
        }
        List<String> crossCells = verdict.attempts().keySet().stream().filter(name -> name.startsWith("cross-")).toList();
        int sdks = InContainerMatrix.SDKS_IN_IMAGES.size();
        assertEquals(sdks * (sdks - 1), crossCells.size(), cell + ": every ordered pair of the SDKs recovers case 09 " + crossCells);
        crossCells.forEach(name -> assertEquals(1, verdict.attempt(name).passed(), cell + " " + name));
        assertTrue(verdict.outcomesAgree(), cell + ": the SDKs' outcomes differ " + verdict.problems());
        assertEquals(List.of(), verdict.problems(), cell.toString());
        assertTrue(run.stdout().lines().anyMatch(l -> l.startsWith(String.format("%-13s", cell.id())) && l.contains("outcomes agree")
                && l.endsWith("; host verification agrees")), "the command's line for " + cell + ": " + run.stdout());
    }

    @Test
    void oneTableComparesTheCellsAndTheOutcomesAreTheSameOnEveryRuntime() throws Exception {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(table != null, "no runtime table");
        assertEquals(CELLS.stream().map(RuntimeCell::id).toList(),
                java.util.stream.StreamSupport.stream(table.path("cells").spliterator(), false).map(c -> c.path("cell").asText()).toList(),
                "every cell ran, in order");
        assertTrue(table.path("outcomes_identical_across_cells").asBoolean(), "outcomes differ across runtimes: " + table.path("outcome_differences"));
        assertTrue(table.path("all_ok").asBoolean(), Files.readString(out.resolve(RuntimeTable.MARKDOWN)));
        assertTrue(Files.readString(out.resolve(RuntimeTable.MARKDOWN)).contains("| jdk25-node22 | 25."), "the table names each cell's runtime");
        assertTrue(run.stdout().contains("evidence   " + out), run.stdout());
    }
}
