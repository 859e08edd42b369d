package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.cases.clients.ClientTransport;
import org.junit.jupiter.api.Test;

/** A listed cell is an expected failure only with exactly the listed violations. */
class ClientExpectedFailureTest {
    private static final ClientExpectedFailure ENTRY = ClientCases.expectedFailures().get(0);

    @Test
    void exactlyTheListedViolationsMakeAnExpectedFailure() {
        ClientJudge.Listed listed = ClientJudge.listed(ENTRY.violations(), ENTRY);
        assertEquals(CaseRecord.Status.EXPECTED_FAILURE, listed.status());
        assertNull(listed.violation());
    }

    @Test
    void noViolationMeansTheListIsStale() {
        ClientJudge.Listed listed = ClientJudge.listed(List.of(), ENTRY);
        assertEquals(CaseRecord.Status.NOW_PASSES, listed.status());
        assertTrue(listed.violation().startsWith("passes, but is listed as an expected failure (" + ENTRY.finding() + ")"),
                listed.violation());
    }

    @Test
    void oneMoreOneFewerOrAnotherOrderIsAFailure() {
        List<String> more = new ArrayList<>(ENTRY.violations());
        more.add("2 issues, expected 1");
        List<String> fewer = ENTRY.violations().subList(0, ENTRY.violations().size() - 1);
        List<String> reordered = new ArrayList<>(ENTRY.violations());
        java.util.Collections.reverse(reordered);
        for (List<String> violations : List.of(more, fewer, reordered)) {
            ClientJudge.Listed listed = ClientJudge.listed(violations, ENTRY);
            assertEquals(CaseRecord.Status.FAIL, listed.status(), violations.toString());
            assertTrue(listed.violation().contains("listed as an expected failure with exactly"), listed.violation());
        }
    }

    @Test
    void theEntryConcernsItsCellsOnly() {
        assertTrue(ENTRY.covers(ClientCaseId.DROPPED_REPLY, "python", "go", ClientTransport.HTTP));
        assertTrue(ClientCases.expectedFailure(ClientCaseId.DROPPED_REPLY, "python", "go", ClientTransport.STDIO).isEmpty());
        assertTrue(ClientCases.expectedFailure(ClientCaseId.DROPPED_REPLY, "java", "go", ClientTransport.HTTP).isEmpty());
        assertTrue(ClientCases.expectedFailure(ClientCaseId.LOST_REPLY_THEN_EXPLICIT_REPLAY, "python", "go", ClientTransport.HTTP).isEmpty());
    }

    @Test
    void anEntryWithoutViolationsOrFindingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ClientExpectedFailure(ClientCaseId.DROPPED_REPLY, "python",
                List.of("java"), ClientTransport.HTTP, List.of(), "r", "l", "docs/findings/x.md"));
        assertThrows(IllegalArgumentException.class, () -> new ClientExpectedFailure(ClientCaseId.DROPPED_REPLY, "python",
                List.of("java"), ClientTransport.HTTP, List.of("v"), "r", "l", " "));
    }
}
