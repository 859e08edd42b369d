package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import lab.continuationreplay.vectors.ExactJson;

/**
 * "The same result": two tool results equal once the keys that may differ on a replay are removed at any depth. A
 * text content item whose text is JSON (a tool's structured content serialized, as the spec asks) is compared as that
 * JSON, with the same keys removed.
 */
final class SameResult {
    private SameResult() {}

    static boolean same(JsonNode a, JsonNode b, Set<String> ignored) {
        return without(a, ignored).equals(without(b, ignored));
    }

    private static JsonNode without(JsonNode node, Set<String> ignored) {
        JsonNode copy = node.deepCopy();
        strip(copy, ignored);
        return copy;
    }

    private static void strip(JsonNode node, Set<String> ignored) {
        if (node instanceof ObjectNode object) {
            object.remove(ignored);
            if ("text".equals(object.path("type").asText()) && object.path("text").isTextual()) {
                try {
                    JsonNode parsed = ExactJson.parse(object.path("text").textValue());
                    if (parsed.isContainerNode()) {
                        object.set("text", parsed);
                    }
                } catch (IllegalArgumentException plainText) {
                    // compared as text
                }
            }
            object.forEach(child -> strip(child, ignored));
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> strip(child, ignored));
        }
    }
}
