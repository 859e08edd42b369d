package lab.continuationreplay.cli.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.containers.CellVerdict;
import lab.continuationreplay.containers.DockerCli;
import lab.continuationreplay.containers.InContainerMatrix;
import lab.continuationreplay.containers.RunnerImages;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.containers.RuntimeTable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.checker.Verdict;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.utility.DockerImageName;

/**
 * The main job in containers, across runtimes: for each cell of {JDK 17, JDK 25} × {Node.js 20, Node.js 22} the whole
 * {@code lab matrix} (both SDKs, cross-SDK cells, controls) runs in a container from the cell's runner image, network
 * {@code none}, writing into a bind-mounted host folder; the host verifies every attempt again from the artifacts and
 * asserts 12/12 per SDK with agreeing outcomes; then one runtime table compares the four cells. Evidence stays in
 * {@code lab-cli/target/in-container-it/<UTC time>/}.
 */
@ExtendWith(DockerEngine.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerMatrixIT {
    private final List<CellVerdict> verdicts = new ArrayList<>();
    private Path out;
    private RunnerImages.Built images;

    static List<RuntimeCell> cells() {
        return RuntimeCell.ALL;
    }

    @BeforeAll
    void buildTheImages() throws Exception {
        images = TestImages.all();
        out = LabHome.resolve().resolve("lab-cli/target/in-container-it")
                .resolve(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")));
        Files.createDirectories(out);
    }

    @Order(1)
    @ParameterizedTest(name = "{0}: lab matrix in a container, verified on the host")
    @MethodSource("cells")
    void theWholeMatrixPassesInTheCellsContainer(RuntimeCell cell) throws Exception {
        String image = images.images().get(cell);
        Path folder = out.resolve(cell.id());
        Files.createDirectories(folder);
        long started = System.nanoTime();
        long exit;
        try (GenericContainer<?> matrix = new GenericContainer<>(DockerImageName.parse(image))
                .withNetworkMode("none")
                .withFileSystemBind(folder.toString(), "/out", BindMode.READ_WRITE)
                .withCreateContainerCmdModifier(cmd -> cmd.withUser(owner(folder)))
                // the images carry all four SDK columns
                .withCommand("matrix", "--sdk", String.join(",", InContainerMatrix.SDKS_IN_IMAGES), "--out", "/out")
                .withLogConsumer(frame -> progress(cell, frame))
                .withStartupCheckStrategy(new UntilExit(InContainerMatrix.CELL_TIMEOUT))) {
            matrix.start();
            exit = matrix.getCurrentContainerInfo().getState().getExitCodeLong();
            Files.writeString(folder.resolve(DockerCli.STDOUT), matrix.getLogs(OutputFrame.OutputType.STDOUT), StandardCharsets.UTF_8);
            Files.writeString(folder.resolve(DockerCli.STDERR), matrix.getLogs(OutputFrame.OutputType.STDERR), StandardCharsets.UTF_8);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        CellVerdict verdict = CellVerdict.of(cell, image, (int) exit, seconds, folder);
        verdicts.add(verdict);
        System.err.println(InContainerMatrix.line(verdict));

        assertEquals(0, exit, cell + ": lab matrix exited " + exit + "; see " + folder.resolve(DockerCli.STDERR));
        for (String sdk : InContainerMatrix.SDKS_IN_IMAGES) {
            Verdict attempt = verdict.attempt(sdk);
            assertTrue(attempt != null, cell + ": no " + sdk + " attempt in " + folder);
            assertEquals(List.of(), attempt.problems(), cell + " " + sdk + ": the host's verification");
            assertEquals(12, attempt.requested(), cell + " " + sdk);
            assertEquals(12, attempt.passed(), cell + " " + sdk + " passed");
        }
        assertTrue(verdict.outcomesAgree(), cell + ": the SDKs' outcomes differ " + verdict.problems());
        assertEquals(List.of(), verdict.problems(), cell.toString());
    }

    @Order(2)
    @Test
    void oneTableComparesTheFourCellsAndTheOutcomesAreTheSameOnEveryRuntime() throws Exception {
        assertEquals(RuntimeCell.ALL, verdicts.stream().map(CellVerdict::cell).toList(), "every cell ran");
        JsonNode table = RuntimeTable.write(out, verdicts, images.seconds());
        System.err.println(RuntimeTable.cellTable(table) + RuntimeTable.verdictLines(table) + "runtime table: " + out.resolve(RuntimeTable.MARKDOWN));
        assertTrue(table.path("outcomes_identical_across_cells").asBoolean(), "outcomes differ across runtimes: "
                + table.path("outcome_differences"));
        assertTrue(table.path("all_ok").asBoolean(), Files.readString(out.resolve(RuntimeTable.MARKDOWN)));
        assertTrue(Files.readString(out.resolve(RuntimeTable.MARKDOWN)).contains("| jdk25-node22 | 25."), "the table names each cell's runtime");
    }

    private static String owner(Path folder) {
        try {
            return DockerCli.owner(folder);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void progress(RuntimeCell cell, OutputFrame frame) {
        String text = frame.getUtf8StringWithoutLineEnding();
        if (frame.getType() == OutputFrame.OutputType.STDERR && !text.isBlank()) {
            System.err.println("  [" + cell.id() + "] " + text);
        }
    }

}
