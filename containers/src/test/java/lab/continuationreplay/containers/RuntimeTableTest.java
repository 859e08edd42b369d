package lab.continuationreplay.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime table's comparisons, on made-up cells (no engine needed). */
class RuntimeTableTest {
    @TempDir
    Path dir;

    @Test
    void identicalCellsAgreeAndTheTableSaysSo() throws Exception {
        ObjectNodes r = new ObjectNodes();
        List<CellVerdict> cells = List.of(cell(17, 20, r.record("01", "{\"effects\":1}", false), List.of()),
                cell(25, 22, r.record("01", "{\"effects\":1}", false), List.of()));
        JsonNode table = RuntimeTable.summarise(cells, 3.0);
        assertEquals("format", table.fieldNames().next(), "the format comes first");
        assertEquals("runtimes/1", table.path("format").asText());
        assertTrue(table.path("all_ok").asBoolean());
        assertTrue(table.path("outcomes_identical_across_cells").asBoolean());
        assertTrue(table.path("records_identical_across_cells").asBoolean());
        String md = RuntimeTable.markdown(table);
        assertTrue(md.contains("| jdk17-node20 | 17.0.15 | v20.1.0 | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 | – | yes | agrees | 0 | 60 s |"), md);
        assertTrue(md.contains("None: the same outcomes, records and diagnostics on every runtime."), md);
    }

    @Test
    void aRaceWonByTheOtherWorkerIsAFindingWithItsPathNotAFailure() throws Exception {
        ObjectNodes r = new ObjectNodes();
        List<CellVerdict> cells = List.of(cell(17, 20, r.record("08", "{\"effects\":1}", false), List.of()),
                cell(17, 22, r.record("08", "{\"effects\":1}", true), List.of()));
        JsonNode table = RuntimeTable.summarise(cells, 0);
        assertTrue(table.path("all_ok").asBoolean());
        assertFalse(table.path("records_identical_across_cells").asBoolean());
        JsonNode difference = table.path("record_differences").get(0);
        assertEquals("08", difference.path("case_id").asText());
        assertEquals("[\"/independent_wire/replayed: false vs true\"]", difference.path("variants").get(1).path("differs_at").toString());
        assertTrue(RuntimeTable.markdown(table).contains("[jdk17-node22] differ at `/independent_wire/replayed: false vs true`"));
    }

    @Test
    void aDifferentOutcomeFailsTheRunAndIsShownPerCell() throws Exception {
        ObjectNodes r = new ObjectNodes();
        List<CellVerdict> cells = List.of(cell(17, 20, r.record("04", "{\"effects\":1}", false), List.of()),
                cell(25, 20, r.record("04", "{\"effects\":2}", false), List.of()));
        JsonNode table = RuntimeTable.summarise(cells, 0);
        assertFalse(table.path("all_ok").asBoolean());
        assertFalse(table.path("outcomes_identical_across_cells").asBoolean());
        assertEquals("{\"jdk17-node20\":{\"effects\":1},\"jdk25-node20\":{\"effects\":2}}",
                table.path("outcome_differences").get(0).path("outcomes").toString());
    }

    @Test
    void aFailedCellFailsTheRun() throws Exception {
        ObjectNodes r = new ObjectNodes();
        List<CellVerdict> cells = List.of(cell(17, 20, r.record("01", "{\"effects\":1}", false), List.of("the container exited 1")));
        JsonNode table = RuntimeTable.summarise(cells, 0);
        assertFalse(table.path("all_ok").asBoolean());
        assertTrue(RuntimeTable.markdown(table).contains("- jdk17-node20: the container exited 1"));
    }

