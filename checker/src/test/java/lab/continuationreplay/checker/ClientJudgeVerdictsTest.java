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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.history.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each verdict the client judge can give, on a small hand-written client case: the records a driver would leave, the
 * exits, a ledger written by the real ledger code. The healthy history of each case passes; each planted defect gives
 * exactly its violation and status, so a judge that stopped speaking would be seen.
 */
class ClientJudgeVerdictsTest {
    private static final String JAVA_CELL = "client-java-server-java";
    private static final String LISTED_CELL = "client-python-server-java-http";
    private static final String LOST_TYPE = "McpResponseLostException";

    @TempDir
    Path dir;

    private ObjectNode judge(String cell, String caseLabel, ClientCaseFolder history, String machineryError) throws Exception {
        return new ClientJudge(cell).record(caseLabel, history.write(), Map.of(), machineryError);
    }

    private static List<String> violations(JsonNode record) {
        List<String> texts = new ArrayList<>();
        record.path("violations").forEach(v -> texts.add(v.asText()));
        return texts;
    }

    /** Case 01 as the Java client sees it: round one, the commit applied, the same commit replayed. */
    private ClientCaseFolder case01() {
        ClientCaseFolder history = new ClientCaseFolder(dir.resolve(JAVA_CELL), "01").exit("server", 0);
        history.record(connected(0)).record(roundOne(1)).record(result(2, "created 1", false))
                .record(result(3, "created 1", true)).record(closed(4));
        history.transcripts.put("server", new ArrayList<>(List.of(
                "> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{}}",
                "< {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"supportedVersions\":[\"2026-07-28\"]}}")));
        return history;
    }

    /** Case 09: round one, the commit's reply lost with the crashing server, then a status on the restarted one. */
    private ClientCaseFolder case09(String statusStored) {
        ClientCaseFolder history = new ClientCaseFolder(dir.resolve(JAVA_CELL), "09").exit("crash", 70).exit("restart", 0);
        return history.record(connected(0)).record(roundOne(1)).record(threw(2, "call_once", LOST_TYPE, "null", "lost"))
                .record(closed(3)).record(connected(4)).record(status(5, statusStored)).record(closed(6));
    }

    @Test
    void aHistoryThatMeetsEveryExpectationPasses() throws Exception {
        ClientCaseFolder history = case01();
        history.ledger("client-01");
        ObjectNode record = judge(JAVA_CELL, "01", history, null);
        assertEquals(List.of(), violations(record));
        assertEquals("pass", record.path("status").asText());
        assertEquals("java-client/java-server", record.path("cell").asText());
        assertEquals(1, record.path("effects").asInt());
        assertEquals(1, record.path("operations").asInt());
        // case 01 loses no reply, so whether the application recovered is no question the judge asks
        assertTrue(record.path("recovered").isNull(), record.toString());
        assertFalse(record.has("expected_failure"));
    }

    @Test
    void aStepThatSawSomethingElseFailsNamingWhatItSawAndHowItWasShown() throws Exception {
        ClientCaseFolder history = case01();
        history.records.set(3, result(3, "created 1", false));
        history.ledger("client-01");
        ObjectNode record = judge(JAVA_CELL, "01", history, null);
        assertEquals(List.of("step 3 (call_once): saw result applied (result), expected replayed applied"), violations(record));
        assertEquals("fail", record.path("status").asText());
    }

    @Test
    void aStepWithoutItsClientRecordFails() throws Exception {
        ClientCaseFolder history = case01();
        history.records.remove(3);
        history.ledger("client-01");
        assertEquals(List.of("step 3: no client record, expected replayed applied"), violations(judge(JAVA_CELL, "01", history, null)));
    }

    @Test
    void innerStepsSeenInEitherOrderPassAndAnyOtherSetFails() throws Exception {
        // case 08: two workers commit the same state side by side; which one applies is a race, so the order is free
        ClientCaseFolder history = new ClientCaseFolder(dir.resolve(JAVA_CELL), "08")
                .exit("issuer", 0).exit("worker-a", 0).exit("worker-b", 0);
        history.record(connected(0)).record(roundOne(1)).record(closed(2)).record(connected(3)).record(connected(4))
                .record(result("5.1", "created 1", false)).record(result("5.0", "created 1", true)).record(closed(6)).record(closed(7));
        history.ledger("client-08");
        assertEquals("pass", judge(JAVA_CELL, "08", history, null).path("status").asText());

        history.records.set(6, result("5.0", "created 1", false));
        assertEquals(List.of("steps 5.*: saw [result applied, result applied], expected [replayed applied, result applied] in any order"),
                violations(judge(JAVA_CELL, "08", history, null)));
    }

