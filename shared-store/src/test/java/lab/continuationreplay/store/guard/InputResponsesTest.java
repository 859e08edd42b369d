package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The input-response rules live in the shared table {@code vectors/rules/input-responses.json}, which
 * {@code ts-fixture/test/input-responses.test.ts} reads too; this class adds what only Java has.
 */
class InputResponsesTest {
    static List<RuleTable.Case> sharedTable() {
        return RuleTable.load("input-responses.json").cases(RuleTable.JAVA);
    }

    private static void rejects(JsonNode responses, String message, String name) {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> InputResponses.acceptedBody(responses), name);
        assertEquals(message, e.getMessage(), name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedTable")
    void theSharedTable(RuleTable.Case rule) {
        JsonNode responses = rule.row().get("responses");
        JsonNode expected = rule.expected();
        if (expected.has("body")) {
            assertEquals(expected.get("body").textValue(), InputResponses.acceptedBody(responses), rule.name());
        } else {
            rejects(responses, expected.get("error").textValue(), rule.name());
        }
    }

    @Test
    void noResponsesAtAllAreInvalid() {
        rejects(null, "invalid input responses", "null");
    }

    @Test
    void normalisedIsTheFingerprintedShape() throws Exception {
        assertEquals("{\"body\":{\"_meta\":null,\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}",
                ExactJson.mapper().writeValueAsString(InputResponses.normalised("alpha")));
        assertEquals(ExactJson.parse("{\"body\":{\"_meta\":null,\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}"),
                InputResponses.normalised("alpha"));
    }

    @Test
    void normalisedIsItselfAccepted() {
        assertEquals("beta", InputResponses.acceptedBody(InputResponses.normalised("beta")));
        String longest = "a".repeat(GuardedIssueArguments.MAX_TEXT_LENGTH);
        assertEquals(longest, InputResponses.acceptedBody(InputResponses.normalised(longest)));
    }
}
