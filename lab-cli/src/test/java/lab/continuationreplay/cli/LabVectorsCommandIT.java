package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lab vectors} against the real TypeScript CLI, and against planted faulty ones to show it can fail. */
class LabVectorsCommandIT {
    @Test
    void allSeventeenVectorsAgreeAndEveryRelationHolds() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors"), Map.of(), "");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        long agreeing = r.stdout().lines().filter(l -> l.matches("^\\S+\\s+[0-9a-f]{64}\\s+[0-9a-f]{64}\\s+yes$")).count();
        assertEquals(17, agreeing, r.stdout());
        assertTrue(r.stdout().contains("17/17 vectors agree, 5/5 relations hold: OK"), r.stdout());
        assertTrue(r.stdout().contains("00_control_single_round == pinned"), r.stdout());
    }

    @Test
    void jsonOutputCarriesTheSameVerdict() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--json"), Map.of(), "");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode report = new ObjectMapper().readTree(r.stdout());
        assertEquals(17, report.get("rows").size());
        assertTrue(report.get("ok").booleanValue());
        assertEquals(true, report.get("pinnedDigestTypeScript").booleanValue());
    }

    @Test
    void aTypeScriptSideThatDisagreesFailsTheCommand(@TempDir Path dir) throws Exception {
        // Echoes every name with a fixed wrong digest.
        Path planted = dir.resolve("wrong-cli.mjs");
        Files.writeString(planted, """
                import { createInterface } from 'node:readline';
                for await (const line of createInterface({ input: process.stdin })) {
                  if (line.trim()) console.log(JSON.parse(line).name + '\\t' + '0'.repeat(64));
                }
                """);
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--ts-cli", planted.toString()), Map.of(), "");
        assertEquals(1, r.exitCode(), r.stdout());
        assertTrue(r.stdout().contains("0/17 vectors agree"), r.stdout());
        assertTrue(r.stdout().lines().filter(l -> l.endsWith("NO")).count() >= 17, r.stdout());
    }

    @Test
    void aTypeScriptSideThatBreaksTheRelationsFailsTheCommand(@TempDir Path dir) throws Exception {
        // Agrees on nothing but would also make 08 differ from 01: relations fail in TypeScript only.
        Path planted = dir.resolve("unique-cli.mjs");
        Files.writeString(planted, """
                import { createInterface } from 'node:readline';
                import { createHash } from 'node:crypto';
                for await (const line of createInterface({ input: process.stdin })) {
                  if (line.trim()) console.log(JSON.parse(line).name + '\\t' + createHash('sha256').update(line).digest('hex'));
                }
                """);
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--ts-cli", planted.toString()), Map.of(), "");
        assertEquals(1, r.exitCode());
        assertTrue(r.stdout().contains("01_identical_retry == 08_concurrent_attempt_a"), r.stdout());
        assertTrue(r.stdout().matches("(?s).*01_identical_retry == 08_concurrent_attempt_a\\s+java yes\\s+typescript NO.*"), r.stdout());
    }

    @Test
    void aMissingTypeScriptCliIsOneClearLine(@TempDir Path dir) throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--ts-cli", dir.resolve("absent.js").toString()), Map.of(), "");
        assertEquals(1, r.exitCode());
        assertTrue(r.stderr().startsWith("lab vectors: ") && r.stderr().contains("absent.js is missing"), r.stderr());
        assertEquals(1, r.stderr().lines().count(), r.stderr());
    }

    @Test
    void keyFromEnvironmentIsValidated() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--key-from-env"), Map.of(), "");
        assertEquals(2, r.exitCode());
        assertEquals("CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX is not set\n", r.stderr());
        LabProcess.Result other = LabProcess.run(List.of("vectors", "--key-from-env"),
                Map.of("CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX", "00".repeat(32)), "");
        assertEquals(0, other.exitCode(), other.stdout());
        assertTrue(!other.stdout().contains("pinned"), "the pinned digest only applies to the public test key");
    }
}
