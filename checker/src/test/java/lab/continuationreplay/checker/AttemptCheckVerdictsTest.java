package lab.continuationreplay.checker;

import static lab.continuationreplay.checker.ClientCaseFolder.closed;
import static lab.continuationreplay.checker.ClientCaseFolder.connected;
import static lab.continuationreplay.checker.ClientCaseFolder.result;
import static lab.continuationreplay.checker.ClientCaseFolder.roundOne;
import static lab.continuationreplay.checker.ClientCaseFolder.status;
import static lab.continuationreplay.checker.ClientCaseFolder.threw;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.history.RunLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each verdict {@link AttemptCheck} gives on an attempt folder, beside the format refusals of
 * {@link AttemptCheckFormatTest}: a client cell written by hand (requested.json, the runner's history line, one case
 * folder), judged from those files alone. A pass must count, and every other outcome must be a problem line.
 */
class AttemptCheckVerdictsTest {
    private static final String CELL = "client-java-server-java";
    private static final String LISTED_CELL = "client-python-server-java-http";

    @TempDir
    Path dir;

    private Path attempt(String name, String... entries) throws Exception {
        Path attempt = Files.createDirectories(dir.resolve(name));
        Files.writeString(attempt.resolve("requested.json"), "{\"format\":\"requested/1\",\"cases\":[" + String.join(",", entries) + "]}\n");
        return attempt;
    }

    private static String entry(String id, String name) {
        return "{\"id\":\"" + id + "\",\"name\":\"" + name + "\"}";
    }

    /** Case 01 in the Java cell, as the healthy history of ClientJudgeVerdictsTest has it. */
    private ClientCaseFolder case01(Path attempt) throws Exception {
        ClientCaseFolder history = new ClientCaseFolder(attempt, "01").exit("server", 0);
        history.record(connected(0)).record(roundOne(1)).record(result(2, "created 1", false))
                .record(result(3, "created 1", true)).record(closed(4));
        history.ledger("client-01");
        return history;
    }

    private static void recorded(Path attempt, ClientCaseFolder history, String machineryError) throws Exception {
        RunLog.append(attempt.resolve("history.jsonl"), history.write(), machineryError);
    }

    @Test
    void aFolderWithoutRequestedJsonIsRefusedCountingEveryCaseItCouldHold() throws Exception {
        Path java = Files.createDirectories(dir.resolve("java"));
        Verdict verdict = AttemptCheck.derive(java);
        assertEquals(List.of("missing " + java.resolve("requested.json")), verdict.problems());
        // counted as everything it could have held, so an empty folder can never look complete
        assertEquals(CaseId.values().length, verdict.requested());
        assertEquals(0, verdict.executed());
        assertFalse(verdict.ok());
        assertEquals(ClientCaseId.values().length, AttemptCheck.derive(Files.createDirectories(dir.resolve(CELL))).requested());
    }

