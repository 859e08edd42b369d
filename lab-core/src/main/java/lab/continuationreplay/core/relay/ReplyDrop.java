package lab.continuationreplay.core.relay;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Which server line the relay keeps from the client: the reply, matched by its JSON-RPC id, to the {@code n}th
 * {@code tools/call} request that carries {@code inputResponses} (a continuation). Only that one line, only once:
 * the server did answer, the client just never hears it, as when a reply is lost on the way.
 */
final class ReplyDrop {
    private final int continuation;
    private int continuationsSeen;
    private JsonNode awaitedId;
    private boolean dropped;

    /** {@code continuation} counts from 1; 0 drops nothing. */
    ReplyDrop(int continuation) {
        this.continuation = continuation;
    }

    /**
     * A line the client sent. Called before the line reaches the server, so the id is known before any reply to it
     * can arrive.
     */
    synchronized void clientLine(byte[] line) {
        if (continuationsSeen >= continuation) {
            return;
        }
        JsonNode frame = object(line);
        if (isContinuation(frame)) {
            continuationsSeen++;
            if (continuationsSeen == continuation) {
                awaitedId = frame.get("id");
            }
        }
    }

    /** True for the server line that answers the awaited request, the first time only. */
    synchronized boolean keepsFromClient(byte[] line) {
        if (awaitedId == null || dropped) {
            return false;
        }
        JsonNode frame = object(line);
        if (frame == null || frame.has("method") || !awaitedId.equals(frame.get("id"))
                || !(frame.has("result") || frame.has("error"))) {
            return false;
        }
        dropped = true;
        return true;
    }

    /** The id of the request whose reply was kept, or null before it was. */
    synchronized JsonNode droppedId() {
        return dropped ? awaitedId : null;
    }

    int continuation() {
        return continuation;
    }

    /**
     * A {@code tools/call} request carrying {@code inputResponses}: what both relays count as a continuation. A
     * notification (no id) cannot be answered, so it is no continuation the client waits for.
     */
    static boolean isContinuation(JsonNode frame) {
        return frame != null && frame.hasNonNull("id") && "tools/call".equals(frame.path("method").textValue())
                && frame.path("params").has("inputResponses");
    }

    /** The line as a JSON object, or null: a line that is not strict UTF-8 JSON is never a frame to count or to match. */
    static JsonNode object(byte[] line) {
        try {
            JsonNode node = ExactJson.parse(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(line)).toString());
            return node.isObject() ? node : null;
        } catch (CharacterCodingException | IllegalArgumentException notAFrame) {
            return null;
        }
    }
}
