package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The single-pass writer against the implementation it replaced ({@link ReferenceFingerprint}), on values that are
 * mostly invalid somewhere: lone surrogates in keys and strings, fractions, integers just outside the safe range in
 * every number representation, controls, non-JSON nodes. Either both give the same text (and digest), or both throw
 * the same message: the same check, the same JSON path, the same first error.
 */
class CanonicalWriterDifferentialProperties {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final byte[] KEY = "test-only-cross-language-key-32b".getBytes(StandardCharsets.US_ASCII);
    private static final RequestFingerprint FINGERPRINT = new RequestFingerprint(FingerprintKey.of(KEY));
    private static final ReferenceFingerprint REFERENCE = new ReferenceFingerprint(KEY);

    /** Characters chosen where the rules change: controls, escapes, ASCII, two- and three-byte UTF-8, both surrogate halves, U+E000.. */
    private static Arbitrary<String> texts(int max) {
        Arbitrary<Character> c = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.chars().range('a', 'c')),
                Tuple.of(2, Arbitraries.of('"', '\\', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '/')),
                Tuple.of(2, Arbitraries.of('\u00e9', '\u07ff', '\u0800', '\u2028', '\ud7ff', '\ue000', '\uffff')),
                Tuple.of(2, Arbitraries.of('\ud800', '\udbff', '\ud83d')),
                Tuple.of(2, Arbitraries.of('\udc00', '\udfff', '\ude00')));
        return c.list().ofMaxSize(max).map(chars -> {
            StringBuilder text = new StringBuilder();
            chars.forEach(text::append);
            return text.toString();
        });
    }

    private static Arbitrary<JsonNode> numbers() {
        long max = 9007199254740991L;
        return Arbitraries.oneOf(
                Arbitraries.of(0L, 1L, -1L, max, -max, max + 1, -max - 1, Long.MAX_VALUE, Long.MIN_VALUE, 10L, 99L, 100L)
                        .map(LongNode::valueOf),
                Arbitraries.longs().map(LongNode::valueOf),
                Arbitraries.integers().map(IntNode::valueOf),
                Arbitraries.of(0.0, -0.0, 1.0, 1.5, -2.5, 1e15, 9007199254740991.0, 9007199254740992.0, -9007199254740992.0,
                        1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 0.1)
                        .map(DoubleNode::valueOf),
                Arbitraries.of(0f, -0f, 2.5f, 16777216f, 1e20f, Float.NaN).map(FloatNode::valueOf),
                Arbitraries.of("0", "-0", "1.0", "1.50e1", "1e2", "0e-400", "9007199254740991.000", "9007199254740992",
                        "-9007199254740992", "1.5", "1e400", "1E-7", "123456789012345678901234567890")
                        .map(s -> DecimalNode.valueOf(new BigDecimal(s))),
                Arbitraries.of("0", "9007199254740991", "9007199254740992", "-9007199254740991", "-9007199254740992",
                        "99999999999999999999999").map(s -> BigIntegerNode.valueOf(new BigInteger(s))));
    }

    private static Arbitrary<JsonNode> nested(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.frequencyOf(
                Tuple.of(4, texts(6).map(NODES::textNode)),
                Tuple.of(4, numbers()),
                Tuple.of(1, Arbitraries.of(true, false).map(NODES::booleanNode)),
                Tuple.of(1, Arbitraries.just(NODES.nullNode())),
                Tuple.of(1, Arbitraries.of(BinaryNode.valueOf(new byte[] {1}), MissingNode.getInstance())));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> inner = nested(depth - 1);
        Arbitrary<JsonNode> array = inner.list().ofMaxSize(4).map(items -> {
            ArrayNode node = NODES.arrayNode();
            items.forEach(node::add);
            return node;
        });
        Arbitrary<JsonNode> object = Arbitraries.maps(texts(3), inner).ofMaxSize(4).map(members -> {
            ObjectNode node = NODES.objectNode();
            members.forEach(node::set);
            return node;
        });
        return Arbitraries.oneOf(leaf, array, object);
    }

    @Provide
    Arbitrary<JsonNode> values() {
        return nested(3);
    }

    @Provide
    Arbitrary<LogicalRequest> requests() {
        Arbitrary<JsonNode> value = nested(2);
        Arbitrary<ObjectNode> arguments = Arbitraries.maps(texts(3), value).ofMaxSize(3).map(members -> {
            ObjectNode node = NODES.objectNode();
            members.forEach(node::set);
            return node;
        });
        return net.jqwik.api.Combinators.combine(texts(4).injectNull(0.2), texts(3), texts(2), arguments, value, value)
                .as(LogicalRequest::new);
    }

    @Property(tries = 600)
    void canonicalTextOrMessageIsTheReferences(@ForAll("values") JsonNode value) {
        String expected = outcome(() -> ReferenceFingerprint.canonical(value));
        assertEquals(expected, outcome(() -> CanonicalJson.canonical(value)), () -> "for " + value);
        assertEquals(outcome(() -> ReferenceFingerprint.canonical(value, "$.x")),
                outcome(() -> CanonicalJson.canonical(value, "$.x")), () -> "under $.x for " + value);
        Statistics.label("rejected").collect(expected.startsWith("error: "));
        Statistics.label("rejected").coverage(c -> {
            c.check(true).percentage(p -> p >= 20);
            c.check(false).percentage(p -> p >= 20);
        });
    }

    /**
     * Long strings: plain ASCII runs of any length between the characters where the rules change, across the writer's
     * 4096-character chunks (a pair split by a chunk edge, a lone half at the very end of a chunk).
     */
    @Property(tries = 300)
    void longStringsAreTheReferences(@ForAll("longTexts") String text) {
        JsonNode value = NODES.textNode(text);
        assertEquals(outcome(() -> ReferenceFingerprint.canonical(value)), outcome(() -> CanonicalJson.canonical(value)),
                () -> "for a string of " + text.length() + " characters");
    }

    @Provide
    Arbitrary<String> longTexts() {
        Arbitrary<String> plainRun = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(300);
        Arbitrary<String> segment = Arbitraries.oneOf(plainRun, texts(4));
        Arbitrary<String> joined = segment.list().ofMaxSize(60).map(parts -> String.join("", parts));
        // Padding that puts the next character at a chunk edge, or one before it.
        Arbitrary<String> padding = Arbitraries.of(4094, 4095, 4096, 8191).map("x"::repeat);
        return Arbitraries.oneOf(joined, Arbitraries.of(4094, 4095, 4096, 8191).flatMap(n ->
                texts(4).map(tail -> "y".repeat(n) + tail)), padding.flatMap(p -> joined.map(j -> p + j)));
    }

    /**
     * Member names shared by identity across the objects of an array, as a parsed tree or a tree built from literals
     * shares them: the writer copies a name it has written before from its cache. Names that are invalid (a lone
     * surrogate), longer than the cache keeps, or escaped, and which reappear after an error or in the opaque fields.
     */
    @Property(tries = 250)
    void sharedMemberNamesAreTheReferences(@ForAll("sharedNameTrees") JsonNode value) {
        assertEquals(outcome(() -> ReferenceFingerprint.canonical(value)), outcome(() -> CanonicalJson.canonical(value)),
                () -> "for " + value);
        LogicalRequest request = new LogicalRequest("alice", "t", "1", NODES.objectNode().set("v", value), value, value);
        assertEquals(outcome(() -> REFERENCE.digest(request)), outcome(() -> FINGERPRINT.digest(request)), () -> "for " + value);
    }

    @Provide
    Arbitrary<JsonNode> sharedNameTrees() {
        Arbitrary<String> name = Arbitraries.oneOf(texts(3), texts(12),
                Arbitraries.of("k".repeat(22), "k".repeat(23), "k".repeat(24), "k".repeat(40), "\u0001".repeat(4), "\u00e9".repeat(11)));
        return name.list().ofMinSize(1).ofMaxSize(6).flatMap(pool -> {
            Arbitrary<ObjectNode> object = Arbitraries.integers().between(0, pool.size() - 1).list().ofMaxSize(5)
                    .flatMap(picks -> nested(1).list().ofSize(picks.size()).map(values -> {
                        ObjectNode node = NODES.objectNode();
                        for (int i = 0; i < picks.size(); i++) {
                            node.set(pool.get(picks.get(i)), values.get(i));
                        }
                        return node;
                    }));
            return object.list().ofMinSize(1).ofMaxSize(8).map(objects -> {
                ArrayNode array = NODES.arrayNode();
                objects.forEach(array::add);
                return (JsonNode) array;
            });
        });
    }

    @Example
    void everyUtf16CodeUnitIsTheReferences() {
        // The writer encodes from a table below U+0800 and computes above it: every code unit, alone, between ASCII,
        // and before a low surrogate (a pair when it is a high one).
        for (int c = 0; c <= 0xffff; c++) {
            String unit = String.valueOf((char) c);
            for (String text : new String[] {unit, "a" + unit + "b", unit + "\ude00"}) {
                JsonNode node = NODES.textNode(text);
                int code = c;
                assertEquals(outcome(() -> ReferenceFingerprint.canonical(node)), outcome(() -> CanonicalJson.canonical(node)),
                        () -> String.format("U+%04X in %s", code, escaped(text)));
            }
        }
    }

    @Property(tries = 300)
    void digestOrMessageIsTheReferences(@ForAll("requests") LogicalRequest request) {
        String expected = outcome(() -> REFERENCE.digest(request));
        assertEquals(expected, outcome(() -> FINGERPRINT.digest(request)), () -> "for " + request);
        Statistics.label("rejected").collect(expected.startsWith("error: "));
        Statistics.label("rejected").coverage(c -> c.check(false).percentage(p -> p >= 5));
    }

    @Property(tries = 1000)
    void codePointOrderIsTheReferences(@ForAll("keys") String a, @ForAll("keys") String b) {
        assertEquals(Integer.signum(ReferenceFingerprint.compareCodePoints(a, b)), Integer.signum(CanonicalJson.compareCodePoints(a, b)),
                () -> escaped(a) + " vs " + escaped(b));
    }

    @Provide
    Arbitrary<String> keys() {
        // A shared prefix half the time, so the first difference falls after a pair, inside one, or at its end.
        return Arbitraries.oneOf(texts(4), Arbitraries.of("", "a", "\ud83d", "\ud83d\ude00", "a\ud83d")
                .flatMap(prefix -> texts(3).map(rest -> prefix + rest)));
    }

    @Example
    void nestingLimitIsTheReferencesInsideAndOutsideTheFingerprint() {
        for (int depth = 997; depth <= 1002; depth++) {
            JsonNode nested = arrays(depth);
            int d = depth;
            assertEquals(outcome(() -> ReferenceFingerprint.canonical(nested)), outcome(() -> CanonicalJson.canonical(nested)), "depth " + d);
            ObjectNode arguments = NODES.objectNode().set("n", nested);
            LogicalRequest request = new LogicalRequest("alice", "t", "1", arguments, nested, null);
            LogicalRequest argumentsOnly = new LogicalRequest("alice", "t", "1", arguments, null, null);
            assertEquals(outcome(() -> REFERENCE.digest(request)), outcome(() -> FINGERPRINT.digest(request)), "depth " + d);
            assertEquals(outcome(() -> REFERENCE.digest(argumentsOnly)), outcome(() -> FINGERPRINT.digest(argumentsOnly)), "depth " + d);
        }
    }

    @Example
    void largeValuesGrowTheBufferAndTheNextCallStartsClean() {
        String big = "\u00e9\u6f22\ud83d\ude00\"\u0001x".repeat(300_000);
        ObjectNode arguments = NODES.objectNode().put("big", big);
        LogicalRequest request = new LogicalRequest("alice", "t", "1", arguments, NODES.textNode(big), null);
        assertEquals(REFERENCE.digest(request), FINGERPRINT.digest(request));
        assertEquals(ReferenceFingerprint.canonical(arguments), CanonicalJson.canonical(arguments));
        ObjectNode small = NODES.objectNode().put("title", "spec");
        assertEquals("{\"title\":\"spec\"}", CanonicalJson.canonical(small));
    }

    @Example
    void longStringsAreWrittenInChunksWithoutSplittingAPair() {
        // The writer encodes long strings 4096 characters at a time; put pairs, lone halves and escapes at the seams.
        for (int length = 4090; length <= 8200; length += length < 4100 || length > 8185 ? 1 : 1000) {
            for (String tail : new String[] {"\ud83d\ude00", "\ud83d", "\ude00", "\"\u0001", "\u00e9x", "\ud83dx"}) {
                for (int shift = 0; shift < 3; shift++) {
                    String text = "a".repeat(Math.max(0, length - shift)) + tail + "b".repeat(shift);
                    JsonNode node = NODES.textNode(text);
                    assertEquals(outcome(() -> ReferenceFingerprint.canonical(node)), outcome(() -> CanonicalJson.canonical(node)),
                            () -> "length " + text.length());
                }
            }
        }
    }

    private static JsonNode arrays(int depth) {
        ArrayNode root = NODES.arrayNode();
        ArrayNode current = root;
        for (int i = 1; i < depth; i++) {
            current = current.addArray();
        }
        return root;
    }

    private static String outcome(Supplier<String> run) {
        try {
            return run.get();
        } catch (CanonicalJsonException e) {
            return "error: " + e.getMessage();
        }
    }

    private static String escaped(String s) {
        StringBuilder out = new StringBuilder();
        s.chars().forEach(c -> out.append(String.format("\\u%04x", c)));
        return out.toString();
    }
}
