package lab.continuationreplay.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab faults --quick --transport http} on the Java server over Streamable HTTP: every HTTP experiment, every
 * invariant read back from {@code faults.json}. {@code lab faults --quick --transport http} plays every SDK; the
 * TypeScript fixture's faults in the test command are over stdio, on SQLite and on PostgreSQL.
 */
class LabFaultsHttpIT {
    @TempDir
    Path dir;

    @Test
    void theQuickFaultLabOverHttpHoldsEveryInvariantOnTheJavaServer() throws Exception {
        LabProcess.Result result = LabProcess.run(List.of("faults", "--quick", "--transport", "http", "--sdk", "java", "--out",
                dir.resolve("java").toString()), Map.of(), new byte[0], Duration.ofMinutes(6));
        checkOneSdk("java", dir.resolve("java"), result);
    }

    private static void checkOneSdk(String sdk, Path out, LabProcess.Result result) throws Exception {
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        assertTrue(result.stdout().contains("faults     every invariant holds"), result.stdout());
        JsonNode json = ExactJson.parse(Files.readString(out.resolve("faults.json")));
        assertEquals(List.of("http"), texts(json.path("transports")));
        assertEquals(List.of(sdk), texts(json.path("sdks")));
        List<String> names = new ArrayList<>();
        json.path("experiments").forEach(e -> names.add(e.path("name").asText()));
        assertEquals(List.of("cut-points", "kill-soak", "http-fuzz", "http-proxy", "token-attacks", "stalled-clients", "secrets"), names);
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), "lab verify derives the same verdicts from the history: " + verified.stdout() + verified.stderr());
        for (JsonNode experiment : json.path("experiments")) {
            assertEquals("http", experiment.path("transport").asText(), experiment.toString());
            assertTrue(experiment.path("passed").asBoolean(), experiment.toString());
            assertEquals(0, experiment.path("findings").size(), experiment.toString());
        }
        JsonNode cuts = experiment(json, "cut-points").path("figures").path(sdk);
        assertEquals(5, cuts.path("runs").asInt(), "four exits and close-after-commit: " + cuts);

        JsonNode soak = experiment(json, "kill-soak").path("figures").path(sdk);
        assertEquals(soak.path("lost_replies").asInt(), soak.path("reconciled").asInt(), soak.toString());

        JsonNode fuzz = experiment(json, "http-fuzz").path("figures").path(sdk);
        assertTrue(fuzz.path("requests").asInt() >= 300, fuzz.toString());
        assertEquals(0, fuzz.path("accepted_must_refuse").asInt(), fuzz.toString());
        assertEquals(0, fuzz.path("server_errors_not_503").asInt(), fuzz.toString());
        assertEquals(0, fuzz.path("malformed_answers").asInt(), fuzz.toString());
        assertTrue(fuzz.path("still_serving").asBoolean(), fuzz.toString());
        assertEquals(26, fuzz.path("by_class").size(), "every class sent: " + fuzz);

        JsonNode proxy = experiment(json, "http-proxy").path("figures").path(sdk);
        assertTrue(proxy.path("still_serving").asBoolean(), proxy.toString());
        assertTrue(proxy.path("dropped").asInt() + proxy.path("reset_mid_response").asInt() > 0, proxy.toString());

        JsonNode tokens = experiment(json, "token-attacks").path("figures").path(sdk);
        assertEquals(0, tokens.path("accepted").asInt(), tokens.toString());
        JsonNode bearer = experiment(json, "token-attacks").path("figures").path(sdk + " bearer");
        assertEquals(0, bearer.path("accepted").asInt(), bearer.toString());
        assertEquals(0, bearer.path("401_without_bearer_challenge").asInt(), bearer.toString());
        assertTrue(bearer.path("by_attack").path("bob-continues-alice").asText().contains("-32602"), bearer.toString());

        JsonNode stalls = experiment(json, "stalled-clients").path("figures").path(sdk);
        assertTrue(stalls.path("p99_ratio").asDouble() <= 2.0, stalls.toString());
        assertEquals(stalls.path("stalled_connections").asInt(), stalls.path("closed_by_server").asInt(), stalls.toString());
        assertTrue(stalls.path("still_serving").asBoolean(), stalls.toString());
        JsonNode scan = experiment(json, "secrets").path("figures").path("scan");
        assertEquals(0, scan.path("found").asInt(), scan.toString());
        assertTrue(scan.path("bearer_tokens").asInt() >= 2, scan.toString());
        try (Stream<Path> files = Files.walk(out)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith("tokens-")), "no tokens file in the evidence");
        }
    }

    private static JsonNode experiment(JsonNode json, String name) {
        for (JsonNode experiment : json.path("experiments")) {
            if (experiment.path("name").asText().equals(name)) {
                return experiment;
            }
        }
        throw new AssertionError("no experiment " + name + " in " + json);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
