package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab vectors} against the real TypeScript, Python and Go CLIs, and against planted faulty ones (one language
 * at a time) to show it can fail and names the language.
 */
class LabVectorsCommandIT {
    private static final String DIGEST = "[0-9a-f]{64}";
    private static final String VECTOR_01 = "ee4f94fa05dcf57deaddf3e31dc6d606b3662fac3c55d1f04565816f36abb757";

    @Test
    void allSeventeenVectorsGiveTheExpectedDigestInEveryLanguage() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors"), Map.of(), "");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("in java, typescript, python, go, rust"), r.stdout());
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches("^vector\\s+java\\s+typescript\\s+python\\s+go\\s+rust\\s+agree$")), r.stdout());
        long agreeing = r.stdout().lines()
                .filter(l -> l.matches("^\\S+(\\s+" + DIGEST + "){5}\\s+yes$"))
                .count();
        assertEquals(17, agreeing, r.stdout());
        assertTrue(r.stdout().contains("17/17 vectors agree, 7/7 relations hold: OK"), r.stdout());
        assertTrue(r.stdout().matches("(?s).*00_control_single_round == pinned \\S+\\s+java yes\\s+typescript yes\\s+python yes\\s+go yes\\s+rust yes.*"),
                r.stdout());
    }

    @Test
    void jsonOutputCarriesTheSameVerdictPerLanguage() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--json"), Map.of(), "");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode report = new ObjectMapper().readTree(r.stdout());
        assertEquals("[\"java\",\"typescript\",\"python\",\"go\",\"rust\"]", report.get("languages").toString());
        assertEquals(17, report.get("rows").size());
        assertTrue(report.get("ok").booleanValue());
        JsonNode first = report.get("rows").get(1);
        assertEquals(VECTOR_01, first.get("expected").textValue());
        for (String language : List.of("java", "typescript", "python", "go", "rust")) {
            assertEquals(VECTOR_01, first.get(language).textValue(), language);
            assertTrue(report.get("pinned_digest").get(language).booleanValue(), language);
        }
        assertEquals(0, first.get("disagreeing").size());
    }

    @Test
    void aChosenSubsetOfLanguagesIsCompared() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--lang", "go,python"), Map.of(), "");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("in go, python"), r.stdout());
        assertEquals(17, r.stdout().lines().filter(l -> l.matches("^\\S+(\\s+" + DIGEST + "){2}\\s+yes$")).count(), r.stdout());
    }

    @Test
    void unknownRepeatedOrUnchosenLanguagesAreRefusedBeforeAnythingRuns() throws Exception {
        Map<List<String>, String> refusals = Map.of(
                List.of("vectors", "--lang", "java,cobol"), "lab vectors: unknown language 'cobol' (java, typescript, python, go, rust or all)",
                List.of("vectors", "--sdk", "go,go"), "lab vectors: 'go' is named twice",
                List.of("vectors", "--lang", "java", "--py-cli", "x.py"),
                "lab vectors: a python CLI is given but python is not among the chosen languages");
        for (Map.Entry<List<String>, String> refusal : refusals.entrySet()) {
            LabProcess.Result r = LabProcess.run(refusal.getKey(), Map.of(), "");
            assertEquals(1, r.exitCode(), refusal.getKey().toString());
            assertEquals(refusal.getValue() + "\n", r.stderr(), refusal.getKey().toString());
            assertEquals("", r.stdout(), "nothing ran");
        }
    }

    @Test
    void aTypeScriptSideThatDisagreesFailsTheCommandAndIsNamed(@TempDir Path dir) throws Exception {
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
        assertEquals(17, r.stdout().lines().filter(l -> l.endsWith("NO: typescript")).count(), r.stdout());
        assertTrue(r.stdout().contains("expected digests of the vectors that disagree:"), r.stdout());
    }

    @Test
    void aPythonSideThatDisagreesIsNamed(@TempDir Path dir) throws Exception {
        // Run by the fixture's own interpreter, as the real one is; one vector's digest is off by its last character.
        Path planted = dir.resolve("wrong-cli.py");
        Files.writeString(planted, """
                import json, subprocess, sys
                real = subprocess.run([sys.executable, %s, *sys.argv[1:]],
                                      stdin=sys.stdin, capture_output=True, text=True)
                for line in real.stdout.splitlines():
                    name, digest = line.split("\\t")
                    if name == "03_lost_reply_replay":
                        digest = digest[:-1] + ("0" if digest[-1] != "0" else "1")
                    print(name + "\\t" + digest)
                """.formatted("'" + LabProcess.home().resolve("py-fixture/src/fingerprint-cli.py") + "'"));
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--py-cli", planted.toString()), Map.of(), "");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().contains("16/17 vectors agree, 7/7 relations hold: FAILED"), r.stdout());
        assertTrue(r.stdout().lines().anyMatch(l -> l.startsWith("03_lost_reply_replay") && l.endsWith("NO: python")), r.stdout());
    }

    @Test
    void aGoSideThatBreaksARelationIsNamed(@TempDir Path dir) throws Exception {
        // The real Go CLI, but vector 09 answered with vector 01's digest: 09 disagrees and 09 != 01 fails, in Go only.
        Path planted = dir.resolve("wrong-cli.sh");
        Files.writeString(planted, "#!/bin/sh\n\"" + LabProcess.home().resolve("go-fixture/target/bin/fingerprint-cli")
                + "\" \"$@\" | sed 's/^09_crash_after_commit\t.*/09_crash_after_commit\t" + VECTOR_01 + "/'\n");
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwx------"));
        LabProcess.Result r = LabProcess.run(List.of("vectors", "--go-cli", planted.toString()), Map.of(), "");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stdout().lines().anyMatch(l -> l.startsWith("09_crash_after_commit") && l.endsWith("NO: go")), r.stdout());
        assertTrue(r.stdout().matches(
                "(?s).*09_crash_after_commit != 01_identical_retry\\s+java yes\\s+typescript yes\\s+python yes\\s+go NO.*"), r.stdout());
        assertTrue(r.stdout().contains("16/17 vectors agree, 6/7 relations hold: FAILED"), r.stdout());
    }

    @Test
    void aMissingBuildOfAnyLanguageIsOneClearLine(@TempDir Path dir) throws Exception {
        for (String option : List.of("--ts-cli", "--py-cli", "--go-cli")) {
            LabProcess.Result r = LabProcess.run(List.of("vectors", option, dir.resolve("absent").toString()), Map.of(), "");
            assertEquals(1, r.exitCode(), option);
            assertTrue(r.stderr().startsWith("lab vectors: ") && r.stderr().contains("absent is missing"), r.stderr());
            assertEquals(1, r.stderr().lines().count(), r.stderr());
            assertEquals("", r.stdout(), "nothing ran");
        }
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
        assertTrue(other.stdout().contains("17/17 vectors agree, 7/7 relations hold: OK"), other.stdout());
    }
}
