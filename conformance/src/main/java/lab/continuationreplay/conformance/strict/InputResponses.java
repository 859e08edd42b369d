package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Answers to a round's {@code inputRequests}, as a client that says yes to everything would give them: an accepted
 * elicitation whose content fills the requested schema, an assistant message for sampling, one root for roots/list.
 * The checks need a valid answer so that only the state decides whether a continuation completes.
 */
final class InputResponses {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private InputResponses() {}

    static ObjectNode answering(JsonNode inputRequests) {
        ObjectNode responses = JSON.objectNode();
        for (Map.Entry<String, JsonNode> request : inputRequests.properties()) {
            responses.set(request.getKey(), answer(request.getValue()));
        }
        return responses;
    }

    private static ObjectNode answer(JsonNode request) {
        String method = request.path("method").asText("");
        JsonNode params = request.path("params");
        switch (method) {
            case "sampling/createMessage": {
                ObjectNode message = JSON.objectNode().put("role", "assistant");
                message.putObject("content").put("type", "text").put("text", "strict-check");
                return message.put("model", "strict-check").put("stopReason", "endTurn");
            }
            case "roots/list": {
                ObjectNode roots = JSON.objectNode();
                roots.putArray("roots").addObject().put("uri", "file:///strict-check").put("name", "strict-check");
                return roots;
            }
            default: {
                ObjectNode accepted = JSON.objectNode().put("action", "accept");
                accepted.set("content", contentFor(params.path("requestedSchema")));
                return accepted;
            }
        }
    }

    /** One value per property of a flat form schema; {@code {"ok": true}} when there is no schema (the request-state fixture's). */
    static ObjectNode contentFor(JsonNode schema) {
        ObjectNode content = JSON.objectNode();
        JsonNode properties = schema.path("properties");
        if (!properties.isObject() || properties.isEmpty()) {
            return content.put("ok", true);
        }
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            JsonNode spec = property.getValue();
            if (spec.path("enum").isArray() && !spec.path("enum").isEmpty()) {
                content.set(property.getKey(), spec.path("enum").get(0));
                continue;
            }
            switch (spec.path("type").asText("string")) {
                case "boolean" -> content.put(property.getKey(), true);
                case "integer", "number" -> content.put(property.getKey(), spec.path("minimum").isNumber()
                        ? spec.path("minimum").asLong() : 1);
                default -> content.put(property.getKey(), "strict-check");
            }
        }
        return content;
    }
}
