package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * Strict reading of the continuation's input responses: exactly {@code body}, an accepted form response whose content
 * is exactly {@code {"body": <text>}}, and no {@code _meta} (trace metadata never reaches the fingerprint).
 */
public final class InputResponses {
    private static final Set<String> BODY_RESPONSE_MEMBERS = Set.of("action", "content", "_meta");
    static final String NOT_ACCEPTED_TEXT = "body response must be accepted text";

    private InputResponses() {}

    /** The accepted body text, or an {@link InvalidApplicationRequest} naming what is wrong. */
    public static String acceptedBody(JsonNode responses) {
        if (responses == null || !responses.isObject()) {
            throw new InvalidApplicationRequest("invalid input responses");
        }
        if (!responses.has("body")) {
            throw new InvalidApplicationRequest("missing body input response");
        }
        if (responses.size() != 1) {
            throw new InvalidApplicationRequest("unsupported input response fields");
        }
        JsonNode response = responses.get("body");
        if (!response.isObject()) {
            throw new InvalidApplicationRequest(NOT_ACCEPTED_TEXT);
        }
        List<String> unsupported = new ArrayList<>();
        response.fieldNames().forEachRemaining(name -> {
            if (!BODY_RESPONSE_MEMBERS.contains(name)) {
                unsupported.add(name);
            }
        });
        if (!unsupported.isEmpty()) {
            unsupported.sort(CanonicalJson.CODE_POINT_ORDER);
            throw new InvalidApplicationRequest("unsupported body response fields: " + unsupported);
        }
        JsonNode action = response.get("action");
        JsonNode content = response.get("content");
        JsonNode meta = response.get("_meta");
        boolean accepted = action != null && "accept".equals(action.textValue());
        boolean noMeta = meta == null || meta.isNull();
        boolean textOnly = content != null && content.isObject() && content.size() == 1 && content.has("body")
                && content.get("body").isTextual();
        if (!accepted || !noMeta || !textOnly) {
            throw new InvalidApplicationRequest(NOT_ACCEPTED_TEXT);
        }
        String body = content.get("body").textValue();
        if (body.length() > GuardedIssueArguments.MAX_TEXT_LENGTH) {
            throw new InvalidApplicationRequest("body is longer than " + GuardedIssueArguments.MAX_TEXT_LENGTH + " characters");
        }
        return body;
    }

    /** {@code {"body":{"_meta":null,"action":"accept","content":{"body":<body>}}}}: what the fingerprint binds. */
    public static ObjectNode normalised(String body) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.putNull("_meta");
        response.put("action", "accept");
        response.putObject("content").put("body", body);
        ObjectNode responses = JsonNodeFactory.instance.objectNode();
        responses.set("body", response);
        return responses;
    }
}
