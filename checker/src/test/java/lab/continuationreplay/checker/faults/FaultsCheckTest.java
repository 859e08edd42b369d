package lab.continuationreplay.checker.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.history.FaultEvent.Kind;
import lab.continuationreplay.history.FaultEvent.Outcome;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each problem the faults checker can find, planted in a small hand-written history over a real ledger written by the
 * real ledger code; and a healthy one that has none. A checker that never speaks proves nothing.
 */
class FaultsCheckTest {
    private static final String BACKEND = "sqlite:guarded-matrix";
    private static final String UNIT = "kill-soak (stdio)";
    private static final String LEDGER = "kill-soak/java/store.sqlite3";

    @TempDir
    Path run;

    /** A ledger with {@code ids} applied, each titled {@code title <id>}; returns each one's stored result. */
    private Map<String, String> ledger(String... ids) throws Exception {
        Path file = run.resolve(LEDGER);
        Files.createDirectories(file.getParent());
        Map<String, String> results = new java.util.LinkedHashMap<>();
        try (IssueLedger ledger = IssueLedger.open(file, BACKEND)) {
            for (String id : ids) {
                results.put(id, ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity(id, "alice", BACKEND), "fp-" + id,
                        "title " + id, "B"), FaultHook.NONE).result());
            }
        }
        return results;
    }

    private void sql(String statement) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + run.resolve(LEDGER));
                Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }

    private void history(FaultEvent... events) throws Exception {
        FaultHistory.Writer writer = new FaultHistory.Writer(run);
        for (FaultEvent event : events) {
            writer.append(event);
        }
    }

    private static FaultEvent ledgerEvent(String prefix) {
        return event(Kind.LEDGER, null, null, prefix, null, null, null);
    }

    private static FaultEvent sent(String operation) {
        return event(Kind.SENT, operation, null, null, null, null, null);
    }

    private static FaultEvent mustRefuse(String operation) {
        return event(Kind.SENT, operation, null, FaultEvent.MUST_REFUSE, null, null, null);
    }

    private static FaultEvent answer(String operation, Outcome outcome, String text) {
        return event(Kind.ANSWER, operation, outcome, null, null, text, null);
    }

    private static FaultEvent event(Kind kind, String operation, Outcome outcome, String what, String expected, String observed,
            Integer status) {
        boolean onLedger = kind == Kind.LEDGER || kind == Kind.SENT || kind == Kind.ANSWER;
        return new FaultEvent(1, "kill-soak", "stdio", "java", kind, onLedger ? LEDGER : null, operation, outcome, what, expected,
                observed, status);
    }

    private List<String> problems() throws Exception {
        return FaultsCheck.derive(run).get(UNIT);
    }

    private static void assertHas(List<String> problems, String expected) {
        assertTrue(problems.contains("java " + LEDGER + ": " + expected), problems.toString());
    }

    @Test
    void aHealthyRunHasNoProblems() throws Exception {
        Map<String, String> results = ledger("soak-1", "soak-2");
        history(ledgerEvent("soak-"), sent("soak-1"), answer("soak-1", Outcome.SUCCESS, results.get("soak-1")),
                sent("soak-2"), answer("soak-2", Outcome.LOST, "killed"), sent("soak-3"), answer("soak-3", Outcome.REFUSED, "ledger unavailable"),
                event(Kind.KILL, null, null, "server", null, "SIGKILL", null),
                event(Kind.EXPECT, null, null, "exit", "70", "70", null));
        assertEquals(Map.of(UNIT, List.of()), FaultsCheck.derive(run));
    }

    @Test
    void aSecondIssueWithoutItsOperationIsADuplicate() throws Exception {
        ledger("soak-1");
        sql("INSERT INTO issues(title, body) VALUES ('title soak-1', 'B')");
        history(ledgerEvent("soak-"), sent("soak-1"));
        List<String> problems = problems();
        assertHas(problems, "duplicate or lost ledger row: issue 2 ('title soak-1') has no operation");
        assertHas(problems, "duplicate: title 'title soak-1' has 2 issues");
        assertHas(problems, "issues 2 != applied or partial operations 1");
    }

    @Test
    void twoOperationsSharingOneEffectAreADuplicate() throws Exception {
        ledger("soak-1", "soak-2");
        sql("PRAGMA foreign_keys = OFF");
        sql("UPDATE operations SET effect_id = 1");
        history(ledgerEvent("soak-"), sent("soak-1"), sent("soak-2"));
        assertHas(problems(), "duplicate: effect 1 is shared by 2 operations");
    }

    @Test
    void aSuccessWithoutItsRowOrWithAnotherResultIsALostEffect() throws Exception {
        ledger("soak-1");
        history(ledgerEvent("soak-"), sent("soak-1"), answer("soak-1", Outcome.SUCCESS, "a result the row does not hold"),
                sent("soak-2"), answer("soak-2", Outcome.SUCCESS, null));
        List<String> problems = problems();
        assertTrue(problems.stream().anyMatch(p -> p.contains("lost effect: soak-1 reported a result the row does not hold but the stored result is")),
                problems.toString());
        assertHas(problems, "lost effect: soak-2 was answered with a success but its row is missing");
    }

    @Test
    void anAppliedOperationWithoutItsIssueIsALostEffect() throws Exception {
        ledger("soak-1");
        sql("PRAGMA foreign_keys = OFF");
        sql("DELETE FROM issues");
        history(ledgerEvent("soak-"), sent("soak-1"));
        assertHas(problems(), "lost effect: soak-1 is applied without its issue or result");
    }

    @Test
    void aRowOfARequestNeverAnsweredWithASuccessOrOfOneThatHadToBeRefusedIsAccepted() throws Exception {
        ledger("soak-1", "soak-2", "soak-3");
        history(ledgerEvent("soak-"), sent("soak-1"), answer("soak-1", Outcome.REFUSED, "invalid_request_state"),
                mustRefuse("soak-2"), mustRefuse("soak-3"), answer("soak-3", Outcome.SUCCESS, null),
                mustRefuse("soak-4"), answer("soak-4", Outcome.SUCCESS, null));
        List<String> problems = problems();
        assertHas(problems, "accepted: soak-1 was never answered with a success but left a row (applied)");
        assertHas(problems, "accepted: soak-2 had to be refused but left a row (applied)");
        assertHas(problems, "accepted: soak-3 had to be refused but was answered with a success");
        assertHas(problems, "accepted: soak-4 had to be refused but was answered with a success");
    }

    @Test
    void aLostReplyMakesNoClaimEitherWay() throws Exception {
        ledger("soak-1");
        history(ledgerEvent("soak-"), sent("soak-1"), answer("soak-1", Outcome.REFUSED, "bridge machinery failure: 71"),
                answer("soak-1", Outcome.LOST, "killed"));
        assertEquals(List.of(), problems());
    }

    @Test
    void aRowUnderThePrefixNobodySentIsFoundAndOneOutsideItIsNot() throws Exception {
        ledger("soak-1", "soak-9", "other-1");
        history(ledgerEvent("soak-"), sent("soak-1"));
        assertEquals(List.of("java " + LEDGER + ": a row for an operation never sent: soak-9"), problems());
    }

    @Test
    void aRefusalMustBeAClearError() throws Exception {
        ledger();
        history(ledgerEvent(null), answer("soak-1", Outcome.REFUSED, " "),
                answer("soak-2", Outcome.REFUSED, "java.lang.IllegalStateException: boom\n\tat lab.Main.main(Main.java:1)"),
                event(Kind.ANSWER, "soak-3", Outcome.REFUSED, null, null, "500", 500),
                event(Kind.ANSWER, "soak-4", Outcome.REFUSED, null, null, "503", 503),
                event(Kind.ANSWER, "soak-5", Outcome.REFUSED, null, null, "400 -32602", 400));
        assertEquals(List.of("java soak-1: refused without a message",
                "java soak-2: refused with a stack trace: java.lang.IllegalStateException: boom",
                "java soak-3: refused with a server error (HTTP 500, 500): only 503 says the server is unavailable"), problems());
    }

    @Test
    void anExpectationTheRunDidNotMeetIsAProblemInItsOwnWords() throws Exception {
        history(event(Kind.EXPECT, null, null, "retry of the same continuation", "replayed", "created", null),
                event(Kind.EXPECT, null, null, "exit", "70", "70", null));
        assertEquals(List.of("java: retry of the same continuation: created, expected replayed"), problems());
    }

    @Test
    void everyUnitIsListedInOrderEvenWithoutProblems() throws Exception {
        FaultHistory.Writer writer = new FaultHistory.Writer(run);
        writer.append(new FaultEvent(1, "cut-points", "stdio", "java", Kind.CUT, null, null, null, "drop-after-commit", null, null, null));
        writer.append(new FaultEvent(2, "cut-points", "http", "java-http", Kind.CUT, null, null, null, "close-after-commit", null, null, null));
        assertEquals(List.of("cut-points (stdio)", "cut-points (http)"), List.copyOf(FaultsCheck.derive(run).keySet()));
    }

    @Test
    void aLedgerOutsideTheRunOrABrokenLineIsRefused() throws Exception {
        history(event(Kind.CUT, null, null, "x", null, null, null));
        Files.writeString(run.resolve(FaultHistory.FILE), Files.readString(run.resolve(FaultHistory.FILE))
                .replace("\"kind\":\"cut\"", "\"kind\":\"explode\""));
        FormatException broken = assertThrows(FormatException.class, () -> FaultsCheck.derive(run));
        assertTrue(broken.getMessage().startsWith("fault-history.jsonl line 1: "), broken.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FaultHistory.ledgerFile(run, "../elsewhere.sqlite3"));
    }

    @Test
    void theHashesSeeAChangedLedgerAndAFileAddedOrRemoved() throws Exception {
        ledger("soak-1");
        history(ledgerEvent("soak-"), sent("soak-1"));
        FaultHistory.seal(run);
        assertEquals(List.of(), FaultHistory.hashProblems(run));
        sql("INSERT INTO issues(title, body) VALUES ('title soak-1', 'B')");
        assertEquals(List.of(LEDGER + " changed after the run (SHA-256 differs)"), FaultHistory.hashProblems(run));
        Files.delete(run.resolve(FaultHistory.HASHES));
        assertEquals(List.of(FaultHistory.HASHES + " is missing"), FaultHistory.hashProblems(run));
    }
}
