package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExactJsonTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "{", "{\"a\":1,}", "[1,]", "{'a':1}", "{\"a\":NaN}", "{\"a\":Infinity}",
        "{\"a\":-Infinity}", "{\"a\":01}", "{\"a\":+1}", "{\"a\":.5}", "{\"a\":1.}", "{} x", "{}{}",
        "{\"a\":\"\u0001\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "/* c */ {}", "{\"a\":1} // c", "tru", "nul"})
    void rejectsAnythingThatIsNotStrictJson(String text) {
        CanonicalJsonException e = assertThrows(CanonicalJsonException.class, () -> ExactJson.parse(text));
        assertTrue(e.getMessage().startsWith("invalid JSON"), e.getMessage());
    }

    @Test
    void keepsNumbersExact() {
        JsonNode node = ExactJson.parse("{\"big\":9007199254740993,\"frac\":1.0000000000000000001,\"huge\":1e400}");
        assertEquals(new BigDecimal("9007199254740993"), node.get("big").decimalValue());
        assertEquals(0, new BigDecimal("1.0000000000000000001").compareTo(node.get("frac").decimalValue()));
        assertEquals(0, new BigDecimal("1e400").compareTo(node.get("huge").decimalValue()));
    }

    @Test
    void aLaterDuplicateKeyReplacesAnEarlierOne() {
        assertEquals(2, ExactJson.parse("{\"a\":1,\"a\":2}").get("a").intValue());
    }

    @Test
    void keepsLoneSurrogateEscapesForTheCanonicaliserToReject() {
        assertEquals("\ud800", ExactJson.parse("{\"a\":\"\\ud800\"}").get("a").textValue());
    }

    @Test
    void limitsNestingAndNumberLength() {
        String deep = "[".repeat(ExactJson.MAX_PARSE_DEPTH + 1) + "]".repeat(ExactJson.MAX_PARSE_DEPTH + 1);
        assertTrue(assertThrows(CanonicalJsonException.class, () -> ExactJson.parse(deep)).getMessage()
                .startsWith("invalid JSON"));
        String allowed = "[".repeat(ExactJson.MAX_PARSE_DEPTH) + "]".repeat(ExactJson.MAX_PARSE_DEPTH);
        assertTrue(ExactJson.parse(allowed).isArray());
        String longNumber = "1".repeat(ExactJson.MAX_NUMBER_LITERAL_LENGTH + 1);
        assertTrue(assertThrows(CanonicalJsonException.class, () -> ExactJson.parse(longNumber)).getMessage()
                .startsWith("invalid JSON"));
    }
}
