package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The input responses the probe sends for an {@code input_required} round: the user's own ({@code --answer KEY=JSON},
 * the whole response for that key), else a default per kind of input request. An elicitation form is accepted with
 * content built from its schema (each property's default, else {@code true}, {@code "probe"}, the minimum or the
 * first enum value); a sampling request gets a fixed text message; a roots request an empty list.
 */
public final class InputAnswers {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Map<String, JsonNode> given;

    public InputAnswers(Map<String, JsonNode> given) {
        this.given = Map.copyOf(given);
    }

    /** The responses to every request of {@code inputRequests}, keyed like it. */
    public ObjectNode responses(JsonNode inputRequests) {
        ObjectNode responses = JSON.objectNode();
        if (inputRequests == null || !inputRequests.isObject()) {
            return responses;
        }
        Iterator<Map.Entry<String, JsonNode>> requests = inputRequests.fields();
        while (requests.hasNext()) {
            Map.Entry<String, JsonNode> request = requests.next();
            String key = request.getKey();
            responses.set(key, given.containsKey(key) ? given.get(key).deepCopy() : byDefault(key, request.getValue()));
        }
        return responses;
    }

    /**
     * The result for a request the server sends the client in the middle of a call, as servers before 2026-07-28 ask
     * for input (elicitation/create, sampling/createMessage, roots/list, ping); null for any other method.
     */
    public JsonNode serverRequest(String method, JsonNode params) {
        if (method.equals("ping")) {
            return JSON.objectNode();
        }
        if (!List.of("elicitation/create", "sampling/createMessage", "roots/list").contains(method)) {
            return null;
        }
        return byDefault(method, JSON.objectNode().put("method", method).set("params", params));
    }

    private static JsonNode byDefault(String key, JsonNode request) {
        String method = request.path("method").asText("");
        JsonNode params = request.path("params");
        return switch (method) {
            case "elicitation/create" -> {
                ObjectNode accepted = JSON.objectNode().put("action", "accept");
                if (!"url".equals(params.path("mode").asText("form"))) {
                    accepted.set("content", content(params.path("requestedSchema")));
                }
                yield accepted;
            }
            case "sampling/createMessage" -> {
                ObjectNode message = JSON.objectNode().put("role", "assistant").put("model", "lab-probe");
                message.putObject("content").put("type", "text").put("text", "probe");
                yield message;
            }
            case "roots/list" -> {
                ObjectNode roots = JSON.objectNode();
                roots.putArray("roots");
                yield roots;
            }
            default -> throw new ProbeInputException("the server asks for input '" + key + "' by " + (method.isEmpty()
                    ? "no method" : method) + ", which the probe cannot answer by itself: give it with --answer " + key + "=JSON");
        };
    }

    /** Content for a form: one value per property of the schema. */
    static ObjectNode content(JsonNode schema) {
        ObjectNode content = JSON.objectNode();
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            content.set(property.getKey(), value(property.getValue()));
        }
        return content;
    }

    private static JsonNode value(JsonNode property) {
        if (property.has("default")) {
            return property.get("default").deepCopy();
        }
        if (property.path("enum").isArray() && !property.path("enum").isEmpty()) {
            return property.path("enum").get(0).deepCopy();
        }
        for (String choice : new String[] {"oneOf", "anyOf"}) {
            JsonNode first = property.path(choice).path(0);
            if (first.has("const")) {
                return first.get("const").deepCopy();
            }
        }
        return switch (property.path("type").asText("string")) {
            case "boolean" -> JSON.booleanNode(true);
            case "integer", "number" -> property.has("minimum") ? property.get("minimum").deepCopy() : JSON.numberNode(0);
            case "array" -> JSON.arrayNode();
            default -> JSON.textNode("probe");
        };
    }

    /**
     * The same responses with one answer changed (p9): the first content value a form response holds (a string gets
     * a suffix, a boolean flips, a number grows by one), else the first accepted answer declined.
     */
    public static ObjectNode changed(ObjectNode responses) {
        ObjectNode changed = responses.deepCopy();
        Iterator<Map.Entry<String, JsonNode>> answers = changed.fields();
        while (answers.hasNext()) {
            JsonNode answer = answers.next().getValue();
            if (answer.path("content") instanceof ObjectNode content && content.size() > 0) {
                Map.Entry<String, JsonNode> first = content.fields().next();
                JsonNode value = first.getValue();
                if (value.isTextual()) {
                    content.put(first.getKey(), value.textValue() + "-changed");
                } else if (value.isBoolean()) {
                    content.put(first.getKey(), !value.booleanValue());
                } else if (value.isIntegralNumber()) {
                    content.put(first.getKey(), value.longValue() + 1);
                } else if (value.isNumber()) {
                    content.put(first.getKey(), value.doubleValue() + 1);
                } else {
                    content.put(first.getKey(), "probe-changed");
                }
                return changed;
            }
        }
        answers = changed.fields();
        while (answers.hasNext()) {
            if (answers.next().getValue() instanceof ObjectNode answer && "accept".equals(answer.path("action").asText())) {
                answer.put("action", "decline");
                answer.remove("content");
                return changed;
            }
        }
        return changed;
    }
}
