package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/** Properties of canonical JSON that must hold for any value, not just the examples. */
class CanonicalJsonProperties {
    /** Depth at most four, at most four members per level: an unbounded recursive generator once ran out of heap. */
    private static final int MAX_DEPTH = 4;
    private static final long MAX_SAFE = 9007199254740991L;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * Two JSON values are equal when they have the same type and: numbers the same mathematical value (so the long
     * 100, the decimal 1.00E+2 and the double 100.0 are one number, and no double is rounded on the way), strings the
     * same characters, arrays equal items in order, objects the same member names with equal values in any order.
     * Jackson's {@code equals(Comparator, JsonNode)} walks containers itself and asks this comparator about leaves.
     */
    private static final Comparator<JsonNode> SAME_LEAF = (expected, actual) -> {
        if (expected.isNumber() && actual.isNumber()) {
            // Canonical text writes every number as an integer literal; a decimal coming back would be a defect.
            return actual.isIntegralNumber() && exact(expected).compareTo(exact(actual)) == 0 ? 0 : 1;
        }
        return expected.equals(actual) ? 0 : 1;
    };

    /** How a generated integer is held in the tree; whichever it is, the text must carry the same integer. */
    private enum Representation { LONG, BIG_INTEGER, DECIMAL_WITH_ZERO_FRACTION, DECIMAL_WITH_EXPONENT, DOUBLE }

    @Provide
    Arbitrary<JsonNode> values() {
        return nested(MAX_DEPTH);
    }

    /** Objects with at least two members (so there is an order to change), the same depth bound as {@link #values}. */
    @Provide
    Arbitrary<JsonNode> objects() {
        return objects(nested(MAX_DEPTH - 1), 2);
    }

    private static Arbitrary<JsonNode> nested(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                texts(8).map(NODES::textNode),
                integers(),
                Arbitraries.of(true, false).map(NODES::booleanNode),
                Arbitraries.just(NODES.nullNode()));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> inner = nested(depth - 1);
        Arbitrary<JsonNode> array = inner.list().ofMaxSize(4).map(items -> {
            ArrayNode node = NODES.arrayNode();
            items.forEach(node::add);
            return node;
        });
        return Arbitraries.oneOf(leaf, array, objects(inner, 0));
    }

    /** Objects of {@code minMembers} to four members whose values come from {@code inner}. */
    private static Arbitrary<JsonNode> objects(Arbitrary<JsonNode> inner, int minMembers) {
        return Arbitraries.maps(texts(4), inner).ofMinSize(minMembers).ofMaxSize(4).map(members -> {
            ObjectNode node = NODES.objectNode();
            members.forEach(node::set);
            return node;
        });
    }

    /**
     * Strings of Unicode scalar values from four bands, weighted so that every band turns up in a few hundred tries:
     * ASCII (the escaped controls, quote and backslash), the BMP below the surrogate block, the BMP above it (U+E000
     * to U+FFFF, whose UTF-16 units sort after a surrogate pair's although their code points sort before), and the
     * supplementary planes (a surrogate pair in a Java string). U+D800 to U+DFFF are never drawn on their own, so no
     * string holds a lone surrogate: the contract rejects those, and that rejection has its own examples.
     */
    private static Arbitrary<String> texts(int maxCodePoints) {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(0x0000, 0x007f)),
                Tuple.of(2, Arbitraries.integers().between(0x0080, 0xd7ff)),
                Tuple.of(2, Arbitraries.integers().between(0xe000, 0xffff)),
                Tuple.of(3, Arbitraries.integers().between(0x10000, 0x10ffff)));
        return codePoint.list().ofMaxSize(maxCodePoints).map(codePoints -> {
            StringBuilder text = new StringBuilder();
            codePoints.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    /** Integers over the whole safe range (jqwik adds its edge cases, ±(2^53−1) and 0), in each representation. */
    private static Arbitrary<JsonNode> integers() {
        return Combinators.combine(Arbitraries.longs().between(-MAX_SAFE, MAX_SAFE), Arbitraries.of(Representation.class))
                .as((n, representation) -> switch (representation) {
                    case LONG -> LongNode.valueOf(n);
                    case BIG_INTEGER -> BigIntegerNode.valueOf(BigInteger.valueOf(n));
                    case DECIMAL_WITH_ZERO_FRACTION -> DecimalNode.valueOf(BigDecimal.valueOf(n).setScale(3));
                    case DECIMAL_WITH_EXPONENT -> DecimalNode.valueOf(BigDecimal.valueOf(n).stripTrailingZeros());
                    // Every integer up to 2^53 has an exact double, so this is the same number, not a rounded one.
                    case DOUBLE -> DoubleNode.valueOf((double) n);
                });
    }

    @Property(tries = 300)
    void canonicalTextParsesBackToAnEqualValue(@ForAll("values") JsonNode value) {
        String text = CanonicalJson.canonical(value);
        // ExactJson keeps every number exact, so the comparison below sees what the text says, not a double's guess.
        JsonNode parsed = ExactJson.parse(text);
        assertTrue(value.equals(SAME_LEAF, parsed), () -> value + " was written as " + text + " and read back as " + parsed);

        // The generator must reach what the law is about; a narrowed generator would let this property pass vacuously.
        // Canonical text writes every non-ASCII character raw, so its code points are the generated ones.
        Statistics.label("supplementary").collect(text.codePoints().anyMatch(cp -> cp >= 0x10000));
        Statistics.label("U+E000..U+FFFF").collect(text.codePoints().anyMatch(cp -> cp >= 0xe000 && cp <= 0xffff));
        Statistics.label("supplementary").coverage(c -> c.check(true).percentage(p -> p >= 10));
        Statistics.label("U+E000..U+FFFF").coverage(c -> c.check(true).percentage(p -> p >= 10));
    }

    @Property(tries = 300)
    void memberOrderDoesNotMatterAtAnyDepth(@ForAll("objects") JsonNode value, @ForAll Random random) {
        JsonNode shuffled = shuffled(value, random);
        assertEquals(CanonicalJson.canonical(value), CanonicalJson.canonical(shuffled), () -> "members reordered: " + shuffled);

        // Equal toString() means the shuffle left every object as it was; enough tries must really reorder something.
        Statistics.label("reordered").collect(!value.toString().equals(shuffled.toString()));
        Statistics.label("reordered below the top").collect(value.properties().stream()
                .anyMatch(member -> !member.getValue().toString().equals(shuffled.get(member.getKey()).toString())));
        Statistics.label("reordered").coverage(c -> c.check(true).percentage(p -> p >= 25));
        Statistics.label("reordered below the top").coverage(c -> c.check(true).percentage(p -> p >= 10));
    }

    /** A copy of {@code value} whose objects, at every depth, hold their members in a random permutation. */
    private static JsonNode shuffled(JsonNode value, Random random) {
        if (value.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(value.properties());
            Collections.shuffle(members, random);
            ObjectNode copy = NODES.objectNode();
            members.forEach(member -> copy.set(member.getKey(), shuffled(member.getValue(), random)));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = NODES.arrayNode();
            value.forEach(item -> copy.add(shuffled(item, random)));
            return copy;
        }
        return value;
    }

    /** A number node's exact value; a double is converted from its binary value, never through a decimal string. */
    private static BigDecimal exact(JsonNode number) {
        return number.isDouble() || number.isFloat() ? new BigDecimal(number.doubleValue()) : number.decimalValue();
    }
}
