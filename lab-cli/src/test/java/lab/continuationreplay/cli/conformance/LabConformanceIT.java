package lab.continuationreplay.cli.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab conformance} end to end, as a user runs it: the pinned official suite on the four servers' conformance
 * profiles and on both SDK clients, then the strict checks on each profile (about 65 s); and {@code --strict --url}
 * against a server the test starts itself, as anyone would check their own.
 */
class LabConformanceIT {
    private static final List<String> MRTR = List.of("basic-elicitation", "basic-sampling", "basic-list-roots", "request-state",
            "multiple-input-requests", "multi-round", "missing-input-response", "non-tool-request", "result-type",
            "unsupported-methods", "tampered-state", "capability-check", "ignore-extra-params", "validate-input");

    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;
    static JsonNode json;

    @BeforeAll
    static void runTheSuite() throws Exception {
        out = dir.resolve("conformance");
        run = LabProcess.run(List.of("conformance", "--out", out.toString()), Map.of(), new byte[0], Duration.ofMinutes(8));
        json = Files.exists(out.resolve("conformance.json")) ? ExactJson.parse(Files.readString(out.resolve("conformance.json"))) : null;
    }

    @Test
    void everyServerPassesEveryScoredScenarioAndBothClientsEveryOneTheDriversServe() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("server java        37 scored: 37 pass, 0 expected failure(s), 0 unexpected"), run.stdout());
        assertTrue(run.stdout().contains("server typescript  37 scored: 37 pass, 0 expected failure(s), 0 unexpected"), run.stdout());
        assertTrue(run.stdout().contains("server python      37 scored: 37 pass, 0 expected failure(s), 0 unexpected"), run.stdout());
        assertTrue(run.stdout().contains("server go          37 scored: 37 pass, 0 expected failure(s), 0 unexpected"), run.stdout());
        assertTrue(run.stdout().contains("server rust        37 scored: 37 pass, 0 expected failure(s), 0 unexpected"), run.stdout());
        assertTrue(run.stdout().contains("conformance every scored scenario passes or is an expected failure of its SDK;"
                + " every strict check holds (6 departures from a SHOULD, reported above)"), run.stdout());
        assertEquals("0.2.0-alpha.12", json.path("suite").path("version").asText());
        assertTrue(json.path("suite").path("node").asText().startsWith("v22."), json.path("suite").toString());
        List<String> mrtrSeen = new ArrayList<>();
        for (JsonNode scenario : json.path("scenarios")) {
            if (!scenario.path("side").asText().equals("server")) {
                continue;
            }
            for (String sdk : List.of("java", "typescript", "python", "go", "rust")) {
                assertEquals("pass", scenario.path("results").path(sdk).path("judgement").asText(), scenario.toString());
            }
            String name = scenario.path("scenario").asText();
            if (name.startsWith("input-required-result-")) {
                mrtrSeen.add(name.substring("input-required-result-".length()));
            }
        }
        assertEquals(MRTR, mrtrSeen, "all fourteen MRTR scenarios, scored and passed on the five servers");
        for (String sdk : List.of("java", "typescript")) {
            JsonNode client = scenario("client", "sep-2322-client-request-state").path("results").path(sdk);
            assertEquals("pass", client.path("judgement").asText(), client.toString());
            assertEquals(5, client.path("checks_passed").asInt(), client.toString());
        }
    }

    @Test
    void theStrictChecksHoldOnEveryProfileWithEveryCheckRun() {
        for (JsonNode strict : json.path("strict")) {
            assertTrue(strict.path("passed").asBoolean(), strict.toString());
            // The Go SDK refuses a POST that carries Last-Event-ID (docs/findings/go-sdk-last-event-id-on-post.md); every
            // server commits a round whose stream closed while it waited on the held ledger (closed-stream-commit-goes-on.md).
            String expected = strict.path("sdk").asText().equals("go") ? "17 passed, 0 failed, 2 departing from a SHOULD, 0 not run"
                    : "18 passed, 0 failed, 1 departing from a SHOULD, 0 not run";
            assertEquals(expected, strict.path("summary").asText(), "principal, expiry and both closed-stream checks ran too");
        }
        assertEquals(5, json.path("strict").size());
        assertTrue(run.stdout().contains("strict java        18 passed, 0 failed, 1 departing from a SHOULD, 0 not run;"
                + " departs: closed-stream-stops-work"), run.stdout());
        assertTrue(run.stdout().contains("strict python      18 passed, 0 failed, 1 departing from a SHOULD, 0 not run;"
                + " departs: closed-stream-stops-work"), run.stdout());
        assertTrue(run.stdout().contains("strict go          17 passed, 0 failed, 2 departing from a SHOULD, 0 not run;"
                + " departs: last-event-id-ignored, closed-stream-stops-work"), run.stdout());
        assertTrue(run.stdout().contains("strict rust        18 passed, 0 failed, 1 departing from a SHOULD, 0 not run;"
                + " departs: closed-stream-stops-work"), run.stdout());
    }

    /** The transport rules' table in CONFORMANCE.md: a row per rule with its level and section, a column per server. */
    @Test
    void theTransportRulesHaveTheirTable() throws Exception {
        String md = Files.readString(out.resolve("CONFORMANCE.md"));
        assertTrue(md.contains("| check | level | section of streamable-http.mdx | java | typescript | python | go | rust |"), md);
        assertTrue(md.contains("| `get-and-delete-405` | SHOULD | Backward Compatibility, Earlier Streamable HTTP Revisions | pass | pass"
                + " | pass | pass | pass |"), md);
        assertTrue(md.contains("| `last-event-id-ignored` | SHOULD | Backward Compatibility, Earlier Streamable HTTP Revisions | pass"
                + " | pass | pass | departs | pass |"), md);
        assertTrue(md.contains("| `closed-stream-cancels` | MUST | Cancellation | pass | pass | pass | pass | pass |"), md);
        assertTrue(md.contains("| `closed-stream-stops-work` | SHOULD | Cancellation | departs | departs | departs | departs | departs |"), md);
    }

    @Test
    void theFolderHasTheReportsAndTheSuitesOwnFilesAndNoToken() throws Exception {
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<section id=\"conformance-server\">") && html.contains("<section id=\"conformance-client\">"), html);
        String md = Files.readString(out.resolve("CONFORMANCE.md"));
        assertTrue(md.contains("| `input-required-result-request-state` | pass"), md);
        assertTrue(Files.isDirectory(out.resolve("server-java/suite")) && Files.isDirectory(out.resolve("client-typescript/driver")));
        try (Stream<Path> files = Files.walk(out)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith("tokens-")), "the strict run's tokens file is gone");
        }
    }

    @Test
    void strictAgainstAUrlChecksAServerSomeoneElseStartedAndNeverWritesItsTokens() throws Exception {
        Path folder = dir.resolve("own-server");
        Files.createDirectories(folder);
        try (BearerCredentials credentials = new BearerCredentials()) {
            Map<String, String> env = new LinkedHashMap<>(WireSettings.matrix(folder.resolve("store.sqlite3"), "alice").environment());
            env.putAll(ServerKind.TYPESCRIPT.environment(LabProcess.home()));
            env.put("WIRE_CONFORMANCE_STATE_TTL", "2");
            env.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice", "bob").toString());
            List<String> command = new ArrayList<>(ServerKind.TYPESCRIPT.command(LabProcess.home()));
            command.add("--conformance");
            try (HttpServerProcess server = HttpServerProcess.start("server", command, env, folder.resolve("t.log"),
                    folder.resolve("o.log"), folder.resolve("e.log"), Duration.ofSeconds(30), null, credentials.principalsByToken())) {
                String url = server.exchanges().endpoint().toString();
                Path strictOut = dir.resolve("strict");
                LabProcess.Result strict = LabProcess.run(List.of("conformance", "--strict", "--url", url, "--bearer",
                        credentials.token("alice"), "--other-bearer", credentials.token("bob"), "--state-ttl", "2", "--out",
                        strictOut.toString()), Map.of(), new byte[0], Duration.ofMinutes(2));
                assertEquals(0, strict.exitCode(), strict.stdout() + strict.stderr());
                // --url: the lab does not own this server's ledger, so the held-ledger check does not run.
                assertTrue(strict.stdout().contains("strict      18 passed, 0 failed, 1 not run; no check failed"), strict.stdout());
                String report = Files.readString(strictOut.resolve("strict.json"));
                assertTrue(report.contains("\"format\" : \"strict/2\""), report);
                for (String principal : List.of("alice", "bob")) {
                    assertFalse(report.contains(credentials.token(principal)) || strict.stdout().contains(credentials.token(principal)),
                            "no token in the report or on stdout");
                }
            }
        }
    }

    @Test
    void badInputIsOneLineAndRunsNothing() throws Exception {
        assertRefused(List.of("conformance", "--strict"), "lab conformance: --strict needs --url, the MCP endpoint of the server to check");
        assertRefused(List.of("conformance", "--url", "http://127.0.0.1:1/mcp"),
                "lab conformance: --url, --bearer, --other-bearer and --state-ttl go with --strict");
        assertRefused(List.of("conformance", "--sdk", "unguarded"), "lab conformance: the unguarded control has no conformance profile");
        assertRefused(List.of("conformance", "--sdk", "none", "--client", "none"),
                "lab conformance: --sdk none and --client none leave nothing to run");
        LabProcess.Result unreachable = LabProcess.run(List.of("conformance", "--strict", "--url", "http://127.0.0.1:9/mcp", "--out",
                dir.resolve("unreachable").toString()), Map.of(), "");
        assertEquals(1, unreachable.exitCode(), unreachable.stdout() + unreachable.stderr());
        assertTrue(unreachable.stderr().startsWith("lab conformance: cannot connect to 127.0.0.1:9"), unreachable.stderr());
        assertEquals(1, unreachable.stderr().strip().lines().count(), unreachable.stderr());
        LabProcess.Result used = LabProcess.run(List.of("conformance", "--client", "none", "--sdk", "java", "--out", out.toString()),
                Map.of(), "");
        assertEquals(1, used.exitCode());
        assertEquals("lab conformance: --out " + out + " is not empty; the lab never overwrites evidence", used.stderr().strip());
    }

    private void assertRefused(List<String> args, String line) throws Exception {
        Path folder = dir.resolve("refused-" + args.size() + "-" + args.hashCode());
        List<String> withOut = new ArrayList<>(args);
        withOut.addAll(List.of("--out", folder.toString()));
        LabProcess.Result refused = LabProcess.run(withOut, Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        assertEquals(line, refused.stderr().strip());
        assertFalse(Files.exists(folder), "nothing was written");
    }

    private static JsonNode scenario(String side, String name) {
        for (JsonNode scenario : json.path("scenarios")) {
            if (scenario.path("side").asText().equals(side) && scenario.path("scenario").asText().equals(name)) {
                return scenario;
            }
        }
        throw new AssertionError("no " + side + " scenario " + name);
    }
}