    @Test
    void aRequestedEntryThatIsNoClientCaseIsRefused() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical"), entry("99", "unknown"));
        Files.writeString(attempt.resolve("history.jsonl"), "");
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("requested case {\"id\":\"01\",\"name\":\"identical\"} is not a client case",
                "requested case {\"id\":\"99\",\"name\":\"unknown\"} is not a client case"), verdict.problems());
        assertEquals(0, verdict.requested());
    }

    @Test
    void aCaseWhoseRecordPassesIsCountedAsPassed() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        recorded(attempt, case01(attempt), null);
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of(), verdict.problems());
        assertEquals(List.of(1, 1, 1), List.of(verdict.requested(), verdict.executed(), verdict.passed()));
        assertTrue(verdict.ok());
    }

    @Test
    void aCaseRequestedTwiceIsAProblemAndCountedOnce() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"), entry("01", "identical_retry"));
        recorded(attempt, case01(attempt), null);
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("requested case {\"id\":\"01\",\"name\":\"identical_retry\"} is requested twice"), verdict.problems());
        assertEquals(List.of(1, 1, 1), List.of(verdict.requested(), verdict.executed(), verdict.passed()));
        assertFalse(verdict.ok());
    }

    @Test
    void aCaseWhoseRecordFailsIsAProblemNamingItsViolations() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        ClientCaseFolder history = case01(attempt);
        history.unguardedIssue("guarded-client-01");
        recorded(attempt, history, null);
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("case 01: fail [\"2 issues, expected 1\"]"), verdict.problems());
        assertEquals(List.of(1, 1, 0), List.of(verdict.requested(), verdict.executed(), verdict.passed()));
    }

    @Test
    void aCaseTheMachineryStoppedIsAProblemNamingTheError() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        recorded(attempt, case01(attempt), "driver exited 3");
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("case 01: machinery_error [] (machinery error: driver exited 3)"), verdict.problems());
        assertEquals(1, verdict.executed());
        assertEquals(0, verdict.passed());
    }

    @Test
    void aCaseChangedAfterTheRunIsNotJudged() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        ClientCaseFolder history = case01(attempt);
        recorded(attempt, history, null);
        String differ = "case 01: artifacts differ from the hashes the run recorded in history.jsonl";

        Path records = history.folder.resolve("client.records.jsonl");
        String written = Files.readString(records);
        Files.writeString(records, written.replace("\"replayed\":false", "\"replayed\":true"));
        Verdict edited = AttemptCheck.derive(attempt);
        assertEquals(List.of(differ), edited.problems());
        assertEquals(0, edited.executed());

        Files.writeString(records, written);
        assertEquals(List.of(), AttemptCheck.derive(attempt).problems());
        Files.writeString(history.folder.resolve("late.log"), "a file added after the history line\n");
        assertEquals(List.of(differ), AttemptCheck.derive(attempt).problems());
    }

    @Test
    void aCaseWhoseEvidenceCannotBeReadIsAProblemNotACrash() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        ClientCaseFolder history = case01(attempt);
        history.write();
        Files.delete(history.folder.resolve("processes.json"));
        RunLog.append(attempt.resolve("history.jsonl"), history.folder, null);
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("case 01: " + CELL + "/case-01/processes.json is missing"), verdict.problems());
        assertEquals(0, verdict.executed());
    }

    /** The dropped-reply case in the cell the lab lists as an expected failure; {@code recovers} makes it pass. */
    private ClientCaseFolder droppedReply(Path attempt, boolean recovers) throws Exception {
        ClientCaseFolder history = new ClientCaseFolder(attempt, "dropped-reply").exit("server", 0);
        history.record(connected(0)).record(roundOne(1)).record(threw(2, "call_once", "MCPError", "-32000", "Connection closed"));
        if (recovers) {
            history.record(status(3, "created 1")).record(result(4, "created 1", true));
        } else {
            history.record(threw(3, "status", "MCPError", "-32000", "Connection closed"))
                    .record(threw(4, "call_once", "MCPError", "-32000", "Connection closed"));
        }
        history.record(closed(5)).ledger("client-dropped-reply");
        return history;
    }

    @Test
    void anExpectedFailureIsNeitherAProblemNorAPass() throws Exception {
        Path attempt = attempt(LISTED_CELL, entry("dropped-reply", "dropped_reply"));
        recorded(attempt, droppedReply(attempt, false), null);
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of(), verdict.problems());
        assertEquals(0, verdict.passed());
        assertEquals(1, verdict.expectedFailures());
        assertTrue(verdict.ok());
    }

    @Test
    void aListedCaseThatNowPassesIsAProblem() throws Exception {
        Path attempt = attempt(LISTED_CELL, entry("dropped-reply", "dropped_reply"));
        recorded(attempt, droppedReply(attempt, true), null);
        String finding = ClientCases.expectedFailure(ClientCaseId.DROPPED_REPLY, "python", "java", ClientTransport.HTTP)
                .orElseThrow().finding();
        Verdict verdict = AttemptCheck.derive(attempt);
        assertEquals(List.of("case dropped-reply: now_passes [\"passes, but is listed as an expected failure (" + finding
                + "): the SDK no longer fails it; update that page and the list in ClientCases\"]"), verdict.problems());
        assertEquals(0, verdict.passed());
        assertFalse(verdict.ok());
    }

    @Test
    void aPublishedResultIsHeldToTheHistory() throws Exception {
        Path attempt = attempt(CELL, entry("01", "identical_retry"));
        recorded(attempt, case01(attempt), null);
        assertEquals(List.of("missing " + CELL + "/results.jsonl"), AttemptCheck.verify(attempt).problems());
        AttemptCheck.deriveAndWrite(attempt);
        assertEquals(List.of(), AttemptCheck.verify(attempt).problems());
        assertThrows(IllegalArgumentException.class, () -> AttemptCheck.deriveAndWrite(attempt));

        Path results = attempt.resolve("results.jsonl");
        String derived = Files.readString(results);
        Files.writeString(results, derived.replace("\"status\":\"pass\"", "\"status\":\"fail\""));
        assertEquals(List.of("case 01: results.jsonl differs from the record derived from the history"),
                AttemptCheck.verify(attempt).problems());
        Files.writeString(results, derived + derived);
        assertEquals(List.of("2 records in results.jsonl for 1 cases in the history"), AttemptCheck.verify(attempt).problems());
        Files.writeString(results, derived);

        Path summary = attempt.resolve("SUMMARY.json");
        Files.writeString(summary, Files.readString(summary).replace("\"passed\": 1", "\"passed\": 0"));
        assertEquals(List.of("SUMMARY.json does not match the history"), AttemptCheck.verify(attempt).problems());
    }
}
