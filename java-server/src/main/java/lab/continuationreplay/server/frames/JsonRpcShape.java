package lab.continuationreplay.server.frames;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The JSON rules of a frame that the SDK's lenient parse does not check: exactly one JSON value with nothing after it
 * (the SDK's Jackson stops after the first), a JSON object, and {@code "jsonrpc"} exactly the string {@code "2.0"}
 * (the SDK's Jackson coerces the number {@code 2.0} to it). Everything else stays the SDK's to judge. Streams over
 * the bytes (no tree, no recursion); Jackson's default limits (nesting depth, number length) apply as in the SDK.
 * Members that repeat count as the SDK's map sees them: the last one wins.
 */
public final class JsonRpcShape {
    private static final JsonFactory JSON = new JsonFactory();

    private JsonRpcShape() {}

    /** Null if the frame may pass; else why not. {@code bytes} must be valid UTF-8 ({@link StrictUtf8}). */
    public static Rejection check(byte[] bytes, int offset, int length) {
        return inspect(bytes, offset, length).rejection();
    }

    /** What the gate learns of a frame: why it may not pass (or null), and the id of a request that may. */
    record Inspected(Rejection rejection, Object requestId) {}

    static Inspected inspect(byte[] bytes, int offset, int length) {
        Members[] seen = new Members[1];
        Rejection rejection = check(bytes, offset, length, seen);
        Members members = seen[0];
        return new Inspected(rejection, rejection == null && members != null && members.method ? members.id : null);
    }

    /**
     * The id of a reply line the server writes (a top-level {@code result} or {@code error}, no {@code method}), as
     * {@link #inspect} gives request ids; null for anything else.
     */
    static Object replyId(byte[] bytes, int offset, int length) {
        try (JsonParser parser = JSON.createParser(bytes, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Object id = null;
            boolean reply = false;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "method" -> {
                        return null;
                    }
                    case "result", "error" -> reply = true;
                    case "id" -> id = Members.validId(parser, value);
                    default -> { }
                }
                parser.skipChildren();
            }
            return reply ? id : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Rejection check(byte[] bytes, int offset, int length, Members[] seen) {
        // Jackson skips a leading byte order mark; JSON text has none (RFC 8259 §8.1), and the TypeScript gate refuses it
        if (length >= 3 && bytes[offset] == (byte) 0xEF && bytes[offset + 1] == (byte) 0xBB && bytes[offset + 2] == (byte) 0xBF) {
            return Rejection.parseError("a byte order mark before the JSON value");
        }
        try (JsonParser parser = JSON.createParser(bytes, offset, length)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return Rejection.parseError("no JSON value");
            }
            Members members = first == JsonToken.START_OBJECT ? Members.read(parser) : null;
            seen[0] = members;
            if (members == null) {
                parser.skipChildren();
            }
            if (parser.nextToken() != null) {
                return Rejection.parseError("more after the JSON value");
            }
            if (members == null) {
                return Rejection.invalidMessage(null, "not a JSON object");
            }
            if (!members.version) {
                // The SDK answers with the id only a request (method and id) whose id is a string or an integer.
                return Rejection.invalidMessage(members.method && members.hasId ? members.id : null,
                        "jsonrpc is not the string \"2.0\"");
            }
            return null;
        } catch (IOException notJson) {
            return Rejection.parseError("not JSON: " + notJson.getClass().getSimpleName());
        }
    }

    /** The top-level members the rules need. */
    private static final class Members {
        boolean version;
        boolean method;
        boolean hasId;
        Object id;

        static Members read(JsonParser parser) throws IOException {
            Members members = new Members();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "jsonrpc" -> members.version = value == JsonToken.VALUE_STRING && "2.0".equals(parser.getText());
                    case "method" -> members.method = true;
                    case "id" -> {
                        members.hasId = true;
                        members.id = validId(parser, value);
                    }
                    default -> { }
                }
                parser.skipChildren();
            }
            return members;
        }

        /** A string or an integer that fits a long, as the SDK's {@code isValidId} accepts; else null. */
        private static Object validId(JsonParser parser, JsonToken value) throws IOException {
            if (value == JsonToken.VALUE_STRING) {
                return parser.getText();
            }
            if (value == JsonToken.VALUE_NUMBER_INT) {
                return switch (parser.getNumberType()) {
                    case INT -> parser.getIntValue();
                    case LONG -> parser.getLongValue();
                    default -> null;
                };
            }
            return null;
        }
    }
}
