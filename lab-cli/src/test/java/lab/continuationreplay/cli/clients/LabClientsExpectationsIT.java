package lab.continuationreplay.cli.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cells where ClientCases expects something of their own and no other client IT plays them
 * ({@link ClientsTestPlan#remaining()}: today {@code dropped-reply} over HTTP in every cell, {@code version-default}
 * of the TypeScript client against the Python and Go servers), each run as {@code lab clients} runs it. The Python
 * client's HTTP {@code dropped-reply} cells are expected failures: exit 0, shown with their finding; a forged
 * violation more or fewer is a failure.
 */
class LabClientsExpectationsIT {
    private static final long REQUEST_TIMEOUT_MS = 15000;

    @TempDir
    static Path dir;
    static final List<Path> outs = new ArrayList<>();
    static final List<LabProcess.Result> runs = new ArrayList<>();

    @BeforeAll
    static void playTheRemainingCells() throws Exception {
        int i = 0;
        for (ClientsTestPlan.Run run : ClientsTestPlan.remaining()) {
            Path out = dir.resolve("run-" + i++);
            outs.add(out);
            runs.add(LabProcess.run(run.arguments(out, REQUEST_TIMEOUT_MS), Map.of(), new byte[0], Duration.ofMinutes(8)));
        }
    }

    @Test
    void everyCellHoldsItsExpectationOrFailsExactlyAsListed() {
        assertFalse(runs.isEmpty(), "the plan leaves cells to this IT");
        for (int i = 0; i < runs.size(); i++) {
            LabProcess.Result run = runs.get(i);
            assertEquals(0, run.exitCode(), ClientsTestPlan.remaining().get(i) + "\n" + run.stdout() + run.stderr());
        }
    }

    @Test
    void theExpectedFailuresAreShownWithTheirFindingEverywhere() throws Exception {
        ClientExpectedFailure expected = ClientCases.expectedFailures().get(0);
        Path out = outOf(expected);
        String stdout = runs.get(outs.indexOf(out)).stdout();
        for (String server : expected.servers()) {
            String cell = Layout.clientCell(expected.client(), server) + Layout.HTTP_SUFFIX;
            assertTrue(stdout.contains(String.format("%-32s requested 1, executed 1, passed 0, expected failures 1 (case %s: %s);"
                    + " checker (history only): no problem", cell, expected.caseId().label(), expected.finding())), stdout);
            JsonNode record = ExactJson.parse(Files.readAllLines(out.resolve(cell).resolve(Layout.RESULTS)).get(0));
            assertEquals("expected_failure", record.path("status").asText());
            assertEquals(expected.violations(), ExactJson.mapper().convertValue(record.path("violations"), List.class));
            assertEquals(expected.finding(), record.path("expected_failure").path("finding").asText());
        }
        JsonNode clients = ExactJson.parse(Files.readString(out.resolve(Layout.CLIENTS_FILE)));
        assertFalse(clients.path("all_pass").asBoolean());
        assertTrue(clients.path("all_as_expected").asBoolean());
        assertTrue(Files.readString(out.resolve("CLIENTS.md")).contains("expected failure (" + expected.finding() + ")"));
        assertTrue(Files.readString(out.resolve("report.html")).contains("class=\"expected\""));
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        assertTrue(verified.stdout().contains("\"expected_failures\" : 1"), verified.stdout());
    }

    /**
     * One of the listed cells with its commit seen as something else: a violation the entry does not list, so the
     * cell is a failure however close, and {@code lab verify} exits 1 naming the entry.
     */
    @Test
    void aViolationTheEntryDoesNotListMakesTheCellAFailure() throws Exception {
        ClientExpectedFailure expected = ClientCases.expectedFailures().get(0);
        Path copy = dir.resolve("forged");
        EvidenceCopies.copyTree(outOf(expected), copy);
        String cell = Layout.clientCell(expected.client(), expected.servers().get(0)) + Layout.HTTP_SUFFIX;
        Path attempt = copy.resolve(cell);
        Path records = attempt.resolve(Layout.caseFolder(expected.caseId().label())).resolve(Layout.CLIENT_RECORDS);
        List<String> lines = new ArrayList<>(Files.readAllLines(records));
        boolean changed = false;
        for (int i = 0; i < lines.size(); i++) {
            ObjectNode line = (ObjectNode) ExactJson.parse(lines.get(i));
            if (line.path("step").asText().equals("1")) {
                // round one threw instead of answering: seen as something else than input_required
                line.put("outcome", "threw");
                line.putNull("result");
                line.putNull("saved_state");
                line.putObject("threw").put("type", "RuntimeError").putNull("code").put("message", "forged")
                        .putNull("data").putNull("cause");
                lines.set(i, CanonicalJson.canonical(line));
                changed = true;
            }
        }
        assertTrue(changed, "the records hold step 1");
        Files.write(records, lines);
        EvidenceCopies.rehash(attempt, Layout.caseFolder(expected.caseId().label()));
        Files.delete(attempt.resolve(Layout.RESULTS));
        Files.delete(attempt.resolve(Layout.SUMMARY));
        AttemptCheck.deriveAndWrite(attempt);
        LabProcess.Result verdict = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains("case " + expected.caseId().label() + ": fail"), verdict.stdout());
        assertTrue(verdict.stdout().contains("listed as an expected failure with exactly"), verdict.stdout());
        assertFalse(verdict.stdout().contains("artifacts differ from the hashes"), verdict.stdout());
    }

    private static Path outOf(ClientExpectedFailure expected) {
        List<ClientsTestPlan.Run> remaining = ClientsTestPlan.remaining();
        for (int i = 0; i < remaining.size(); i++) {
            ClientsTestPlan.Run run = remaining.get(i);
            if (run.cases().contains(expected.caseId()) && run.transports().contains(expected.transport())
                    && run.clients().contains(expected.client())) {
                return outs.get(i);
            }
        }
        throw new AssertionError("no remaining run plays " + expected);
    }
}
