package lab.continuationreplay.server.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One input request a fixture can make, under the key and with the wording the suite's scenarios name, and how the
 * matching input response is read. A response of the wrong shape is refused rather than guessed at: a server that
 * accepted a number for an elicitation answer would complete on data nobody gave.
 */
enum Ask {
    USER_NAME("user_name", Kind.ELICITATION, "What is your name?", "name", "string"),
    CONFIRM("confirm", Kind.ELICITATION, "Please confirm", "ok", "boolean"),
    STEP_1("step1", Kind.ELICITATION, "Step 1: What is your name?", "name", "string"),
    STEP_2("step2", Kind.ELICITATION, "Step 2: What is your favorite color?", "color", "string"),
    USER_CONTEXT("user_context", Kind.ELICITATION, "What context should the prompt use?", "context", "string"),
    CAPITAL_QUESTION("capital_question", Kind.SAMPLING, "What is the capital of France?", null, null),
    GREETING("greeting", Kind.SAMPLING, "Generate a greeting", null, null),
    CLIENT_ROOTS("client_roots", Kind.ROOTS, null, null, null);

    /** The three kinds of input request of protocol 2026-07-28. */
    enum Kind {
        ELICITATION,
        SAMPLING,
        ROOTS
    }

    /** A response that is present but cannot be read as an answer to this request. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String reason) {
            super(reason);
        }
    }

    final String key;
    final Kind kind;
    private final String message;
    private final String field;
    private final String fieldType;

    Ask(String key, Kind kind, String message, String field, String fieldType) {
        this.key = key;
        this.kind = kind;
        this.message = message;
        this.field = field;
        this.fieldType = fieldType;
    }

    McpSchema.InputRequest request() {
        return switch (kind) {
            case ELICITATION -> new McpSchema.ElicitInputRequest(McpSchema.ElicitFormRequest.builder(message,
                    Map.of("type", "object",
                            "properties", Map.of(field, Map.of("type", fieldType)),
                            "required", List.of(field)))
                    .build());
            case SAMPLING -> new McpSchema.CreateMessageInputRequest(McpSchema.CreateMessageRequest.builder(
                    List.of(new McpSchema.SamplingMessage(McpSchema.Role.USER,
                            McpSchema.TextContent.builder(message).build())),
                    this == GREETING ? 50 : 100).build());
            case ROOTS -> new McpSchema.ListRootsInputRequest();
        };
    }

    /** The answer in words, or empty when the user declined or cancelled an elicitation. */
    Optional<String> read(JsonNode response) throws Malformed {
        if (response == null || !response.isObject()) {
            throw new Malformed(key + ": not an object");
        }
        return switch (kind) {
            case ELICITATION -> readElicitation(response);
            case SAMPLING -> Optional.of(readSampling(response));
            case ROOTS -> Optional.of(readRoots(response));
        };
    }

    private Optional<String> readElicitation(JsonNode response) throws Malformed {
        String action = response.path("action").asText("");
        switch (action) {
            case "decline", "cancel":
                return Optional.empty();
            case "accept":
                break;
            default:
                throw new Malformed(key + ": action must be accept, decline or cancel");
        }
        JsonNode value = response.path("content").path(field);
        boolean fits = fieldType.equals("boolean") ? value.isBoolean() : value.isTextual();
        if (!fits) {
            throw new Malformed(key + ": content." + field + " must be a " + fieldType);
        }
        return Optional.of(value.asText());
    }

    private String readSampling(JsonNode response) throws Malformed {
        JsonNode content = response.path("content");
        if (!content.path("type").asText("").equals("text") || !content.path("text").isTextual()) {
            throw new Malformed(key + ": content must be text");
        }
        return content.path("text").textValue();
    }

    private String readRoots(JsonNode response) throws Malformed {
        JsonNode roots = response.path("roots");
        if (!roots.isArray()) {
            throw new Malformed(key + ": roots must be an array");
        }
        StringBuilder uris = new StringBuilder();
        for (JsonNode root : roots) {
            if (!root.path("uri").isTextual()) {
                throw new Malformed(key + ": every root needs a uri");
            }
            uris.append(uris.length() == 0 ? "" : ", ").append(root.path("uri").textValue());
        }
        return uris.length() == 0 ? "(none)" : uris.toString();
    }

    static Optional<Ask> named(String name) {
        for (Ask ask : values()) {
            if (ask.name().equals(name)) {
                return Optional.of(ask);
            }
        }
        return Optional.empty();
    }
}
