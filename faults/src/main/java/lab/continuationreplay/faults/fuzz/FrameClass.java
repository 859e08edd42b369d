package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * What JSON-RPC 2.0 asks of a server for one frame, judged from the bytes alone:
 * <ul>
 * <li>{@link Kind#REQUEST}: valid UTF-8 JSON, an object with {@code "jsonrpc":"2.0"}, a string method, an id that is
 * a string or an integer within ±(2^53−1), and params absent or an object (the MCP shape: {@code _meta} absent or an
 * object). It must be answered with the same id, with a result or an error.</li>
 * <li>{@link Kind#NOTIFICATION}: the same without an id. It must not be answered with an id.</li>
 * <li>{@link Kind#MALFORMED}: anything else (not UTF-8, not JSON, a batch, a bad id or version). A server may answer
 * with an error without id (or a null id) or ignore it; both SDKs do one or the other, recorded per SDK.</li>
 * </ul>
 */
public final class FrameClass {
    public enum Kind { REQUEST, NOTIFICATION, MALFORMED }

    /** The class and, for a request, its id as JSON text (to match the reply). */
    public record Verdict(Kind kind, JsonNode id) {}

    private static final BigInteger MAX_SAFE = BigInteger.valueOf(9007199254740991L);
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.ALLOW_COMMENTS);
    private static final ObjectMapper LENIENT = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    private FrameClass() {}

    public static Verdict of(byte[] frame) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(frame)).toString();
        } catch (CharacterCodingException notUtf8) {
            return malformed();
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (Exception | StackOverflowError notJson) {
            return malformed();
        }
        if (tree == null || !tree.isObject() || !"2.0".equals(tree.path("jsonrpc").textValue()) || !tree.path("method").isTextual()) {
            return malformed();
        }
        JsonNode params = tree.get("params");
        if (params != null && !(params.isObject() && (params.get("_meta") == null || params.get("_meta").isObject()))) {
            return malformed();
        }
        if (!tree.has("id")) {
            return new Verdict(Kind.NOTIFICATION, null);
        }
        JsonNode id = tree.get("id");
        if (id.isTextual() || (id.isIntegralNumber() && id.bigIntegerValue().abs().compareTo(MAX_SAFE) <= 0)) {
            return new Verdict(Kind.REQUEST, id);
        }
        return malformed();
    }

    /**
     * The id a server could read from the frame, as a key ({@link #key}), however malformed the rest: a lenient
     * parse (trailing tokens allowed, invalid UTF-8 replaced), so a late reply is attributed to its case.
     */
    public static String readableId(byte[] frame) {
        try {
            JsonNode tree = LENIENT.readTree(new String(frame, StandardCharsets.UTF_8));
            return tree != null && tree.isObject() && tree.has("id") ? key(tree.get("id")) : null;
        } catch (Exception | StackOverflowError unreadable) {
            return null;
        }
    }

    /**
     * Every key a reply to this frame could carry: {@link #readableId}, and for a number also the value a server that
     * reads numbers as IEEE doubles would echo ({@code 1e-400} comes back as {@code 0}, {@code 9007199254740993} as
     * {@code 9007199254740992}).
     */
    public static java.util.List<String> readableKeys(byte[] frame) {
        java.util.List<String> keys = new java.util.ArrayList<>();
        try {
            JsonNode tree = LENIENT.readTree(new String(frame, StandardCharsets.UTF_8));
            if (tree != null && tree.isObject() && tree.has("id")) {
                JsonNode id = tree.get("id");
                String exact = key(id);
                if (exact != null) {
                    keys.add(exact);
                }
                if (id.isNumber() && Double.isFinite(id.doubleValue())) {
                    String asDouble = key(com.fasterxml.jackson.databind.node.DoubleNode.valueOf(id.doubleValue()));
                    if (!keys.contains(asDouble)) {
                        keys.add(asDouble);
                    }
                }
            }
        } catch (Exception | StackOverflowError unreadable) {
            // no readable id
        }
        return keys;
    }

    /** The method a lenient server could read from the frame, or null. */
    public static String readableMethod(byte[] frame) {
        try {
            JsonNode tree = LENIENT.readTree(new String(frame, StandardCharsets.UTF_8));
            return tree != null && tree.isObject() ? tree.path("method").textValue() : null;
        } catch (Exception | StackOverflowError unreadable) {
            return null;
        }
    }

    /** An id as a comparable key: strings as themselves, numbers by value. */
    public static String key(JsonNode id) {
        if (id == null || id.isNull()) {
            return null;
        }
        if (id.isTextual()) {
            return "s:" + id.textValue();
        }
        if (id.isNumber()) {
            try {
                return "n:" + id.decimalValue().stripTrailingZeros().toPlainString();
            } catch (RuntimeException notFinite) {
                return "n:" + id.asText();
            }
        }
        return "j:" + id;
    }

    /** True if a reply's id is the request's id (numbers compared by value). */
    public static boolean sameId(JsonNode requestId, JsonNode replyId) {
        if (requestId == null || replyId == null) {
            return false;
        }
        if (requestId.isTextual()) {
            return replyId.isTextual() && requestId.textValue().equals(replyId.textValue());
        }
        return replyId.isNumber() && replyId.isIntegralNumber() && requestId.bigIntegerValue().equals(replyId.bigIntegerValue());
    }

    private static Verdict malformed() {
        return new Verdict(Kind.MALFORMED, null);
    }
}
