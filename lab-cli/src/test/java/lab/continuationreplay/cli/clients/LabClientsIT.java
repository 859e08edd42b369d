package lab.continuationreplay.cli.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.HeadlessBrowser;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab clients} end to end: the official Java and TypeScript clients each against its own SDK's server, every
 * client case, then {@code lab verify} on what they left and a forgery the checker must refuse by its own judgement.
 * Their cross cells play every case over HTTP ({@link LabClientsHttpIT}); {@code lab clients} plays all of them.
 */
class LabClientsIT {
    private static final List<String> CELLS = List.of("client-java-server-java", "client-typescript-server-typescript");

    @TempDir
    static Path dir;
    /** One run per cell, each in its own folder: {@code lab clients} plays a product of clients and servers. */
    static final Map<String, Path> outs = new java.util.LinkedHashMap<>();
    static final Map<String, LabProcess.Result> runs = new java.util.LinkedHashMap<>();

    @BeforeAll
    static void runTheClients() throws Exception {
        // The Python, Go and Rust cells are LabClientsQuickIT's, in quick form.
        List<ClientsTestPlan.Run> plan = List.of(ClientsTestPlan.STDIO_JAVA, ClientsTestPlan.STDIO_TYPESCRIPT);
        for (int i = 0; i < CELLS.size(); i++) {
            Path out = dir.resolve(CELLS.get(i));
            outs.put(CELLS.get(i), out);
            runs.put(CELLS.get(i), LabProcess.run(plan.get(i).arguments(out, 0), Map.of(), new byte[0], java.time.Duration.ofMinutes(10)));
        }
    }

    @Test
    void everyCaseHoldsInEveryCell() {
        int cases = ClientCases.all().size();
        for (String cell : CELLS) {
            LabProcess.Result run = runs.get(cell);
            assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
            assertTrue(run.stdout().contains(String.format("%-32s requested %d, executed %d, passed %d; checker (history only): no problem",
                    cell, cases, cases, cases)), run.stdout());
        }
    }

    @Test
    void eachCellsDatabasesHoldExactlyTheExpectedEffects() throws Exception {
        for (String cell : CELLS) {
            for (ClientCase clientCase : ClientCases.all()) {
                Path database = outs.get(cell).resolve(cell).resolve(Layout.caseFolder(clientCase.id().label())).resolve(Layout.DATABASE);
                assertEquals(clientCase.effects(), count(database, "issues"), cell + " " + clientCase.id().label());
                assertTrue(count(database, "operations") <= 1, cell + " " + clientCase.id().label() + ": one operation at most");
            }
        }
    }

    @Test
    void theAutomaticRetryAfterALostReplyIsRefusedForTheCallersOwnWriteAndOnlyStatusRecovers() throws Exception {
        for (String cell : CELLS) {
            JsonNode record = record(cell, "03-auto");
            List<String> seen = new ArrayList<>();
            record.path("steps").forEach(s -> seen.add(s.path("seen").asText()));
            assertEquals(List.of("lost", "refused operation_conflict", "status applied"), seen, cell);
            assertTrue(record.path("recovered").asBoolean(), cell);
            assertEquals(1, record.path("effects").asInt(), cell);
        }
    }

    @Test
    void aDroppedReplyIsNoticedAfterTheRequestTimeoutAndRecoveredOnTheSameConnection() throws Exception {
        for (String cell : CELLS) {
            JsonNode timeout = null;
            for (JsonNode step : record(cell, "dropped-reply").path("steps")) {
                if (step.path("seen").asText().equals("timeout")) {
                    timeout = step;
                }
            }
            assertTrue(timeout != null, cell);
            long elapsed = timeout.path("elapsed_ms").asLong();
            assertTrue(elapsed >= 2_900 && elapsed < 10_000, cell + " waited " + elapsed + " ms for a 3000 ms timeout");
            assertTrue(record(cell, "dropped-reply").path("recovered").asBoolean(), cell);
        }
    }

    /**
     * Case 08: one state continued on two connections at once. Each driver records each inner step of the parallel step
     * under a textual id ("N.0", "N.1") and the parallel step itself not at all; both answers name one effect, one
     * applied and one replayed.
     */
    @Test
    void aParallelStepIsRecordedByItsInnerStepsAndBothNameOneEffect() throws Exception {
        for (String cell : CELLS) {
            Path records = outs.get(cell).resolve(cell).resolve(Layout.caseFolder("08")).resolve(Layout.CLIENT_RECORDS);
            List<JsonNode> inner = new ArrayList<>();
            java.util.Set<Object> steps = new java.util.HashSet<>();
            for (String line : Files.readAllLines(records)) {
                JsonNode record = ExactJson.parse(line);
                steps.add(record.path("step").isTextual() ? record.path("step").asText() : record.path("step").asInt());
                if (record.path("step").isTextual()) {
                    inner.add(record);
                }
            }
            assertEquals(2, inner.size(), cell + ": " + steps);
            String parallel = inner.get(0).path("step").asText().split("\\.")[0];
            assertEquals(List.of(parallel + ".0", parallel + ".1"), inner.stream().map(r -> r.path("step").asText()).sorted().toList(),
                    cell + ": written as each ends, in either order");
            assertFalse(steps.contains(Integer.parseInt(parallel)), cell + ": the parallel step itself has no record: " + steps);
            java.util.Set<Boolean> replayed = new java.util.HashSet<>();
            java.util.Set<String> effects = new java.util.HashSet<>();
            for (JsonNode record : inner) {
                assertEquals("result", record.path("outcome").asText(), cell + " " + record);
                replayed.add(record.at("/result/structuredContent/replayed").asBoolean());
                effects.add(record.at("/result/structuredContent/effectId").asText());
            }
            assertEquals(java.util.Set.of(false, true), replayed, cell);
            assertEquals(1, effects.size(), cell + ": " + effects);
        }
    }

