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
    @Provide
    Arbitrary<JsonNode> values() {
        return Arbitraries.lazyOf(
                () -> Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withChars('\ue000', '\uffff').ofMaxLength(8)
                        .map(JsonNodeFactory.instance::textNode),
                () -> Arbitraries.longs().between(-9007199254740991L, 9007199254740991L).map(JsonNodeFactory.instance::numberNode),
                () -> Arbitraries.of(true, false).map(JsonNodeFactory.instance::booleanNode),
                () -> values().list().ofMaxSize(4).map(items -> {
                    var array = JsonNodeFactory.instance.arrayNode();
                    items.forEach(array::add);
                    return array;
                }),
                () -> Arbitraries.maps(Arbitraries.strings().ofMaxLength(4), values()).ofMaxSize(4).map(members -> {
                    ObjectNode object = JsonNodeFactory.instance.objectNode();
                    members.forEach(object::set);
                    return object;
                }));
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
