package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of canonical JSON that must hold for any value, not just the examples. */
class CanonicalJsonProperties {
    /** Depth at most four, at most four members per level: an unbounded recursive generator once ran out of heap. */
    private static final int MAX_DEPTH = 4;

    @Provide
    Arbitrary<JsonNode> values() {
        return nested(MAX_DEPTH);
    }

    private static Arbitrary<JsonNode> nested(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withChars('\ue000', '\uffff').ofMaxLength(8)
                        .map(JsonNodeFactory.instance::textNode),
                Arbitraries.longs().between(-9007199254740991L, 9007199254740991L).map(JsonNodeFactory.instance::numberNode),
                Arbitraries.of(true, false).map(JsonNodeFactory.instance::booleanNode));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> inner = nested(depth - 1);
        Arbitrary<JsonNode> array = inner.list().ofMaxSize(4).map(items -> {
            var node = JsonNodeFactory.instance.arrayNode();
            items.forEach(node::add);
            return node;
        });
        Arbitrary<JsonNode> object = Arbitraries.maps(Arbitraries.strings().ofMaxLength(4), inner).ofMaxSize(4).map(members -> {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            members.forEach(node::set);
            return node;
        });
        return Arbitraries.oneOf(leaf, array, object);
    }

    @Property(tries = 300)
    void canonicalTextParsesBackToAnEqualValue(@ForAll("values") JsonNode value) {
        String text = CanonicalJson.canonical(value);
        assertEquals(text, CanonicalJson.canonical(ExactJson.parse(text)));
    }

    @Property(tries = 300)
    void memberInsertionOrderDoesNotMatter(@ForAll("values") JsonNode value) {
        assertEquals(CanonicalJson.canonical(value), CanonicalJson.canonical(reversed(value)));
    }

    private static JsonNode reversed(JsonNode value) {
        if (value.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>();
            value.fields().forEachRemaining(members::add);
            Collections.reverse(members);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            members.forEach(m -> copy.set(m.getKey(), reversed(m.getValue())));
            return copy;
        }
        if (value.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(item -> copy.add(reversed(item)));
            return copy;
        }
        return value;
    }
}
