package lab.continuationreplay.matrix.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job end to end: {@code lab matrix} on both SDKs, then {@code lab verify} on what it left. */
class LabMatrixIT {
    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheMatrix() throws Exception {
        out = dir.resolve("matrix");
        run = LabProcess.run(List.of("matrix", "--out", out.toString()), Map.of(), "");
    }

    @Test
    void everyCasePassesOnBothSdksAndTheOutcomesAgree() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("java       requested 12, executed 12, passed 12; independent verification agrees"), run.stdout());
        assertTrue(run.stdout().contains("typescript requested 12, executed 12, passed 12; independent verification agrees"), run.stdout());
        assertTrue(run.stdout().contains("outcomes   agree on every case"), run.stdout());
        assertTrue(run.stdout().contains("java-to-typescript recovery across SDKs: applied, stored result, no redispatch; verification agrees"),
                run.stdout());
        assertTrue(run.stdout().contains("typescript-to-java recovery across SDKs: applied, stored result, no redispatch; verification agrees"),
                run.stdout());
    }

    @Test
    void theEvidenceHasTheSeedsShape() throws Exception {
        for (String sdk : List.of("java", "typescript")) {
            Path attempt = out.resolve(sdk);
            assertEquals("{\n  \"executed\": 12,\n  \"passed\": 12,\n  \"requested\": 12\n}\n", Files.readString(attempt.resolve("SUMMARY.json")));
            assertEquals(12, Files.readAllLines(attempt.resolve("results.jsonl")).size());
            assertTrue(Files.exists(attempt.resolve("case-08/worker-a.transcript.log")));
            assertTrue(Files.exists(attempt.resolve("case-03/store.sqlite3")));
            assertFalse(Files.exists(attempt.resolve("case-03/store.sqlite3-wal")), "evidence databases are sealed");
            String provenance = Files.readString(attempt.resolve("provenance.json"));
            assertFalse(provenance.contains(lab.continuationreplay.matrix.servers.WireSettings.STATE_KEY_HEX), "no key in evidence");
        }
        for (String report : List.of("COMPARISON.md", "comparison.json", "report.html")) {
            assertTrue(Files.size(out.resolve(report)) > 0, report);
        }
        assertFalse(Files.readString(out.resolve("report.html")).contains("http"), "the report needs no network asset");
        JsonNode comparison = ExactJson.parse(Files.readString(out.resolve("comparison.json")));
        assertTrue(comparison.path("all_agree").asBoolean());
    }

    @Test
    void noKeyIsWrittenAnywhereInTheEvidence() throws Exception {
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".sqlite3")).toList()) {
                String text = Files.readString(file);
                assertFalse(text.contains(lab.continuationreplay.matrix.servers.WireSettings.STATE_KEY_HEX), file.toString());
                assertFalse(text.contains(lab.continuationreplay.matrix.servers.WireSettings.FINGERPRINT_KEY_HEX), file.toString());
            }
        }
    }

    @Test
    void verifyAgreesAndCatchesATamperedArtifact() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout());
        assertTrue(verified.stdout().contains("\"cross-java-to-typescript\""), verified.stdout());
        Path copy = dir.resolve("tampered");
        copyTree(out, copy);
        Path transcript = copy.resolve("java/case-01/server.transcript.log");
        Files.writeString(transcript, Files.readString(transcript).replace("\\\"replayed\\\":true", "\\\"replayed\\\":false"));
        LabProcess.Result tampered = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, tampered.exitCode(), tampered.stdout());
        assertTrue(tampered.stdout().contains("case 01"), tampered.stdout());
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
