package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseKey;
import lab.continuationreplay.cases.HttpCaseId;
import org.junit.jupiter.api.Test;

/** Which requested cases an HTTP attempt's judge takes: the twelve over {@code java-http}, h1..h3 over {@code http-cases-java}. */
class MatrixJudgeHttpTest {
    private static JsonNode requested(CaseKey key) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("id", key.number());
        node.put("name", key.seedName());
        node.put("expected", key.expected());
        return node;
    }

    @Test
    void anHttpAttemptTakesTheTwelveFrozenCasesAndNoHttpCase() {
        Judge judge = Judge.of("java-http");
        assertEquals(CaseId.values().length, judge.known());
        for (CaseId id : CaseId.values()) {
            assertEquals(id.number(), judge.caseId(requested(id)));
        }
        for (HttpCaseId id : HttpCaseId.values()) {
            assertNull(judge.caseId(requested(id)), id.number());
        }
        assertEquals("is not a frozen case", judge.refusal());
    }

    @Test
    void anHttpCasesAttemptTakesTheHttpCasesOnly() {
        Judge judge = Judge.of("http-cases-typescript");
        assertEquals(HttpCaseId.values().length, judge.known());
        for (HttpCaseId id : HttpCaseId.values()) {
            assertEquals(id.number(), judge.caseId(requested(id)));
        }
        for (CaseId id : CaseId.values()) {
            assertNull(judge.caseId(requested(id)), id.number());
        }
        assertEquals("is not an HTTP case", judge.refusal());
    }

    @Test
    void anHttpCaseUnderAnotherNameOrExpectationIsNotTaken() {
        Judge judge = Judge.of("http-cases-java");
        ObjectNode renamed = (ObjectNode) requested(HttpCaseId.CLOSE_AFTER_COMMIT);
        renamed.put("name", "something_else");
        assertNull(judge.caseId(renamed));
        ObjectNode otherExpectation = (ObjectNode) requested(HttpCaseId.TWENTY_CONTINUATIONS);
        otherExpectation.put("expected", HttpCaseId.CLOSE_AFTER_COMMIT.expected());
        assertNull(judge.caseId(otherExpectation));
        ObjectNode unknown = (ObjectNode) requested(HttpCaseId.CLOSE_AFTER_COMMIT);
        unknown.put("id", "h4");
        assertNull(judge.caseId(unknown));
    }
}
