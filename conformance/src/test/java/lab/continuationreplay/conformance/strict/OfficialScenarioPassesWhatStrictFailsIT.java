package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import lab.continuationreplay.conformance.OfficialSuite;
import lab.continuationreplay.conformance.strict.FixtureServer.Defect;
import lab.continuationreplay.conformance.strict.FixtureServer.Options;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why the strict checks exist: the pinned official suite's {@code input-required-result-request-state} scenario passes
 * a server that never signs and never checks its {@code requestState}; the strict checks fail the same server process.
 */
class OfficialScenarioPassesWhatStrictFailsIT {
    private static final Path HOME = Path.of(System.getProperty("lab.home", ".."));
    private static final String SCENARIO = "input-required-result-request-state";

    @Test
    void theOfficialScenarioPassesAServerThatIgnoresItsStateAndStrictFailsIt(@TempDir Path folder) throws Exception {
        try (FixtureServer server = FixtureServer.start(Options.of(Defect.IGNORES_STATE))) {
            Path results = folder.resolve("official");
            List<String> command = new OfficialSuite(HOME).command(List.of("server", "--url", server.url().toString(),
                    // alpha.12 refuses --requirements with --scenario ("a requirement set already fixes which scenarios
                    // run"); --spec-version runs the one scenario on the same 2026-07-28 wire.
                    "--spec-version", OfficialSuite.REQUIREMENTS, "--scenario", SCENARIO, "-o", results.toString()));
            Exec.Result suite = Exec.run(command, Duration.ofSeconds(60));
            assertEquals(0, suite.exitStatus(), suite.output());

            List<Path> files;
            try (Stream<Path> walk = Files.walk(results)) {
                files = walk.filter(p -> p.getFileName().toString().equals("checks.json")).toList();
            }
            assertEquals(1, files.size(), "one scenario, one checks.json: " + files);
            assertTrue(files.get(0).getParent().getFileName().toString().startsWith("server-" + SCENARIO), files.toString());
            JsonNode checks = ExactJson.parse(Files.readString(files.get(0)));
            List<String> ids = new ArrayList<>();
            for (JsonNode check : checks) {
                assertEquals("SUCCESS", check.path("status").asText(), check.toString());
                ids.add(check.path("id").asText());
            }
            // Both rounds were judged, and the round trip is what it claims to check.
            assertTrue(ids.containsAll(List.of("sep-2322-request-state-incomplete", "sep-2322-request-state-complete")), ids.toString());

            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            StrictTarget target = new StrictTarget(server.url(), Optional.empty(), Optional.empty(), Optional.empty());
            StrictReport strict = StrictCheck.run(target, folder.resolve("strict"), new PrintStream(printed, true, StandardCharsets.UTF_8));
            System.out.println(printed.toString(StandardCharsets.UTF_8));
            assertEquals(1, strict.exitStatus(), printed.toString(StandardCharsets.UTF_8));
            assertEquals(StrictOutcome.PASS, strict.result(StrictCheckId.ROUND_TRIP).outcome(), "the same round trip the suite made");
            assertEquals(StrictOutcome.FAIL, strict.result(StrictCheckId.BIT_FLIPS).outcome());
            assertEquals(StrictOutcome.FAIL, strict.result(StrictCheckId.MISSING_STATE).outcome());
            assertFalse(strict.result(StrictCheckId.BIT_FLIPS).probes().isEmpty());
            assertEquals(8, strict.count(StrictOutcome.FAIL), "the count docs/conformance.md gives");
        }
    }
}
