package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InputResponsesTest {
    private static void rejects(String json, String message) {
        rejects(ExactJson.parse(json), message);
    }

    private static void rejects(JsonNode responses, String message) {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> InputResponses.acceptedBody(responses));
        assertEquals(message, e.getMessage());
    }

    private static String bodyResponse(String responseJson) {
        return "{\"body\":" + responseJson + "}";
    }

    @Test
    void acceptsAnAcceptedTextResponse() {
        assertEquals("alpha", InputResponses.acceptedBody(
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}")));
    }

    @Test
    void acceptsANullMeta() {
        assertEquals("alpha", InputResponses.acceptedBody(
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"_meta\":null}}")));
    }

    @Test
    void acceptsAnEmptyBodyAndUnicode() {
        assertEquals("", InputResponses.acceptedBody(
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"\"}}}")));
        assertEquals("\u00e9\ud83d\ude00", InputResponses.acceptedBody(
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"\\u00e9\\ud83d\\ude00\"}}}")));
    }

    @Test
    void notAnObjectIsInvalid() {
        rejects((JsonNode) null, "invalid input responses");
        rejects("[]", "invalid input responses");
        rejects("\"body\"", "invalid input responses");
        rejects("null", "invalid input responses");
        rejects("1", "invalid input responses");
    }

    @Test
    void bodyIsRequired() {
        rejects("{}", "missing body input response");
        rejects("{\"other\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}", "missing body input response");
    }

    @Test
    void anExtraTopLevelKeyIsUnsupported() {
        rejects("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}},\"extra\":1}",
                "unsupported input response fields");
    }

    @Test
    void anExtraBodyResponseFieldIsNamed() {
        rejects(bodyResponse("{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"extra\":1}"),
                "unsupported body response fields: [extra]");
    }

    @Test
    void extraBodyResponseFieldsAreListedInCodePointOrder() {
        rejects(bodyResponse("{\"zeta\":1,\"action\":\"accept\",\"b\":2,\"content\":{\"body\":\"alpha\"},\"B\":3,\"a\":4}"),
                "unsupported body response fields: [B, a, b, zeta]");
    }

    @Test
    void extraFieldsAreReportedBeforeTheAcceptedTextCheck() {
        rejects(bodyResponse("{\"action\":\"decline\",\"meta\":null}"), "unsupported body response fields: [meta]");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"action\":\"decline\",\"content\":{\"body\":\"alpha\"}}",
        "{\"action\":\"cancel\",\"content\":{\"body\":\"alpha\"}}",
        "{\"action\":\"ACCEPT\",\"content\":{\"body\":\"alpha\"}}",
        "{\"action\":true,\"content\":{\"body\":\"alpha\"}}",
        "{\"action\":null,\"content\":{\"body\":\"alpha\"}}",
        "{\"content\":{\"body\":\"alpha\"}}",
        "{\"action\":\"accept\"}",
        "{\"action\":\"accept\",\"content\":null}",
        "{\"action\":\"accept\",\"content\":\"alpha\"}",
        "{\"action\":\"accept\",\"content\":[\"alpha\"]}",
        "{\"action\":\"accept\",\"content\":{}}",
        "{\"action\":\"accept\",\"content\":{\"body\":\"alpha\",\"extra\":1}}",
        "{\"action\":\"accept\",\"content\":{\"title\":\"alpha\"}}",
        "{\"action\":\"accept\",\"content\":{\"body\":1}}",
        "{\"action\":\"accept\",\"content\":{\"body\":null}}",
        "{\"action\":\"accept\",\"content\":{\"body\":true}}",
        "{\"action\":\"accept\",\"content\":{\"body\":[\"alpha\"]}}",
        "{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"_meta\":{}}",
        "{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"_meta\":{\"traceparent\":\"00-ab-cd-01\"}}",
        "{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"_meta\":\"x\"}",
        "{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"},\"_meta\":false}",
        "{}",
        "\"alpha\"",
        "null",
        "[]",
        "1"
    })
    void anythingButAcceptedTextIsRefused(String response) {
        rejects(bodyResponse(response), "body response must be accepted text");
    }

    @Test
    void bodyLengthIsLimitedTo65536Characters() {
        String longest = "a".repeat(65_536);
        assertEquals(longest, InputResponses.acceptedBody(InputResponses.normalised(longest)));
        rejects(InputResponses.normalised("a".repeat(65_537)), "body is longer than 65536 characters");
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
    }
}
