package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalJsonTest {
    private static String canonical(String json) {
        return CanonicalJson.canonical(ExactJson.parse(json));
    }

    private static String rejection(String json) {
        return assertThrows(CanonicalJsonException.class, () -> canonical(json)).getMessage();
    }

    @Test
    void sortsKeysNormalisesIntegralNumbersAndDropsWhitespace() {
        assertEquals("{\"a\":9007199254740991,\"b\":[1,0,true,null,{\"x\":[],\"y\":1}]}",
                canonical("{\"b\": [1, -0.0, true, null, {\"y\": 1, \"x\": []}], \"a\": 9007199254740991.0}"));
    }

    @Test
    void ordersKeysByCodePointNotByUtf16CodeUnit() {
        String json = "{\"\\ud800\\udc00\":1,\"\\ue000\":2,\"\u00e9\":3,\"a\":4,\"__proto__\":5,\"B\":6,\"2\":7,\"10\":8}";
        assertEquals("{\"10\":8,\"2\":7,\"B\":6,\"__proto__\":5,\"a\":4,\"\u00e9\":3,\"\ue000\":2,\"\ud800\udc00\":1}",
                canonical(json));
        assertTrue(CanonicalJson.compareCodePoints("\ue000", "\ud800\udc00") < 0);
        assertTrue("\ue000".compareTo("\ud800\udc00") > 0, "String.compareTo gets this pair wrong; that is the point");
        assertTrue(CanonicalJson.compareCodePoints("a", "ab") < 0);
        assertEquals(0, CanonicalJson.compareCodePoints("\ud83d\ude00", "\ud83d\ude00"));
    }

    @Test
    void escapesOnlyTheMinimalSetWithLowercaseHex() {
        String value = "q\"b\\s/\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029\u00e9\ud83d\ude00";
        ObjectNode holder = JsonNodeFactory.instance.objectNode().put("v", value);
        assertEquals("{\"v\":\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028\u2029\u00e9\ud83d\ude00\"}",
                CanonicalJson.canonical(holder));
        assertEquals("\"\\u001b\\u000b\"", CanonicalJson.canonical(JsonNodeFactory.instance.textNode("\u001b\u000b")));
    }

    @Test
    void integralSpellingsOfTheSameNumberAreOneText() {
        assertEquals(canonical("{\"n\":1}"), canonical("{\"n\":1.0}"));
        assertEquals("{\"n\":100}", canonical("{\"n\":1e2}"));
        assertEquals("{\"n\":15}", canonical("{\"n\":1.50e1}"));
        assertEquals("{\"n\":0}", canonical("{\"n\":-0}"));
        assertEquals("{\"n\":0}", canonical("{\"n\":0e-400}"));
        assertEquals("[-9007199254740991,9007199254740991]", canonical("[-9007199254740991, 9007199254740991.000]"));
        assertEquals("1", CanonicalJson.canonical(DoubleNode.valueOf(1.0)));
        assertEquals("0", CanonicalJson.canonical(DoubleNode.valueOf(-0.0)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "1e-1", "0.1", "-2.5", "1.0000000000000000001", "9007199254740992.5"})
    void rejectsFractionsExactlyWithTheirPath(String number) {
        assertEquals("$.args[1].n: number must be an integer in the interoperable safe range",
                rejection("{\"args\":[0,{\"n\":" + number + "}]}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"9007199254740992", "-9007199254740992", "9007199254740993", "1e400", "1E16",
        "123456789012345678901234567890"})
    void rejectsIntegersOutsideTheSafeRangeWithoutRounding(String number) {
        assertEquals("$.n: integer is outside the interoperable safe range", rejection("{\"n\":" + number + "}"));
    }

    @Test
    void rejectsNonFiniteAndFractionalDoublesBuiltInCode() {
        for (double d : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.5}) {
            CanonicalJsonException e = assertThrows(CanonicalJsonException.class,
                    () -> CanonicalJson.canonical(DoubleNode.valueOf(d)));
            assertEquals("$: number must be an integer in the interoperable safe range", e.getMessage());
        }
        assertEquals("$: integer is outside the interoperable safe range", assertThrows(CanonicalJsonException.class,
                () -> CanonicalJson.canonical(DoubleNode.valueOf(9007199254740992.0))).getMessage());
    }

    @Test
    void rejectsLoneSurrogatesInValuesAndKeysNamingThePath() {
        assertEquals("$.arguments.bad: unpaired UTF-16 surrogate is not valid Unicode",
                rejection("{\"arguments\":{\"bad\":\"\\ud800\"}}"));
        assertEquals("$.x[0]: unpaired UTF-16 surrogate is not valid Unicode", rejection("{\"x\":[\"a\\udc00\"]}"));
        assertEquals("$.x: unpaired UTF-16 surrogate is not valid Unicode", rejection("{\"x\":\"\\ude00\\ud83d\"}"));
        // A key built in code reaches the canonicaliser, which names the key itself.
        ObjectNode built = JsonNodeFactory.instance.objectNode();
        built.putObject("a").put("k\udfff", 1);
        assertEquals("$.a.k\\udfff: unpaired UTF-16 surrogate is not valid Unicode",
                assertThrows(CanonicalJsonException.class, () -> CanonicalJson.canonical(built)).getMessage());
    }

    @Test
    void rejectsLoneSurrogatesInParsedKeysNamingTheObject() {
        // Jackson refuses these keys while parsing; the message names the object that holds the key.
        assertEquals("$: object key with an unpaired UTF-16 surrogate is not valid Unicode", rejection("{\"k\\udfff\":1}"));
        assertEquals("$.a[1]: object key with an unpaired UTF-16 surrogate is not valid Unicode",
                rejection("{\"a\":[0,{\"ok\":1,\"\\ud800x\":1}]}"));
        assertEquals("$.a.b: object key with an unpaired UTF-16 surrogate is not valid Unicode",
                rejection("{\"a\":{\"b\":{\"\\ud800\\ud800\":1}}}"));
    }

    @Test
    void rejectsNodesThatAreNotJson() {
        assertEquals("$.b: unsupported JSON value binary", assertThrows(CanonicalJsonException.class,
                () -> CanonicalJson.canonical(JsonNodeFactory.instance.objectNode().set("b", BinaryNode.valueOf(new byte[] {1}))))
                .getMessage());
    }

    @Test
    void rejectsNestingDeeperThanTheLimit() {
        JsonNode ok = nested(CanonicalJson.MAX_DEPTH);
        assertTrue(CanonicalJson.canonical(ok).startsWith("[[["));
        CanonicalJsonException e = assertThrows(CanonicalJsonException.class,
                () -> CanonicalJson.canonical(nested(CanonicalJson.MAX_DEPTH + 1)));
        assertTrue(e.getMessage().endsWith(": nesting deeper than 1000 levels"), e.getMessage());
    }

    private static JsonNode nested(int depth) {
        ArrayNode root = JsonNodeFactory.instance.arrayNode();
        ArrayNode current = root;
        for (int i = 1; i < depth; i++) {
            current = current.addArray();
        }
        return root;
    }

    @Test
    void pathSegmentsShowControlsAndLoneSurrogatesEscaped() {
        assertEquals(".a\\u0000b", CanonicalJson.pathSegment("a\u0000b"));
        assertEquals(".\\ud800", CanonicalJson.pathSegment("\ud800"));
        assertEquals(".\ud83d\ude00", CanonicalJson.pathSegment("\ud83d\ude00"));
    }

    @Test
    void sortingIsStableAgainstInsertionOrder() {
        List<String> keys = new ArrayList<>(List.of("b", "a", "\ue000", "\ud83d\ude00", "10", "2", ""));
        ObjectNode forward = JsonNodeFactory.instance.objectNode();
        keys.forEach(k -> forward.put(k, k.length()));
        java.util.Collections.reverse(keys);
        ObjectNode backward = JsonNodeFactory.instance.objectNode();
        keys.forEach(k -> backward.put(k, k.length()));
        assertEquals(CanonicalJson.canonical(forward), CanonicalJson.canonical(backward));
        assertTrue(CanonicalJson.canonical(forward).startsWith("{\"\":0,\"10\":2"));
    }
}
