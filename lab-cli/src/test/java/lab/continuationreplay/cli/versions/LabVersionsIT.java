package lab.continuationreplay.cli.versions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.history.VersionsLayout;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab versions} in its quick form, as the test command runs it: one older TypeScript release (2.3.1) and the
 * oldest Python release (2.0.0), each built from its committed lock and its twelve cases played in a lab home of its
 * own, the table derived from the history, {@code lab verify} agreeing, and a forged table refused. Both use the
 * user's npm and pip caches: a fresh machine starts them empty in the fixtures' own builds ({@code npm ci},
 * {@code build_venv.py}), which run before this test, and the releases' locks add only the packages that differ.
 */
class LabVersionsIT {
    private static final String RELEASE = "2.3.1";
    private static final String PYTHON_RELEASE = "2.0.0";

    @TempDir
    static Path dir;
    static Path out;
    static Path pythonOut;
    static LabProcess.Result run;
    static LabProcess.Result pythonRun;

    @BeforeAll
    static void playOneOlderReleaseOfEach() throws Exception {
        out = dir.resolve("versions");
        run = LabProcess.run(List.of("versions", "--sdk", "typescript", "--releases", RELEASE, "--out", out.toString()),
                Map.of(), new byte[0], Duration.ofMinutes(8));
        pythonOut = dir.resolve("versions-python");
        pythonRun = LabProcess.run(List.of("versions", "--sdk", "python", "--releases", PYTHON_RELEASE, "--out", pythonOut.toString()),
                Map.of(), new byte[0], Duration.ofMinutes(8));
    }

    @Test
    void theReleaseIsBuiltFromItsLockAndItsTwelveCasesPlayInItsOwnHome() throws Exception {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        JsonNode build = ExactJson.parse(Files.readString(out.resolve("typescript-" + RELEASE).resolve(VersionsLayout.BUILD_FILE)));
        assertEquals(VersionsLayout.BUILD_FORMAT, build.path("format").asText());
        assertEquals(RELEASE, build.path("installed").asText(), "the registry delivered the release the lock names: " + build);
        assertEquals("versions/typescript/" + RELEASE + "/package-lock.json", build.path("lock").asText());
        assertTrue(build.path("built").asBoolean(), build.toString());
        JsonNode provenance = ExactJson.parse(Files.readString(out.resolve("typescript-" + RELEASE + "/matrix/typescript/provenance.json")));
        assertEquals(RELEASE, provenance.path("typescript_sdk").asText(), "the matrix ran on the release's build: " + provenance);

        JsonNode table = ExactJson.parse(Files.readString(out.resolve(VersionsLayout.TABLE_FILE)));
        assertEquals(VersionsLayout.TABLE_FORMAT, table.path("format").asText());
        assertEquals(12, table.path("cases").size(), table.toString());
        JsonNode row = table.path("releases").get(0);
        assertEquals(RELEASE, row.path("release").asText());
        assertEquals(12, row.path("cases").size(), row.toString());
        row.path("cases").forEach(verdict -> assertTrue(List.of("pass", "fail").contains(verdict.asText()), row.toString()));
        assertTrue(run.stdout().contains("typescript " + RELEASE), run.stdout());
        assertTrue(run.stdout().contains(row.path("passed").asInt() + "/12"), run.stdout());
        assertTrue(Files.readString(out.resolve(VersionsLayout.TABLE_MD)).contains("| typescript " + RELEASE + " | " + RELEASE + " |"));
    }

