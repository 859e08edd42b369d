package lab.continuationreplay.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.run.FaultExperiments;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab faults --quick} as a user runs it: every experiment on the Java server; the kill soak, the requestState
 * attacks and the wire fuzzer on the TypeScript, Python and Go fixtures. The rest of their quick run (cut points, the
 * stdio proxy, storage and secrets) is a {@code lab faults --quick} run, kept out of the test command's budget; the
 * TypeScript fixture meets cut points, the stdio proxy and storage faults on PostgreSQL ({@link LabFaultsPostgresIT}).
 * And its refusals of bad options.
 */
class LabFaultsCommandIT {
    @TempDir
    Path dir;

    @Test
    void theQuickFaultLabRunsEveryExperimentOnJavaAndEveryInvariantHolds() throws Exception {
        Path out = dir.resolve("faults");
        LabProcess.Result result = LabProcess.run(List.of("faults", "--quick", "--sdk", "java", "--out", out.toString()), Map.of(), new byte[0],
                Duration.ofMinutes(8));
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        assertTrue(result.stdout().contains("faults     every invariant holds"), result.stdout());
        JsonNode json = ExactJson.parse(Files.readString(out.resolve("faults.json")));
        assertEquals("format", json.fieldNames().next(), "the format comes first");
        assertEquals("faults/2", json.path("format").asText());
        assertTrue(json.path("quick").asBoolean());
        assertEquals(List.of("java"), texts(json.path("sdks")));
        List<String> names = new ArrayList<>();
        json.path("experiments").forEach(e -> names.add(e.path("name").asText()));
        assertEquals(FaultExperiments.all().stream().filter(e -> e.transports().contains(lab.continuationreplay.core.servers.Transport.STDIO))
                .map(FaultExperiment::name).toList(), names, "over stdio (the default), every experiment that runs on stdio");
        assertEveryExperimentPassedWithoutFindings(json);
        String sdk = "java";
        assertTheSoakLostAndDuplicatedNothing(json, sdk);
        assertEquals(4, experiment(json, "cut-points").path("figures").path(sdk).path("runs").asInt());
        JsonNode proxy = experiment(json, "stdio-proxy").path("figures").path(sdk);
        assertTrue(proxy.path("still_serving").asBoolean(), sdk + " " + proxy);
        assertTrue(proxy.path("dropped").asLong() + proxy.path("duplicated").asLong() > 0, sdk + " " + proxy);
        assertTheFuzzCrashedHungAndChangedNothing(json, sdk);
        JsonNode tokens = assertNoTokenAttackWasAccepted(json, sdk);
        assertTrue(tokens.path("by_kind").size() >= 13, sdk + " " + tokens);
        JsonNode scan = experiment(json, "secrets").path("figures").path("scan");
        assertEquals(0, scan.path("found").asInt(), scan.toString());
        assertTrue(scan.path("files").asInt() > 50, scan.toString());
        assertTrue(Files.readString(out.resolve("FAULTS.md")).contains("Overall: **pass**"));
        assertVerifyAcceptsTheRunAndRefusesAForgedCopy(out);
    }

    /**
     * {@code lab verify} derives every verdict again from the history and accepts the run; a copy with a duplicate
     * issue hidden in a kept ledger is refused, whether its hashes were fixed (the verdicts disagree) or not.
     */
    private void assertVerifyAcceptsTheRunAndRefusesAForgedCopy(Path out) throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        JsonNode report = ExactJson.parse(verified.stdout());
        assertTrue(report.path("ok").asBoolean(), verified.stdout());
        assertTrue(report.path("experiments").has("cut-points (stdio)"), verified.stdout());

