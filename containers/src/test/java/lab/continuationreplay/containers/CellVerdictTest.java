package lab.continuationreplay.containers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's reading of a cell's provenance: its format first, then the runtimes it records. */
class CellVerdictTest {
    @TempDir
    Path dir;

    private CellVerdict verdict(String provenance) throws Exception {
        Path attempt = Files.createDirectories(dir.resolve("java"));
        Files.writeString(attempt.resolve("provenance.json"), provenance);
        return CellVerdict.of(new RuntimeCell(17, 20), "local/lab-runner:test", 0, 1.0, dir);
    }

    @Test
    void aProvenanceWithoutAFormatIsRefusedNotReadForItsRuntimes() throws Exception {
        CellVerdict verdict = verdict("{\"java_version\":\"17.0.15\",\"node_version\":\"v20.1.0\"}\n");
        assertTrue(verdict.problems().contains("java/provenance.json has no format version: written by a lab before format"
                + " versions; re-run lab matrix"), verdict.problems().toString());
        assertFalse(verdict.problems().stream().anyMatch(p -> p.contains("ran on Java")), verdict.problems().toString());
    }

    @Test
    void anUnknownProvenanceVersionIsNamed() throws Exception {
        CellVerdict verdict = verdict("{\"format\":\"provenance/9\",\"java_version\":\"17.0.15\",\"node_version\":\"v20.1.0\"}\n");
        assertTrue(verdict.problems().contains("java/provenance.json: format \"provenance/9\" is not one this checker reads"
                + " (it reads \"provenance/1\")"), verdict.problems().toString());
    }

    @Test
    void aProvenanceOfThisFormatIsReadForTheCellsRuntimes() throws Exception {
        CellVerdict verdict = verdict("{\"format\":\"provenance/1\",\"java_version\":\"25.0.1\",\"node_version\":\"v20.1.0\"}\n");
        assertTrue(verdict.problems().contains("java: ran on Java 25.0.1 and Node.js v20.1.0, not on jdk17-node20"),
                verdict.problems().toString());
        assertFalse(verdict.problems().stream().anyMatch(p -> p.contains("format")), verdict.problems().toString());
    }
}