    @Test
    void thePythonReleaseIsInstalledFromItsHashedLockAndItsTwelveCasesPlay() throws Exception {
        assertEquals(0, pythonRun.exitCode(), pythonRun.stdout() + pythonRun.stderr());
        JsonNode build = ExactJson.parse(Files.readString(pythonOut.resolve("python-" + PYTHON_RELEASE).resolve(VersionsLayout.BUILD_FILE)));
        assertEquals(PYTHON_RELEASE, build.path("installed").asText(), "pip installed the release the lock names: " + build);
        assertEquals("versions/python/" + PYTHON_RELEASE + "/requirements.lock", build.path("lock").asText());
        assertTrue(build.path("built").asBoolean(), build.toString());
        assertEquals("python3 build_venv.py", build.path("steps").get(0).path("command").asText(), "the fixture's own venv builder: " + build);
        JsonNode provenance = ExactJson.parse(Files.readString(pythonOut.resolve("python-" + PYTHON_RELEASE + "/matrix/python/provenance.json")));
        assertEquals(PYTHON_RELEASE, provenance.path("python_sdk").asText(), "the matrix ran on the release's venv: " + provenance);
        JsonNode row = ExactJson.parse(Files.readString(pythonOut.resolve(VersionsLayout.TABLE_FILE))).path("releases").get(0);
        assertEquals("python", row.path("sdk").asText(), row.toString());
        assertEquals(12, row.path("cases").size(), row.toString());
        assertTrue(pythonRun.stdout().contains("python " + PYTHON_RELEASE), pythonRun.stdout());
        LabProcess.Result verified = LabProcess.run(List.of("verify", pythonOut.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
    }

    @Test
    void verifyAgreesAndRefusesAForgedTable() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        Path copy = dir.resolve("forged");
        EvidenceCopies.copyTree(out, copy);
        Path table = copy.resolve(VersionsLayout.TABLE_FILE);
        String text = Files.readString(table);
        String forged = text.contains("\"fail\"") ? text.replaceFirst("\"fail\"", "\"pass\"") : text.replaceFirst("\"pass\"", "\"fail\"");
        Files.writeString(table, forged);
        LabProcess.Result refused = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stdout().contains("versions.json does not say what the history does"), refused.stdout());
    }

    @Test
    void badInputIsOneLineAndMakesNoFolder() throws Exception {
        Map<List<String>, String> refusals = Map.of(
                List.of("--sdk", "rust", "--releases", "3.0.0"),
                "lab versions: --releases 3.0.0: no lock in versions/rust/ (served: 3.0.1, 3.1.4, 3.2.0, 3.3.0, 3.4.1, 3.5.1,",
                List.of("--sdk", "typescript", "--releases", "9.9.9"),
                "lab versions: --releases 9.9.9: no lock in versions/typescript/ (served: 2.0.0, 2.1.0,",
                List.of("--sdk", "go", "--releases", "1.5.0"),
                "lab versions: --releases 1.5.0: no lock in versions/go/ (served: 1.2.0, 1.3.1, 1.4.0, 1.4.1, 1.6.0, 1.6.1, 1.7.0, 1.8.0)",
                List.of("--sdk", "typescript", "--releases", "2.x"), "lab versions: '2.x' is not a release number such as 2.3.1",
                List.of("--sdk", "typescript", "--releases", "2.3.1,2.3.1"), "lab versions: --releases names 2.3.1 twice",
                List.of("--sdk", "python,python"), "lab versions: --sdk names python twice",
                List.of("--releases", "2.3.1"), "lab versions: --releases needs one --sdk (release numbers are each SDK's own)",
                List.of("--sdk", "cobol"), "lab versions: unknown SDK 'cobol'");
        int i = 0;
        for (Map.Entry<List<String>, String> refusal : refusals.entrySet()) {
            Path folder = dir.resolve("bad-" + i++);
            List<String> args = new java.util.ArrayList<>(List.of("versions"));
            args.addAll(refusal.getKey());
            args.addAll(List.of("--out", folder.toString()));
            LabProcess.Result refused = LabProcess.run(args, Map.of(), "");
            assertEquals(1, refused.exitCode(), refusal.getKey() + ": " + refused.stderr());
            assertTrue(refused.stderr().startsWith(refusal.getValue()), refusal.getKey() + ": " + refused.stderr());
            assertEquals(1, refused.stderr().lines().count(), refused.stderr());
            assertFalse(Files.exists(folder), "no folder for " + refusal.getKey());
        }
        LabProcess.Result used = LabProcess.run(List.of("versions", "--sdk", "typescript", "--releases", RELEASE, "--out", out.toString()),
                Map.of(), "");
        assertEquals(1, used.exitCode());
        assertEquals("lab versions: --out " + out + " is not empty; the lab never overwrites evidence\n", used.stderr());
    }
}
