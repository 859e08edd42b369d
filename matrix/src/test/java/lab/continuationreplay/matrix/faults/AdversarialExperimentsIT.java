package lab.continuationreplay.matrix.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three adversarial experiments in quick mode through the CLI, with their invariants asserted from faults.json
 * (not from the exit status alone), and the proxy's refusal of bad arguments.
 */
class AdversarialExperimentsIT {
    @TempDir
    Path dir;

    private JsonNode run(String experiment) throws Exception {
        Path out = dir.resolve(experiment);
        LabProcess.Result result = LabProcess.run(List.of("faults", "--quick", "--only", experiment, "--out", out.toString()),
                Map.of(), new byte[0], Duration.ofMinutes(5));
        JsonNode json = ExactJson.parse(Files.readString(out.resolve("faults.json")));
        JsonNode report = json.path("experiments").path(0);
        assertEquals(experiment, report.path("name").asText(), result.stderr());
        return report;
    }

    @Test
    void stdioProxyLosesNothingAndDuplicatesNothing() throws Exception {
        JsonNode report = run("stdio-proxy");
        for (String sdk : List.of("java", "typescript")) {
            JsonNode f = report.path("figures").path(sdk);
            assertEquals(0, f.path("duplicates").asLong(), sdk + " " + f);
            assertEquals(0, f.path("lost_effects").asLong(), sdk + " " + f);
            assertTrue(f.path("still_serving").asBoolean(), sdk + " " + f);
            assertTrue(f.path("frames_seen").asLong() > 0 && f.path("dropped").asLong() + f.path("duplicated").asLong() > 0, sdk + " " + f);
        }
        assertTrue(report.path("passed").asBoolean(), report.path("findings").toString());
    }

    @Test
    void tokenAttacksAreAllRefusedWithoutRows() throws Exception {
        JsonNode report = run("token-attacks");
        for (String sdk : List.of("java", "typescript")) {
            JsonNode f = report.path("figures").path(sdk);
            assertTrue(f.path("attacks").asLong() >= 200, sdk + " " + f);
            assertEquals(0, f.path("accepted").asLong(), sdk + " " + f);
            assertEquals(0, f.path("rows_added").asLong(), sdk + " " + f);
            assertTrue(f.path("valid_control_committed").asBoolean(), sdk + " " + f);
            assertTrue(f.path("by_kind").size() >= 13, sdk + " " + f);
        }
        assertTrue(report.path("passed").asBoolean(), report.path("findings").toString());
    }

    @Test
    @Disabled("open Java findings, root causes not fixed on this branch (docs/faults.md): the Java server applies frames"
            + " with trailing tokens, invalid UTF-8 or \"jsonrpc\":2.0 (the TypeScript findings are fixed: strict frame gate)")
    void wireFuzzHasNoCrashNoHangNoEffectAndStillServes() throws Exception {
        JsonNode report = run("wire-fuzz");
        List<String> problems = new ArrayList<>();
        for (String sdk : List.of("java", "typescript")) {
            JsonNode f = report.path("figures").path(sdk);
            assertTrue(f.path("requests_sent").asLong() >= 1000, sdk + " " + f);
            assertEquals(0, f.path("crashes").asLong(), sdk + " " + f);
            assertEquals(0, f.path("hangs").asLong(), sdk + " " + f);
            assertTrue(f.path("still_serving").asBoolean(), sdk + " " + f);
            if (f.path("effects_from_invalid_requests").asLong() != 0 || f.path("unanswered_requests").asLong() != 0) {
                problems.add(sdk + ": " + f.path("effects_from_invalid_requests") + " effects from invalid requests, "
                        + f.path("unanswered_requests") + " unanswered requests");
            }
        }
        assertEquals(List.of(), problems, report.path("findings").toString());
    }

    @Test
    void theProxyRefusesBadArgumentsWithOneLineAndExit2() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = LabProcess.home().resolve("matrix/target/lab.jar").toString();
        String main = "lab.continuationreplay.matrix.faults.proxy.StdioProxyMain";
        List<List<String>> bad = List.of(
                List.of("--seed", "1", "--plan", "up.explode=0.1", "--", "cat"),
                List.of("--seed", "1", "--plan", "up.drop=0.1"),
                List.of("--seed", "1", "--plan", "up.drop=0.1", "--"),
                List.of("--plan", "up.drop=0.1", "--", "cat"),
                List.of("--seed", "x", "--plan", "none", "--", "cat"));
        for (List<String> args : bad) {
            List<String> command = new ArrayList<>(List.of(java, "-cp", jar, main));
            command.addAll(args);
            Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, process.waitFor(), args + ": " + stderr);
            assertTrue(stderr.startsWith("stdio-proxy: ") && stderr.strip().lines().count() == 1, args + ": " + stderr);
        }
    }

    @Test
    void theProxyForwardsEverythingWithTheEmptyPlan() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = LabProcess.home().resolve("matrix/target/lab.jar").toString();
        Process process = new ProcessBuilder(java, "-cp", jar, "lab.continuationreplay.matrix.faults.proxy.StdioProxyMain",
                "--seed", "1", "--plan", "none", "--", "cat").start();
        try (var in = process.getOutputStream()) {
            in.write("one\ntwo\n{\"x\":3}\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("one\ntwo\n{\"x\":3}\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, process.waitFor());
    }
}