    @Test
    void anIssueBeyondTheSpecsEffectsFails() throws Exception {
        ClientCaseFolder history = case01();
        history.ledger("client-01");
        history.unguardedIssue("guarded-client-01");
        ObjectNode record = judge(JAVA_CELL, "01", history, null);
        assertEquals(List.of("2 issues, expected 1"), violations(record));
        assertEquals(2, record.path("effects").asInt());
    }

    @Test
    void aLedgerNeverWrittenHoldsNoneOfTheSpecsEffects() throws Exception {
        // the records claim an applied write; only the rows count, and there are none
        assertEquals(List.of("0 issues, expected 1"), violations(judge(JAVA_CELL, "01", case01(), null)));
    }

    @Test
    void aSecondOperationRowFails() throws Exception {
        ClientCaseFolder history = case01();
        history.ledger("client-01");
        history.sql("INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at, updated_at)"
                + " VALUES ('client-01', 'bob', 'sqlite:guarded-matrix', 'fp', 'in_progress', 'now', 'now')");
        ObjectNode record = judge(JAVA_CELL, "01", history, null);
        assertEquals(List.of("2 operations for one operation id"), violations(record));
        assertEquals(2, record.path("operations").asInt());
    }

    @Test
    void aStatusCarryingTheStoredResultAfterTheLossRecovers() throws Exception {
        ClientCaseFolder history = case09("created 1");
        assertEquals("created 1", history.ledger("client-09"));
        ObjectNode record = judge(JAVA_CELL, "09", history, null);
        assertEquals(List.of(), violations(record));
        assertTrue(record.path("recovered").asBoolean(), record.toString());
        assertEquals("pass", record.path("status").asText());
    }

    @Test
    void aStatusCarryingAnotherResultDoesNotRecoverTheStoredOne() throws Exception {
        ClientCaseFolder history = case09("created 2");
        history.ledger("client-09");
        ObjectNode record = judge(JAVA_CELL, "09", history, null);
        // the status still reads "applied", which is what step 5 expects: only the recovery fails
        assertEquals(List.of("the application did not recover the stored result"), violations(record));
        assertFalse(record.path("recovered").asBoolean(true), record.toString());
    }

    @Test
    void aRecoveryCaseWithTwoOperationRowsCannotHaveRecoveredTheStoredResult() throws Exception {
        ClientCaseFolder history = case09("created 1");
        history.ledger("client-09");
        history.sql("INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, created_at, updated_at)"
                + " VALUES ('client-09', 'bob', 'sqlite:guarded-matrix', 'fp', 'in_progress', 'now', 'now')");
        assertEquals(List.of("2 operations for one operation id", "the application did not recover the stored result"),
                violations(judge(JAVA_CELL, "09", history, null)));
    }

    @Test
    void anExactReplayAfterTheLossRecoversWithoutTheStatusResult() throws Exception {
        // case 03: a status without its stored result still reads "applied"; the replay that follows carries the result
        ClientCaseFolder history = new ClientCaseFolder(dir.resolve(JAVA_CELL), "03").exit("crash", 70).exit("restart", 0);
        history.record(connected(0)).record(roundOne(1)).record(threw(2, "call_once", LOST_TYPE, "null", "lost")).record(closed(3))
                .record(connected(4)).record(status(5, null)).record(result(6, "created 1", true)).record(closed(7));
        history.ledger("client-03");
        ObjectNode record = judge(JAVA_CELL, "03", history, null);
        assertEquals(List.of(), violations(record));
        assertTrue(record.path("recovered").asBoolean(), record.toString());
    }

    @Test
    void aLineOnAServersStdoutThatIsNoFrameIsAServerDefect() throws Exception {
        ClientCaseFolder history = case01();
        history.ledger("client-01");
        history.transcripts.get("server").add("< starting up");
        ObjectNode record = judge(JAVA_CELL, "01", history, null);
        assertEquals(List.of("server defect: process server wrote a non-frame line to stdout: starting up"), violations(record));
        assertEquals("fail", record.path("status").asText());
    }

    @Test
    void aMachineryErrorOutranksAPassAndIsKeptInTheRecord() throws Exception {
        ClientCaseFolder history = case01();
        history.ledger("client-01");
        ObjectNode record = judge(JAVA_CELL, "01", history, "driver exited 3 before step 4");
        assertEquals("machinery_error", record.path("status").asText());
        assertEquals("driver exited 3 before step 4", record.path("machinery_error").asText());
        assertEquals(List.of(), violations(record));
    }

