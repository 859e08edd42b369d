package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.Observation.Kind;
import lab.continuationreplay.cases.ServerSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the checker reads a case's semantic outcome, member by member, on hand-written transcripts: each way a
 * continuation can end, each way a status read-back can fail its consumer. Every frozen outcome is compared in these
 * words, so a member read wrongly would pass or fail every SDK alike.
 */
class OutcomeTest {
    private static final CaseSpec CASE_09 = Cases.spec(CaseId.CRASH_AFTER_COMMIT);
    private static final String OWN = CASE_09.id().operationId();
    private static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";
    private static final DbFacts NO_ROWS = new DbFacts(List.of(), List.of(), List.of(), List.of(), List.of());

    @TempDir
    Path dir;

    private int histories;

    // Transcript lines, as a stdio relay writes them: "> " what the runner sent, "< " what the server answered.

    private static String call(int id, String operationId, boolean continuation) {
        String more = continuation ? ",\"requestState\":\"s1\",\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":"
                + "{\"body\":\"alpha\"}}}" : "";
        return "> {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                + "\"arguments\":{\"operation_id\":\"" + operationId + "\",\"title\":\"guarded-09\"}" + more + META + "}}";
    }

    private static String continuation(int id) {
        return call(id, OWN, true);
    }

    private static String statusCall(int id) {
        return "> {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"get_operation_status\","
                + "\"arguments\":{\"operation_id\":\"" + OWN + "\"}" + META + "}}";
    }

    private static String inputRequired(int id) {
        return "< {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"resultType\":\"input_required\",\"requestState\":\"v1.abc\"}}";
    }

    private static String done(int id, String result, boolean replayed, String state) {
        return "< {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[],\"structuredContent\":{\"result\":\"" + result
                + "\",\"replayed\":" + replayed + ",\"state\":\"" + state + "\"}}}";
    }

    private static String applied(int id) {
        return done(id, "created 1", false, "applied");
    }

    private static String replayed(int id) {
        return done(id, "created 1", true, "applied");
    }

    /** A refusal the Java SDK's way: a JSON-RPC error whose message is the mechanism. */
    private static String error(int id, String message) {
        return "< {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32000,\"message\":\"" + message + "\"}}";
    }

    /** A refusal the TypeScript SDK's way: an isError result whose single text is the mechanism. */
    private static String isError(int id, String text) {
        return "< {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\""
                + text + "\"}]}}";
    }

    /** A status read-back that follows every recovery rule, as the server answers {@code principal}. */
    private static String statusReply(int id, String principal) {
        return "< {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"structuredContent\":{\"operationId\":\"" + OWN
                + "\",\"principal\":\"" + principal + "\",\"backend\":\"" + ServerSetup.BACKEND + "\",\"scopeBinding\":{\"operationId\":\""
                + OWN + "\",\"principal\":\"" + principal + "\",\"backend\":\"" + ServerSetup.BACKEND + "\"},\"authoritative\":true,"
                + "\"freshWriteAuthorized\":false,\"state\":\"applied\",\"matchingIds\":[1],\"storedResult\":\"created 1\","
                + "\"observedAt\":\"2026-09-22T00:00:00+00:00\",\"scope\":\"operation_id='" + OWN + "'\"}}}";
    }