        Path forged = dir.resolve("forged");
        EvidenceCopies.copyTree(out, forged);
        Path kept = forged.resolve("cut-points/java/drop-after-commit-1/store.sqlite3");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + kept);
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO issues(title, body) SELECT title, body FROM issues LIMIT 1");
        }
        LabProcess.Result tampered = LabProcess.run(List.of("verify", forged.toString()), Map.of(), "");
        assertEquals(1, tampered.exitCode(), tampered.stdout() + tampered.stderr());
        assertTrue(tampered.stdout().contains("cut-points/java/drop-after-commit-1/store.sqlite3 changed after the run"), tampered.stdout());

        FaultHistory.seal(forged);
        LabProcess.Result refused = LabProcess.run(List.of("verify", forged.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        JsonNode why = ExactJson.parse(refused.stdout());
        assertEquals(0, why.path("hashes").size(), "the hashes were fixed: " + refused.stdout());
        assertTrue(why.path("experiments").path("cut-points (stdio)").toString().contains("duplicate: title 'fault cut-70' has 2 issues"),
                refused.stdout());
        assertTrue(why.path("disagreements").toString().contains("cut-points (stdio): faults.json says passed"), refused.stdout());
    }

    @Test
    void theKillSoakTokenAttacksAndWireFuzzHoldOnTheTypeScriptPythonAndGoFixtures() throws Exception {
        Path out = dir.resolve("faults-fixtures");
        LabProcess.Result result = LabProcess.run(List.of("faults", "--quick", "--sdk", "typescript,python,go", "--only",
                "kill-soak,wire-fuzz,token-attacks", "--out", out.toString()), Map.of(), new byte[0], Duration.ofMinutes(5));
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        JsonNode json = ExactJson.parse(Files.readString(out.resolve("faults.json")));
        assertEquals(List.of("typescript", "python", "go"), texts(json.path("sdks")));
        assertEveryExperimentPassedWithoutFindings(json);
        for (String sdk : List.of("typescript", "python", "go")) {
            JsonNode soak = assertTheSoakLostAndDuplicatedNothing(json, sdk);
            assertEquals(40, soak.path("operations").asInt(), sdk + " " + soak);
            assertTrue(soak.has("bridge_kills"), "a bridge fixture reports its bridge kills: " + soak);
            assertTheFuzzCrashedHungAndChangedNothing(json, sdk);
            JsonNode tokens = assertNoTokenAttackWasAccepted(json, sdk);
            if (sdk.equals("typescript")) {
                assertTrue(tokens.path("by_kind").size() >= 13, sdk + " " + tokens);
            } else {
                assertTrue(tokens.path("by_kind").path("forged-claims").asInt() > 0, sdk + " " + tokens);
                assertTrue(tokens.path("by_kind").path("other-sdk").asInt() > 0, sdk + " " + tokens);
            }
        }
        // Tokens of every other SDK were tried, and the forged claims were in the fixture's own format.
        String attacks = Files.readString(out.resolve("token-attacks/go/attacks.jsonl"));
        assertTrue(attacks.contains("\"kind\":\"forged-claims\""), attacks.lines().findFirst().orElse(""));
    }

    @Test
    void badOptionsAreOneLineErrorsAndWriteNothing() throws Exception {
        Path used = Files.createDirectories(dir.resolve("used"));
        Files.writeString(used.resolve("keep.txt"), "evidence of an earlier run");
        LabProcess.Result notEmpty = LabProcess.run(List.of("faults", "--quick", "--out", used.toString()), Map.of(), "");
        assertEquals(1, notEmpty.exitCode());
        assertEquals("lab faults: --out " + used + " is not empty; the lab never overwrites evidence", notEmpty.stderr().strip());
        assertEquals(List.of(used.resolve("keep.txt")), Files.list(used).toList());

        LabProcess.Result unknown = LabProcess.run(List.of("faults", "--only", "nope", "--out", dir.resolve("x").toString()), Map.of(), "");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.stderr().startsWith("lab faults: unknown experiment 'nope' (one of cut-points, "), unknown.stderr());
        assertTrue(!Files.exists(dir.resolve("x")));

        LabProcess.Result control = LabProcess.run(List.of("faults", "--sdk", "unguarded", "--out", dir.resolve("y").toString()), Map.of(), "");
        assertEquals(1, control.exitCode());
        assertEquals("lab faults: the unguarded control is not an SDK under test", control.stderr().strip());

        LabProcess.Result twice = LabProcess.run(List.of("faults", "--sdk", "go,go", "--out", dir.resolve("w").toString()), Map.of(), "");
        assertEquals(1, twice.exitCode());
        assertEquals("lab faults: --sdk names go twice", twice.stderr().strip());
    }

    private static void assertEveryExperimentPassedWithoutFindings(JsonNode json) {
        for (JsonNode experiment : json.path("experiments")) {
            assertTrue(experiment.path("passed").asBoolean(), experiment.toString());
            assertEquals(0, experiment.path("findings").size(), experiment.toString());
        }
    }

    /** The kill soak on {@code sdk}: every lost reply reconciled (no duplicate, no lost effect: the checker's verdict); its figures. */
    private static JsonNode assertTheSoakLostAndDuplicatedNothing(JsonNode json, String sdk) {
        JsonNode soak = experiment(json, "kill-soak").path("figures").path(sdk);
        assertEquals(soak.path("lost_replies").asInt(), soak.path("reconciled").asInt(), sdk + " " + soak);
        return soak;
    }

    /** The wire fuzzer on {@code sdk}: at least 1,000 requests, no crash or hang, no effect, every request answered. */
    private static void assertTheFuzzCrashedHungAndChangedNothing(JsonNode json, String sdk) {
        JsonNode fuzz = experiment(json, "wire-fuzz").path("figures").path(sdk);
        assertTrue(fuzz.path("requests_sent").asLong() >= 1000, sdk + " " + fuzz);
        assertEquals(0, fuzz.path("crashes").asLong(), sdk + " " + fuzz);
        assertEquals(0, fuzz.path("hangs").asLong(), sdk + " " + fuzz);
        assertEquals(0, fuzz.path("unanswered_requests").asLong(), sdk + " " + fuzz);
        assertTrue(fuzz.path("still_serving").asBoolean(), sdk + " " + fuzz);
    }

    /** The token attacks on {@code sdk}: at least 150, none accepted, the valid control committed; its figures. */
    private static JsonNode assertNoTokenAttackWasAccepted(JsonNode json, String sdk) {
        JsonNode tokens = experiment(json, "token-attacks").path("figures").path(sdk);
        assertTrue(tokens.path("attacks").asLong() >= 150, sdk + " " + tokens);
        assertEquals(0, tokens.path("accepted").asLong(), sdk + " " + tokens);
        assertTrue(tokens.path("valid_control_committed").asBoolean(), sdk + " " + tokens);
        return tokens;
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
