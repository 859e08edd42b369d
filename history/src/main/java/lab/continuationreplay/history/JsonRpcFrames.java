package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;

/**
 * JSON-RPC frames as lab proxy and its checker read them: a stdio line, or an HTTP body (one JSON object, an array of
 * them, or an event stream whose events carry them).
 */
public final class JsonRpcFrames {
    private JsonRpcFrames() {}

    /** The bytes as a JSON object, or null: a line that is not strict UTF-8 JSON is no frame to count. */
    public static JsonNode object(byte[] bytes) {
        String text = text(bytes);
        return text == null ? null : object(text);
    }

    public static JsonNode object(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = ExactJson.parse(text);
            return node.isObject() ? node : null;
        } catch (IllegalArgumentException notAFrame) {
            return null;
        }
    }

    /** The frames an HTTP body carries: one JSON object, a JSON array of them, or the data of each event of a stream. */
    public static List<JsonNode> ofBody(byte[] body) {
        return ofBody(text(body));
    }

    public static List<JsonNode> ofBody(String text) {
        List<JsonNode> frames = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return frames;
        }
        String trimmed = text.strip();
        List<String> pieces = trimmed.startsWith("{") || trimmed.startsWith("[") ? List.of(trimmed) : EventStream.data(text);
        for (String piece : pieces) {
            try {
                JsonNode node = ExactJson.parse(piece);
                if (node.isArray()) {
                    node.forEach(n -> {
                        if (n.isObject()) {
                            frames.add(n);
                        }
                    });
                } else if (node.isObject()) {
                    frames.add(node);
                }
            } catch (IllegalArgumentException notJson) {
                // an event whose data is not JSON carries no frame
            }
        }
        return frames;
    }

    /** A request to call a tool: a {@code tools/call} with an id. */
    public static boolean isToolCall(JsonNode frame) {
        return frame != null && frame.hasNonNull("id") && "tools/call".equals(frame.path("method").textValue());
    }

    /** A response (an id, a result or an error, no method). */
    public static boolean isResponse(JsonNode frame) {
        return frame != null && frame.hasNonNull("id") && !frame.has("method") && (frame.has("result") || frame.has("error"));
    }

    /** A result that ends its tool call: any result but one asking for more input. */
    public static boolean completes(JsonNode response) {
        return response.has("result") && !"input_required".equals(response.path("result").path("resultType").asText());
    }

    /** The key a response is matched to its request by, within one session. */
    public static String idKey(JsonNode frame) {
        return frame.get("id").toString();
    }

    private static String text(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
