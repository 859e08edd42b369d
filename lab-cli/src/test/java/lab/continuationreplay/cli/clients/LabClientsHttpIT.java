package lab.continuationreplay.cli.clients;

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
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.Seen;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.matrix.clients.ClientsRunner;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab clients --transport http} end to end: the lab starts each server over Streamable HTTP behind a recording
 * relay, the official clients reach it by URL with a bearer token, and the checker judges every client case in every
 * cross cell (about 45 s on two cores), then {@code lab verify} and a forgery it must refuse.
 */
class LabClientsHttpIT {
    /** Each client and each server over HTTP, in half the cells; {@code lab clients --transport http} runs all four. */
    private static final List<String> CELLS = List.of("client-java-server-typescript-http", "client-typescript-server-java-http");

    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheClientsOverHttp() throws Exception {
        out = dir.resolve("clients-http");
        run = LabProcess.run(ClientsTestPlan.HTTP_JAVA_TYPESCRIPT_CROSS.arguments(out, 0), Map.of(), new byte[0],
                Duration.ofMinutes(10));
    }

    @Test
    void everyCaseHoldsInEveryHttpCell() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        int cases = ClientCases.all().size();
        for (String cell : CELLS) {
            assertTrue(run.stdout().contains(String.format("%-32s requested %d, executed %d, passed %d; checker (history only): no problem",
                    cell, cases, cases, cases)), run.stdout());
        }
        assertFalse(Files.exists(out.resolve("client-java-server-java")), "no stdio cell was asked for");
        assertTrue(run.stdout().contains("differences cases output-schema, version-default (expected per cell"), run.stdout());
    }

    @Test
    void theReportNamesEachCellsTransport() throws Exception {
        JsonNode clients = ExactJson.parse(Files.readString(out.resolve(Layout.CLIENTS_FILE)));
        for (String cell : CELLS) {
            assertEquals("http", clients.path("transports").path(cell).asText(), cell);
            assertEquals("http", clients.path("cases").get(0).path("cells").path(cell).path("transport").asText(), cell);
            assertEquals("http", record(cell, "01").path("transport").asText(), cell);
        }
        assertTrue(Files.readString(out.resolve("report.html")).contains("java (http)"));
    }

    /** Over HTTP the relay closes the connection: the client knows at once, and the same client recovers. */
    @Test
    void aDroppedReplyIsLostAtOnceNotTimedOutAndRecoveredOnTheSameConnection() throws Exception {
        for (String cell : CELLS) {
            JsonNode record = record(cell, "dropped-reply");
            JsonNode lost = null;
            for (JsonNode step : record.path("steps")) {
                if (step.path("step").asText().equals("2")) {
                    lost = step;
                }
            }
            assertEquals("lost", lost.path("seen").asText(), cell);
            assertTrue(lost.path("elapsed_ms").asLong() < 2_900, cell + " took " + lost.path("elapsed_ms") + " ms: it waited for the 3000 ms timeout");
            assertTrue(record.path("recovered").asBoolean(), cell);
            JsonNode relay = ExactJson.parse(Files.readString(caseFolder(cell, "dropped-reply").resolve("server" + Layout.RELAY_SUFFIX)));
            assertEquals("relay/1", relay.path("format").asText());
            assertEquals(1, relay.path("continuation").asInt());
            assertTrue(relay.path("dropped_reply_to").isValueNode(), relay.toString());
        }
        assertTrue(record("client-typescript-server-java-http", "dropped-reply").path("steps").get(1).path("shown").asText().equals("threw TypeError"));
    }

    @Test
    void theLabStartsEachServerOnceAndSaysWhichEndedByThemselves() throws Exception {
        for (String cell : CELLS) {
            JsonNode processes = ExactJson.parse(Files.readString(caseFolder(cell, "03").resolve(Layout.PROCESSES))).path("processes");
            assertEquals(3, processes.size(), cell + ": " + processes);
            assertEquals("driver", processes.get(0).path("name").asText());
            assertEquals(0, processes.get(0).path("exit_status").asInt());
            assertEquals("crash", processes.get(1).path("name").asText());
            assertEquals("server_exit", processes.get(1).path("ended_by").asText(), cell);
            assertEquals(70, processes.get(1).path("exit_status").asInt(), cell);
            assertEquals("restart", processes.get(2).path("name").asText());
            assertEquals("lab_stopped", processes.get(2).path("ended_by").asText(), cell);
            assertEquals(1, record(cell, "01").path("server_process_starts").path("server").asInt(),
                    cell + ": over HTTP the client starts no server, so the pinned TypeScript client's probe is one more POST");
        }
    }

    @Test
    void verifyAgreesOnTheFolder() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        for (String cell : CELLS) {
            assertTrue(verified.stdout().contains("\"" + cell + "\""), verified.stdout());
        }
    }

    /**
     * The TypeScript client's lost reply turned into a refused connection: a TypeError "fetch failed" still, but one
     * that never reached the server, which the checker must not read as lost.
     */
    @Test
    void aForgedCauseIsRefusedByTheCheckersJudgement() throws Exception {
        Path copy = dir.resolve("forged");
        EvidenceCopies.copyTree(out, copy);
        Path attempt = copy.resolve("client-typescript-server-java-http");
        Path records = attempt.resolve(Layout.caseFolder("dropped-reply")).resolve(Layout.CLIENT_RECORDS);
        String text = Files.readString(records);
        assertTrue(text.contains("\"cause\":\"SocketError: other side closed\""), text);
        Files.writeString(records, text.replace("\"cause\":\"SocketError: other side closed\"",
                "\"cause\":\"Error: connect ECONNREFUSED 127.0.0.1:9\""));
        EvidenceCopies.rehash(attempt, Layout.caseFolder("dropped-reply"));
        Files.delete(attempt.resolve(Layout.RESULTS));
        Files.delete(attempt.resolve(Layout.SUMMARY));
        AttemptCheck.deriveAndWrite(attempt);
        LabProcess.Result verdict = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains("case dropped-reply: fail"), verdict.stdout());
        assertTrue(verdict.stdout().contains("step 2 (call_once): saw other TypeError (threw TypeError), expected lost"), verdict.stdout());
        assertFalse(verdict.stdout().contains("artifacts differ from the hashes"), "the hashes were fixed: " + verdict.stdout());
    }

    /**
     * The runner in this JVM with tokens the test holds, both drivers and both servers: no evidence file holds a
     * token, while the driver had them (its calls were answered) and the script names only the variable.
     */
    @Test
    void noTokenReachesAnyEvidenceFile() throws Exception {
        Path folder = dir.resolve("tokens");
        Files.createDirectories(folder);
        List<String> tokens = new ArrayList<>();
        PrintStream progress = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (BearerCredentials credentials = new BearerCredentials()) {
            var cases = List.of(ClientCases.spec(ClientCaseId.of("03")));
            ClientsRunner.run(cases, ClientKind.JAVA, ServerKind.TYPESCRIPT, Transport.HTTP, folder, LabProcess.home(),
                    Duration.ofSeconds(3), credentials, progress);
            ClientsRunner.run(cases, ClientKind.TYPESCRIPT, ServerKind.JAVA, Transport.HTTP, folder, LabProcess.home(),
                    Duration.ofSeconds(3), credentials, progress);
            tokens.addAll(credentials.principalsByToken().keySet());
        }
        assertEquals(1, tokens.size(), "case 03 speaks as alice only");
        for (String cell : List.of("client-java-server-typescript-http", "client-typescript-server-java-http")) {
            Path attempt = folder.resolve(cell);
            assertEquals("pass", AttemptCheck.deriveAndWrite(attempt).records().get(0).path("status").asText(), cell);
            JsonNode script = ExactJson.parse(Files.readString(attempt.resolve(Layout.caseFolder("03")).resolve(Layout.SCRIPT)));
            assertEquals("LAB_BEARER_TOKEN_ALICE", script.path("servers").path("crash").path("bearer_token_env").asText());
            assertTrue(script.path("servers").path("crash").path("url").asText().startsWith("http://127.0.0.1:"), script.toString());
        }
        int files = 0;
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(file);
                String text = new String(bytes, StandardCharsets.ISO_8859_1);
                for (String token : tokens) {
                    assertFalse(text.contains(token), file + " holds a token");
                }
                files++;
            }
        }
        assertTrue(files > 20, "the runs left their evidence: " + files + " files");
    }

    /** A server that refuses its settings never serves: the case is a machinery error and no driver runs. */
    @Test
    void aServerThatCannotStartOverHttpStopsTheCaseBeforeTheDriver() throws Exception {
        Path folder = dir.resolve("no-start");
        Files.createDirectories(folder);
        ClientCase unstartable = ClientCase.of(ClientCaseId.IDENTICAL_RETRY).server("server", ServerSetup.alice().withTtls(0, 360, 600))
                .connect("a", "server").roundOne("a", "s1").sees(Seen.of(Seen.Kind.INPUT_REQUIRED)).close("a").build();
        try (BearerCredentials credentials = new BearerCredentials()) {
            ClientsRunner.run(List.of(unstartable), ClientKind.JAVA, ServerKind.JAVA, Transport.HTTP, folder, LabProcess.home(),
                    Duration.ofSeconds(3), credentials, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        Path attempt = folder.resolve("client-java-server-java-http");
        JsonNode history = ExactJson.parse(Files.readAllLines(attempt.resolve(Layout.HISTORY)).get(0));
        String error = history.path("machinery_error").asText();
        assertTrue(error.startsWith("a server did not start over HTTP, so the driver did not run: java server case-01/server exited 2"), error);
        assertTrue(error.contains("WIRE_AUTHORITY_TTL must be positive"), error);
        Path caseFolder = attempt.resolve(Layout.caseFolder("01"));
        assertFalse(Files.exists(caseFolder.resolve(Layout.CLIENT_RECORDS)), "the driver never ran");
        assertFalse(Files.exists(caseFolder.resolve(Layout.SCRIPT)), "no script was written for a driver that never ran");
        JsonNode processes = ExactJson.parse(Files.readString(caseFolder.resolve(Layout.PROCESSES))).path("processes");
        assertEquals(1, processes.size(), processes.toString());
        assertTrue(processes.get(0).path("exit_status").isNull(), processes.toString());
        assertFalse(AttemptCheck.deriveAndWrite(attempt).ok(), "a case that never ran does not pass");
    }

    @Test
    void aCellOverHttpNeedsTheRunsCredentials() {
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ClientsRunner.run(List.of(), ClientKind.JAVA, ServerKind.JAVA, Transport.HTTP, dir.resolve("none"),
                        LabProcess.home(), null, null, System.err));
        assertEquals("client cells over HTTP need bearer credentials", refused.getMessage());
        assertFalse(Files.exists(dir.resolve("none").resolve("client-java-server-java-http")));
    }

    @Test
    void anUnknownTransportIsOneLineAndStartsNothing() throws Exception {
        LabProcess.Result bad = LabProcess.run(List.of("clients", "--transport", "smoke", "--out", dir.resolve("bad").toString()), Map.of(), "");
        assertEquals(1, bad.exitCode());
        assertEquals("lab clients: unknown transport 'smoke' (stdio, http or all)\n", bad.stderr());
        assertFalse(Files.exists(dir.resolve("bad")), "nothing was written");
    }

    @Test
    void crossWithOneSdkOnBothSidesLeavesNoCellAndSaysSo() throws Exception {
        LabProcess.Result none = LabProcess.run(List.of("clients", "--cross", "--client", "java", "--sdk", "java", "--out",
                dir.resolve("no-cell").toString()), Map.of(), "");
        assertEquals(1, none.exitCode());
        assertEquals("lab clients: --cross leaves no cell: the clients and the servers are the same SDK\n", none.stderr());
        assertFalse(Files.exists(dir.resolve("no-cell")), "nothing was written");
    }

    private static Path caseFolder(String cell, String caseId) {
        return out.resolve(cell).resolve(Layout.caseFolder(caseId));
    }

    private static JsonNode record(String cell, String caseId) throws Exception {
        for (String line : Files.readAllLines(out.resolve(cell).resolve(Layout.RESULTS))) {
            JsonNode record = ExactJson.parse(line);
            if (record.path("case_id").asText().equals(caseId)) {
                return record;
            }
        }
        throw new AssertionError(cell + " has no record of case " + caseId);
    }
}
