package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The arguments of one logical call: every {@code {{fresh}}} inside a string of the template becomes the call's own
 * value. A retry of the call sends the same arguments; a new call gets a new value. Servers that take a
 * client-supplied idempotency key (the lab's own take {@code operation_id}) need it.
 */
public final class FreshValues {
    public static final String PLACEHOLDER = "{{fresh}}";

    private FreshValues() {}

    /** The template with every placeholder replaced by {@code value}; the template is not changed. */
    public static JsonNode apply(JsonNode template, String value) {
        JsonNode copy = template.deepCopy();
        return replace(copy, value);
    }

    /** Whether the template holds a placeholder at all (else every call sends the same arguments). */
    public static boolean used(JsonNode template) {
        if (template.isTextual()) {
            return template.textValue().contains(PLACEHOLDER);
        }
        for (JsonNode child : template) {
            if (used(child)) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode replace(JsonNode node, String value) {
        if (node.isTextual()) {
            return node.textValue().contains(PLACEHOLDER) ? TextNode.valueOf(node.textValue().replace(PLACEHOLDER, value)) : node;
        }
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                field.setValue(replace(field.getValue(), value));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, replace(array.get(i), value));
            }
        }
        return node;
    }
}