    @Test
    void stderrLinesSeenOnSomeRuntimesOnlyAreListedWithDigitsFolded() throws Exception {
        ObjectNodes r = new ObjectNodes();
        CellVerdict jdk17 = cell(17, 20, r.record("01", "{\"effects\":1}", false), List.of());
        CellVerdict jdk25 = cell(25, 20, r.record("01", "{\"effects\":1}", false), List.of());
        write(jdk17.folder().resolve("java/case-01/server.stderr.log"), "[boundedElastic-1] INFO refused\n");
        write(jdk25.folder().resolve("java/case-01/server.stderr.log"),
                "WARNING: A restricted method in java.lang.System has been called\n[boundedElastic-2] INFO refused\n");
        JsonNode differences = RuntimeTable.summarise(List.of(jdk17, jdk25), 0).path("stderr_differences");
        assertEquals(1, differences.size(), differences.toString());
        assertEquals("WARNING: A restricted method in java.lang.System has been called", differences.get(0).path("line").asText());
        assertEquals("{\"jdk17-node20\":0,\"jdk25-node20\":1}", differences.get(0).path("logs_per_cell").toString());
    }

    @Test
    void theCellTableHasAColumnPerSdkTheImagesCarry() throws Exception {
        ObjectNodes r = new ObjectNodes();
        JsonNode table = RuntimeTable.summarise(List.of(cell(17, 20, r.record("01", "{\"effects\":1}", false), List.of())), 0);
        String cells = RuntimeTable.cellTable(table);
        assertEquals(List.of("java", "typescript", "python", "go", "rust"), InContainerMatrix.SDKS_IN_IMAGES);
        assertTrue(cells.startsWith("| cell | Java | Node.js | java | typescript | python | go | rust | cross-SDK |"), cells);
        assertTrue(cells.contains("| jdk17-node20 | 17.0.15 | v20.1.0 | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 | – |"), cells);
    }

    @Test
    void cellsParseAndMatchTheirRecordedRuntimes() {
        assertEquals(RuntimeCell.ALL, RuntimeCell.parseAll(List.of("all")));
        assertEquals(List.of(new RuntimeCell(17, 20), new RuntimeCell(25, 22)), RuntimeCell.parseAll(List.of("jdk25-node22", "jdk17-node20")));
        assertThrows(IllegalArgumentException.class, () -> RuntimeCell.parse("jdk21-node20"));
        assertTrue(new RuntimeCell(25, 22).matches("25.0.3", "v22.23.3"));
        assertFalse(new RuntimeCell(25, 22).matches("17.0.15", "v22.23.3"));
        assertFalse(new RuntimeCell(17, 20).matches("17.0.15", "v22.23.3"));
        assertFalse(new RuntimeCell(17, 20).matches("170.1", "v20.1.0"));
    }

    private CellVerdict cell(int jdk, int node, JsonNode record, List<String> problems) throws Exception {
        RuntimeCell cell = new RuntimeCell(jdk, node);
        Path folder = dir.resolve(cell.id());
        Files.createDirectories(folder);
        Map<String, Verdict> attempts = new LinkedHashMap<>();
        for (String sdk : InContainerMatrix.SDKS_IN_IMAGES) {
            attempts.put(sdk, new Verdict(sdk, 1, 1, problems.isEmpty() ? 1 : 0, List.of(), List.of(record)));
        }
        return new CellVerdict(cell, "local/lab-runner:" + cell.id() + "-0", problems.isEmpty() ? 0 : 1, 60.0, folder,
                jdk + ".0.15", "test VM", "v" + node + ".1.0", attempts, true, problems);
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /** Minimal verified records: a case id, an outcome, one wire fact and an artifact hash that always differs. */
    private static final class ObjectNodes {
        private int nonce;

        JsonNode record(String id, String outcome, boolean replayed) throws Exception {
            return ExactJson.parse("{\"case_id\":\"" + id + "\",\"outcome\":" + outcome + ",\"independent_wire\":{\"replayed\":"
                    + replayed + "},\"artifact_hashes\":{\"case-" + id + "/server.transcript.log\":\"" + (nonce++) + "\"}}");
        }
    }
}