    /** The facts of one hand-written case folder: a transcript per process, in spawn order, and the rows. */
    private CaseFacts facts(Map<String, List<String>> transcripts, List<CaseFacts.ProcessExit> exits, DbFacts db) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("case-" + ++histories));
        for (Map.Entry<String, List<String>> transcript : transcripts.entrySet()) {
            Files.write(folder.resolve(transcript.getKey() + ".transcript.log"), transcript.getValue());
        }
        return new CaseFacts(WireFacts.read(folder, List.copyOf(transcripts.keySet())), db, exits);
    }

    private CaseFacts server(String... lines) throws Exception {
        return facts(Map.of("server", List.of(lines)), List.of(), NO_ROWS);
    }

    private static String observe(Kind kind, int index, CaseFacts facts) {
        return Outcome.observe(new Observation(kind, index, null), CASE_09, facts).asText();
    }

    @Test
    void eachWayAContinuationEndsHasItsMechanism() throws Exception {
        CaseFacts facts = server(call(1, OWN, false), inputRequired(1), continuation(2), applied(2), continuation(3), replayed(3),
                continuation(4), error(4, "operation_conflict"), continuation(5), isError(5, "operation_conflict"),
                continuation(6), error(6, "ledger unavailable"), continuation(7));
        List<String> mechanisms = new ArrayList<>();
        for (int i = 0; i <= 6; i++) {
            mechanisms.add(Outcome.mechanism(facts.wire().continuations(), i));
        }
        // both SDKs' refusal shapes read as the same mechanism; a continuation past the last one sent was never sent
        assertEquals(List.of("applied", "replayed", "operation_conflict", "operation_conflict", "other: ledger unavailable",
                "no_reply", "not_sent"), mechanisms);
        assertEquals("clear_error", observe(Kind.CLEAR_ERROR, 4, facts));
        assertEquals("operation_conflict", observe(Kind.CLEAR_ERROR, 2, facts));
        assertEquals("no_reply", observe(Kind.CLEAR_ERROR, 5, facts));
    }

    @Test
    void theTransportIsUnknownOnlyWhenTheFirstContinuationGotNoReply() throws Exception {
        assertEquals("unknown", observe(Kind.TRANSPORT, 0, server(continuation(1), continuation(2), applied(2))));
        assertEquals("answered", observe(Kind.TRANSPORT, 0, server(continuation(1), applied(1), continuation(2))));
        // no continuation at all reads as answered: the predicate's minimum continuation count is what refuses it
        assertEquals("answered", observe(Kind.TRANSPORT, 0, server(call(1, OWN, false), inputRequired(1))));
    }

    @Test
    void anExplicitReplayAndAContinuationsStateComeFromItsOwnReply() throws Exception {
        CaseFacts facts = server(continuation(1), applied(1), continuation(2), replayed(2), continuation(3),
                continuation(4), done(4, "partial 1; watcher failed; rollback succeeded", false, "partial"));
        assertEquals(List.of("not_replayed", "replayed", "not_replayed", "not_replayed", "not_replayed"),
                List.of(observe(Kind.EXPLICIT_REPLAY, 0, facts), observe(Kind.EXPLICIT_REPLAY, 1, facts),
                        observe(Kind.EXPLICIT_REPLAY, 2, facts), observe(Kind.EXPLICIT_REPLAY, 3, facts),
                        observe(Kind.EXPLICIT_REPLAY, 9, facts)));
        assertEquals(List.of("applied", "no_reply", "partial", "no_reply"),
                List.of(observe(Kind.CONTINUATION_STATE, 0, facts), observe(Kind.CONTINUATION_STATE, 2, facts),
                        observe(Kind.CONTINUATION_STATE, 3, facts), observe(Kind.CONTINUATION_STATE, 9, facts)));
    }

    @Test
    void aFreshWriteIsAnAppliedContinuationFromTheIndexOn() throws Exception {
        CaseFacts facts = server(continuation(1), applied(1), continuation(2), replayed(2), continuation(3),
                error(3, "operation_conflict"));
        assertEquals(List.of(true, false, false), List.of(Outcome.observe(Observation.of(Kind.FRESH_WRITE, 0), CASE_09, facts).asBoolean(),
                Outcome.observe(Observation.of(Kind.FRESH_WRITE, 1), CASE_09, facts).asBoolean(),
                Outcome.observe(Observation.of(Kind.FRESH_WRITE, 3), CASE_09, facts).asBoolean()));
    }

    @Test
    void replayedFlagsAndTheSameResultCountSuccessesOnly() throws Exception {
        CaseFacts facts = server(continuation(1), replayed(1), continuation(2), applied(2), continuation(3),
                error(3, "operation_conflict"), continuation(4));
        assertEquals("[false,true]", Outcome.observe(Observation.of(Kind.REPLAYED_FLAGS), CASE_09, facts).toString());
        assertEquals("true", Outcome.observe(Observation.of(Kind.SAME_RESULT), CASE_09, facts).toString());
        CaseFacts differing = server(continuation(1), applied(1), continuation(2), done(2, "created 2", true, "applied"));
        assertEquals("false", Outcome.observe(Observation.of(Kind.SAME_RESULT), CASE_09, differing).toString());
    }

    @Test
    void aRedispatchIsASecondContinuationFromAnyProcess() throws Exception {
        Map<String, List<String>> transcripts = new LinkedHashMap<>();
        transcripts.put("crash", List.of(continuation(1)));
        transcripts.put("restart", List.of(continuation(1), replayed(1)));
        CaseFacts again = facts(transcripts, List.of(), NO_ROWS);
        assertEquals("true", Outcome.observe(Observation.of(Kind.REDISPATCHED), CASE_09, again).toString());
        assertEquals("2", Outcome.observe(Observation.of(Kind.CONTINUATION_PROCESSES), CASE_09, again).toString());
        CaseFacts once = server(continuation(1));
        assertEquals("false", Outcome.observe(Observation.of(Kind.REDISPATCHED), CASE_09, once).toString());
        assertEquals("1", Outcome.observe(Observation.of(Kind.CONTINUATION_PROCESSES), CASE_09, once).toString());
    }

    @Test
    void theCrashExitIsTheFirstProcessesAndMinusOneWhenNeverSeen() throws Exception {
        CaseFacts crashed = facts(Map.of(), List.of(new CaseFacts.ProcessExit("crash", 70), new CaseFacts.ProcessExit("restart", 0)), NO_ROWS);
        CaseFacts neverEnded = facts(Map.of(), List.of(new CaseFacts.ProcessExit("crash", null)), NO_ROWS);
        CaseFacts noProcess = facts(Map.of(), List.of(), NO_ROWS);
        assertEquals(List.of("70", "-1", "-1"), List.of(observe(Kind.CRASH_EXIT, 0, crashed), observe(Kind.CRASH_EXIT, 0, neverEnded),
                observe(Kind.CRASH_EXIT, 0, noProcess)));
    }

    /** RECONCILED, CONSUMER_ACTION, STATUS_STATE and IDENTITY_REFUSED of one history, in that order. */
    private List<String> readback(String... lines) throws Exception {
        CaseFacts facts = server(lines);
        return List.of(observe(Kind.RECONCILED, 0, facts), observe(Kind.CONSUMER_ACTION, 0, facts), observe(Kind.STATUS_STATE, 0, facts),
                observe(Kind.IDENTITY_REFUSED, 0, facts));
    }

    @Test
    void aStatusReadBackThatFollowsTheRulesSettlesTheEffect() throws Exception {
        assertEquals(List.of("applied", "return_stored_result", "applied", "false"), readback(statusCall(1), statusReply(1, "alice")));
    }

    @Test
    void aStatusOfAnotherIdentityIsRefusedByTheConsumer() throws Exception {
        // the state is reported as sent, whoever asked; the consumer refuses to act on it for alice's attempt
        assertEquals(List.of("refused: wire reconciliation identity does not match the attempt", "none", "applied", "true"),
                readback(statusCall(1), statusReply(1, "bob")));
    }

    @Test
    void noSingleAnsweredStatusIsNoStatus() throws Exception {
        assertEquals(List.of("no_status", "none", "no_reply", "false"), readback(call(1, OWN, false), inputRequired(1)));
        assertEquals(List.of("no_status", "none", "no_reply", "false"), readback(statusCall(1)));
        assertEquals(List.of("no_status", "none", "", "false"), readback(statusCall(1), isError(1, "ledger unavailable")));
        // two read-backs could disagree; the outcome takes neither
        assertEquals(List.of("no_status", "none", "no_reply", "false"),
                readback(statusCall(1), statusReply(1, "alice"), statusCall(2), statusReply(2, "alice")));
    }

    @Test
    void aFirstRoundCountsOnlyWhenItAskedForInput() throws Exception {
        Observation fresh = Observation.firstRound("case-11-new");
        assertEquals("input_required", Outcome.observe(fresh, CASE_09, server(call(1, "case-11-new", false), inputRequired(1))).asText());
        assertEquals("missing", Outcome.observe(fresh, CASE_09, server(call(1, "case-11-new", false), error(1, "operation_conflict"))).asText());
        assertEquals("missing", Outcome.observe(fresh, CASE_09, server(call(1, OWN, false), inputRequired(1))).asText());
    }

    @Test
    void rowMembersCountTheirTablesAndOnlyFailedCompensations() throws Exception {
        DbFacts db = new DbFacts(List.of(Map.of("id", 1L)), List.of(Map.of("operation_id", OWN), Map.of("operation_id", OWN)),
                List.of(Map.of("issue_id", 1L, "name", "w")),
                List.of(Map.of("outcome", "succeeded"), Map.of("outcome", "failed:IllegalStateException")),
                List.of(Map.of("step", "watcher"), Map.of("step", "rollback_issue"), Map.of("step", "watcher")));
        CaseFacts facts = facts(Map.of(), List.of(), db);
        assertEquals(List.of("2", "1", "1", "3"), List.of(observe(Kind.OPERATION_ROWS, 0, facts), observe(Kind.WATCHER_ROWS, 0, facts),
                observe(Kind.FAILED_COMPENSATIONS, 0, facts), observe(Kind.STEP_EVENTS, 0, facts)));
    }

    // Case 09 end to end: the outcome derived from a healthy history is the frozen one; a planted redispatch is not.

    private CaseFacts case09(boolean redispatch) throws Exception {
        Map<String, List<String>> transcripts = new LinkedHashMap<>();
        transcripts.put("crash", List.of(call(1, OWN, false), inputRequired(1), continuation(2)));
        List<String> restart = new ArrayList<>(List.of(statusCall(1), statusReply(1, CaseSpec.PRINCIPAL)));
        if (redispatch) {
            restart.addAll(List.of(continuation(2), replayed(2)));
        }
        transcripts.put("restart", restart);
        DbFacts db = new DbFacts(List.of(Map.of("id", 1L, "title", CASE_09.id().title(), "body", CaseSpec.BODY)),
                List.of(Map.of("operation_id", OWN, "principal", CaseSpec.PRINCIPAL, "backend", ServerSetup.BACKEND,
                        "state", "applied", "effect_id", 1L, "result", "created 1")),
                List.of(), List.of(), List.of());
        return facts(transcripts, List.of(new CaseFacts.ProcessExit("crash", 70), new CaseFacts.ProcessExit("restart", 0)), db);
    }

    @Test
    void aHealthyHistoryReducesToTheFrozenOutcome() throws Exception {
        CaseFacts facts = case09(false);
        JsonNode outcome = Outcome.derive(CASE_09, facts);
        assertEquals(CASE_09.frozenOutcome(), outcome.toString());
        assertEquals(List.of(), Predicate.violations(CASE_09, facts));
    }

    @Test
    void aWriteSentAgainAfterTheCrashDiffersFromTheFrozenOutcome() throws Exception {
        String frozen = CASE_09.frozenOutcome();
        assertEquals(List.of("outcome " + frozen.replace("\"redispatched\":false", "\"redispatched\":true")
                + " differs from the frozen " + frozen), Predicate.violations(CASE_09, case09(true)));
    }
}
