package lab.continuationreplay.cli.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matrix over Streamable HTTP: {@code lab matrix --transport http} plays the twelve cases on each SDK (bearer
 * principals, a server process per spawn), the HTTP-only cases beside them, and the cross-SDK cells; every case must
 * reach its frozen outcome (the one stdio reaches: {@link LabMatrixIT}), and {@code lab verify} must agree. The
 * four-column run ({@code --transport all}) is the same code twice; the test command runs this half only, to keep
 * its time.
 */
class LabMatrixHttpIT {
    /** A token the lab mints: 32 random bytes in URL-safe base64, which must never reach evidence. */
    private static final Pattern TOKEN = Pattern.compile("Bearer [A-Za-z0-9_-]{43}");

    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheMatrixOnBothTransports() throws Exception {
        out = dir.resolve("matrix");
        // Java and TypeScript only, to keep the test command's time; the Python and Go columns over HTTP are `lab
        // matrix --transport http` (LabServerPythonHttpIT plays three of Python's cases, GoFixtureHttpIT covers Go's server).
        run = LabProcess.run(List.of("matrix", "--transport", "http", "--sdk", "java,typescript", "--out", out.toString()), Map.of(), new byte[0],
                java.time.Duration.ofMinutes(15));
    }

    @Test
    void everyCasePassesOnBothSdksOverHttpWithOneOutcomePerCase() throws Exception {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertFalse(Files.exists(out.resolve("java")), "--transport http plays no stdio column");
        for (String attempt : List.of("java-http", "typescript-http")) {
            assertTrue(Pattern.compile("(?m)^" + attempt + " +requested 12, executed 12, passed 12; checker \\(history only\\): no problem$")
                    .matcher(run.stdout()).find(), attempt + "\n" + run.stdout());
            assertEquals("{\n  \"executed\": 12,\n  \"passed\": 12,\n  \"requested\": 12\n}\n",
                    Files.readString(out.resolve(attempt).resolve("SUMMARY.json")));
        }
        JsonNode comparison = ExactJson.parse(Files.readString(out.resolve("comparison.json")));
        assertEquals(List.of("java-http", "typescript-http"), texts(comparison.path("sdks")));
        assertTrue(comparison.path("all_agree").asBoolean(), run.stdout());
        assertEquals(12, comparison.path("cases").size());
        assertTrue(run.stdout().contains("agree on every case"), run.stdout());
        assertEquals(List.of("java-to-typescript-http", "typescript-to-java-http"),
                comparison.path("cross_sdk_recovery").findValuesAsText("cell"), "both cross cells over HTTP");
        for (JsonNode cell : comparison.path("cross_sdk_recovery")) {
            assertEquals("pass", cell.path("status").asText(), cell.toString());
        }
        assertEquals("http", ExactJson.parse(Files.readString(out.resolve("java-http/provenance.json"))).path("transport").asText());
    }

    @Test
    void theHttpCasesPassBesideTheTwelveNotInsideThem() throws Exception {
        for (String sdk : List.of("java", "typescript")) {
            Path attempt = out.resolve("http-cases-" + sdk);
            assertEquals("{\n  \"executed\": 3,\n  \"passed\": 3,\n  \"requested\": 3\n}\n", Files.readString(attempt.resolve("SUMMARY.json")));
            assertTrue(run.stdout().contains("http-cases-" + sdk), run.stdout());
        }
        JsonNode comparison = ExactJson.parse(Files.readString(out.resolve("comparison.json")));
        assertEquals(6, comparison.path("http_cases").size());
        comparison.path("http_cases").forEach(c -> assertEquals("pass", c.path("status").asText(), c.toString()));
        // h1: the connection closed without a response, and the server lived on to answer status and the replay
        String h1 = Files.readString(out.resolve("http-cases-java/case-h1/server.transcript.log"));
        assertTrue(h1.contains("<x {\"exchange\":"), h1);
        // h3: twenty continuations at once, none refused with 503
        for (String sdk : List.of("java", "typescript")) {
            String h3 = Files.readString(out.resolve("http-cases-" + sdk + "/case-h3/server.transcript.log"));
            assertFalse(h3.contains("\"status\":503"), sdk + ": a continuation of the twenty was refused with 503");
            assertEquals(22, h3.lines().filter(l -> l.startsWith("<h ")).count(), sdk + ": tools/list, round one, twenty replies");
        }
        assertTrue(Files.readString(out.resolve("COMPARISON.md")).contains("## HTTP-only cases"));
    }

    @Test
    void noTokenReachesTheEvidenceOnlyItsPrincipal() throws Exception {
        String alice = Files.readString(out.resolve("java-http/case-01/server.transcript.log"));
        assertTrue(alice.contains("[\"Authorization\",\"Bearer [token of alice]\"]"), alice);
        String bob = Files.readString(out.resolve("typescript-http/case-06/bob.transcript.log"));
        assertTrue(bob.contains("Bearer [token of bob]"), bob);
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".sqlite3")).toList()) {
                String text = Files.readString(file);
                assertFalse(TOKEN.matcher(text).find(), file + " holds a bearer token");
                assertFalse(text.contains("lab-bearer-"), file + " names the tokens file");
            }
        }
    }

    @Test
    void theWireDifferencesShowTheHttpStatusOfEachRefusal() throws Exception {
        JsonNode differences = ExactJson.parse(Files.readString(out.resolve("comparison.json"))).path("wire_differences");
        List<String> javaStatuses = texts(differences.path("java-http").path("http_statuses"));
        assertTrue(javaStatuses.stream().anyMatch(s -> s.startsWith("200")), javaStatuses.toString());
        assertTrue(javaStatuses.contains("no response (connection closed)"), javaStatuses.toString());
        assertFalse(texts(differences.path("typescript-http").path("request_state_refusal")).isEmpty());
    }

    @Test
    void verifyAgreesAndCatchesAForgedHttpReply() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout());
        for (String attempt : List.of("java-http", "typescript-http", "http-cases-java", "http-cases-typescript",
                "cross-java-to-typescript-http")) {
            assertTrue(verified.stdout().contains("\"" + attempt + "\""), attempt + "\n" + verified.stdout());
        }
        Path copy = dir.resolve("tampered");
        EvidenceCopies.copyTree(out, copy);
        Path transcript = copy.resolve("java-http/case-01/server.transcript.log");
        Files.writeString(transcript, Files.readString(transcript).replace("\\\"replayed\\\":true", "\\\"replayed\\\":false"));
        LabProcess.Result tampered = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, tampered.exitCode(), tampered.stdout());
        assertTrue(tampered.stdout().contains("case 01"), tampered.stdout());
    }

    @Test
    void anHttpCaseOverStdioIsRefusedByName() throws Exception {
        LabProcess.Result refused = LabProcess.run(List.of("matrix", "--cases", "h1", "--out", dir.resolve("h1-stdio").toString()),
                Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        assertTrue(refused.stderr().contains("the HTTP cases h1..h3 need --transport http or all"), refused.stderr());
        LabProcess.Result unknown = LabProcess.run(List.of("matrix", "--transport", "carrier-pigeon"), Map.of(), "");
        assertEquals(1, unknown.exitCode(), unknown.stdout() + unknown.stderr());
        assertTrue(unknown.stderr().contains("unknown transport 'carrier-pigeon' (stdio, http or all)"), unknown.stderr());
        assertFalse(Files.exists(dir.resolve("h1-stdio")), "nothing is written for a refused command");
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