    @Test
    void theTypeScriptClientStartsItsServerTwicePerConnectionWhenItPinsTheVersion() throws Exception {
        assertEquals(2, record("client-typescript-server-typescript", "01").path("server_process_starts").path("server").asInt());
        assertEquals(1, record("client-java-server-java", "01").path("server_process_starts").path("server").asInt());
        assertEquals(1, record("client-typescript-server-typescript", "version-default").path("server_process_starts").path("server").asInt());
    }

    /** The clients' page keeps the matrix report's style: a table per case, no sideways scrolling on a laptop. */
    @Test
    void theReportFitsALaptopScreen() throws Exception {
        HeadlessBrowser.Page page = HeadlessBrowser.open(outs.get("client-typescript-server-typescript").resolve("report.html"),
                dir.resolve("browser"),
                Map.of("cases", "h2 + table"));
        assertEquals(ClientCases.all().size(), page.count("cases"), page.toString());
        assertTrue(page.fits(), "the clients' report.html needs sideways scrolling at " + HeadlessBrowser.WIDTH + " px: " + page);
    }

    @Test
    void verifyAgreesOnTheFolder() throws Exception {
        for (String cell : CELLS) {
            LabProcess.Result verified = LabProcess.run(List.of("verify", outs.get(cell).toString()), Map.of(), "");
            assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
            assertTrue(verified.stdout().contains("\"" + cell + "\""), verified.stdout());
        }
    }

    /** A client record says the reply timed out where it was lost; the hashes and derived files are made consistent. */
    @Test
    void aForgedExceptionTypeIsRefusedByTheCheckersJudgement() throws Exception {
        Path copy = dir.resolve("forged");
        EvidenceCopies.copyTree(outs.get("client-java-server-java"), copy);
        Path attempt = copy.resolve("client-java-server-java");
        Path records = attempt.resolve("case-03").resolve(Layout.CLIENT_RECORDS);
        String text = Files.readString(records);
        assertTrue(text.contains("\"McpResponseLostException\""), text);
        Files.writeString(records, text.replace("\"McpResponseLostException\"", "\"McpTimeoutException\""));
        EvidenceCopies.rehash(attempt, "case-03");
        Files.delete(attempt.resolve(Layout.RESULTS));
        Files.delete(attempt.resolve(Layout.SUMMARY));
        AttemptCheck.deriveAndWrite(attempt);
        LabProcess.Result verdict = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains("case 03: fail"), verdict.stdout());
        assertTrue(verdict.stdout().contains("step 2 (call_once): saw timeout (threw McpTimeoutException), expected lost"), verdict.stdout());
        assertFalse(verdict.stdout().contains("artifacts differ from the hashes"), "the hashes were fixed: " + verdict.stdout());
    }

    @Test
    void badArgumentsAreOneLineAndStartNothing() throws Exception {
        LabProcess.Result unknown = LabProcess.run(List.of("clients", "--cases", "99", "--out", dir.resolve("bad-1").toString()), Map.of(), "");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.stderr().startsWith("lab clients: no client case 99 (the client cases are 01, 02, 03, "), unknown.stderr());
        assertFalse(Files.exists(dir.resolve("bad-1")), "nothing was written");
        LabProcess.Result client = LabProcess.run(List.of("clients", "--client", "cobol"), Map.of(), "");
        assertEquals("lab clients: unknown client 'cobol' (java, typescript, python, go or rust)\n", client.stderr());
        LabProcess.Result timeout = LabProcess.run(List.of("clients", "--request-timeout-ms", "5"), Map.of(), "");
        assertEquals("lab clients: --request-timeout-ms must be between 100 and 600000\n", timeout.stderr());
        Path out = outs.get("client-java-server-java");
        LabProcess.Result taken = LabProcess.run(List.of("clients", "--out", out.toString()), Map.of(), "");
        assertEquals("lab clients: --out " + out + " is not empty; the lab never overwrites evidence\n", taken.stderr());
    }

    private static JsonNode record(String cell, String caseId) throws Exception {
        for (String line : Files.readAllLines(outs.get(cell).resolve(cell).resolve(Layout.RESULTS))) {
            JsonNode record = ExactJson.parse(line);
            if (record.path("case_id").asText().equals(caseId)) {
                return record;
            }
        }
        throw new AssertionError(cell + " has no record of case " + caseId);
    }

    private static long count(Path database, String table) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
                ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            return rows.getLong(1);
        }
    }
}