    @Test
    void aCaseWithoutClientRecordsIsRefusedNotJudged() throws Exception {
        ClientCaseFolder history = case01();
        history.write();
        Files.delete(history.folder.resolve("client.records.jsonl"));
        FormatException missing = assertThrows(FormatException.class,
                () -> new ClientJudge(JAVA_CELL).record("01", history.folder, Map.of(), null));
        assertEquals(JAVA_CELL + "/case-01/client.records.jsonl is missing", missing.getMessage());
    }

    // The expected failure the lab lists: the Python client over HTTP loses its connection with the dropped reply.

    private static final ClientExpectedFailure LISTED = ClientCases.expectedFailure(ClientCaseId.DROPPED_REPLY, "python", "java",
            ClientTransport.HTTP).orElseThrow();
    private static final List<String> AS_LISTED = List.of(
            "step 3 (status): saw lost (threw MCPError -32000), expected status applied",
            "step 4 (call_once): saw lost (threw MCPError -32000), expected replayed applied",
            "the application did not recover the stored result");

    /** The dropped-reply case in the listed cell: the lost commit, then a status and a replay, each lost or answered. */
    private ClientCaseFolder droppedReply(boolean recovers) {
        ClientCaseFolder history = new ClientCaseFolder(dir.resolve(LISTED_CELL), "dropped-reply").exit("server", 0);
        String lost = threw(2, "call_once", "MCPError", "-32000", "Connection closed");
        history.record(connected(0)).record(roundOne(1)).record(lost);
        if (recovers) {
            history.record(status(3, "created 1")).record(result(4, "created 1", true));
        } else {
            history.record(threw(3, "status", "MCPError", "-32000", "Connection closed"))
                    .record(threw(4, "call_once", "MCPError", "-32000", "Connection closed"));
        }
        return history.record(closed(5));
    }

    @Test
    void aListedCellFailingExactlyAsListedIsAnExpectedFailure() throws Exception {
        assertEquals(AS_LISTED, LISTED.violations(), "the list in ClientCases changed; this history plants the old one");
        ClientCaseFolder history = droppedReply(false);
        history.ledger("client-dropped-reply");
        ObjectNode record = judge(LISTED_CELL, "dropped-reply", history, null);
        assertEquals("expected_failure", record.path("status").asText());
        assertEquals(AS_LISTED, violations(record));
        assertEquals(LISTED.finding(), record.path("expected_failure").path("finding").asText());
        assertEquals("client", record.path("expected_failure").path("side").asText());
    }

    @Test
    void aListedCellThatPassesNowIsAFailureOfTheStaleList() throws Exception {
        ClientCaseFolder history = droppedReply(true);
        history.ledger("client-dropped-reply");
        ObjectNode record = judge(LISTED_CELL, "dropped-reply", history, null);
        assertEquals("now_passes", record.path("status").asText());
        assertEquals(List.of("passes, but is listed as an expected failure (" + LISTED.finding()
                + "): the SDK no longer fails it; update that page and the list in ClientCases"), violations(record));
    }

    @Test
    void aListedCellFailingOtherwiseIsAFailureNamingTheEntry() throws Exception {
        ClientCaseFolder history = droppedReply(false);
        history.ledger("client-dropped-reply");
        history.unguardedIssue("guarded-client-dropped-reply");
        ObjectNode record = judge(LISTED_CELL, "dropped-reply", history, null);
        assertEquals("fail", record.path("status").asText());
        List<String> expected = new ArrayList<>(AS_LISTED.subList(0, 2));
        expected.add("2 issues, expected 1");
        expected.add(AS_LISTED.get(2));
        expected.add("listed as an expected failure with exactly " + AS_LISTED + " (" + LISTED.finding()
                + "), which is not what this cell shows");
        assertEquals(expected, violations(record));
    }

    @Test
    void aMachineryErrorInAListedCellIsNoExpectedFailure() throws Exception {
        // a run the machinery broke says nothing about the SDK, so the list is not consulted
        ClientCaseFolder history = droppedReply(false);
        history.ledger("client-dropped-reply");
        ObjectNode record = judge(LISTED_CELL, "dropped-reply", history, "relay died");
        assertEquals("machinery_error", record.path("status").asText());
        assertFalse(record.has("expected_failure"), record.toString());
        assertEquals(AS_LISTED, violations(record));
    }
}
