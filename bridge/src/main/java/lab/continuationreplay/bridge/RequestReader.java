package lab.continuationreplay.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Turns one request line into a {@link BridgeRequest}, or an {@link InvalidApplicationRequest} saying what is wrong.
 * The member sets are exact: a field the bridge does not know could only be something the client believes is bound
 * and is not.
 */
final class RequestReader {
    static final List<String> APPLY_FIELDS = List.of("op", "operation_id", "title", "mode", "body", "state", "responses");
    static final List<String> STATUS_FIELDS = List.of("op", "operation_id");
    static final List<String> CREATE_FIELDS = List.of("op", "title", "body", "responses");

    // A repeated key would let two parsers read two different requests from one line.
    private static final ObjectReader JSON = ExactJson.mapper().reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private RequestReader() {}

    static BridgeRequest read(byte[] line) {
        JsonNode request = parse(utf8(line));
        if (!request.isObject()) {
            throw new InvalidApplicationRequest("a bridge request must be a JSON object");
        }
        JsonNode op = request.get("op");
        if (op == null || !op.isTextual()) {
            throw new InvalidApplicationRequest("op must be a string");
        }
        switch (op.textValue()) {
            case "apply":
                requireExactly(request, "apply", APPLY_FIELDS);
                return new BridgeRequest.Apply(text(request, "operation_id"), text(request, "title"), text(request, "mode"),
                        text(request, "body"), object(request, "state"), object(request, "responses"));
            case "status":
                requireExactly(request, "status", STATUS_FIELDS);
                return new BridgeRequest.Status(text(request, "operation_id"));
            case "create":
                requireExactly(request, "create", CREATE_FIELDS);
                return new BridgeRequest.Create(text(request, "title"), text(request, "body"), object(request, "responses"));
            default:
                throw new InvalidApplicationRequest("unsupported bridge operation");
        }
    }

    private static String utf8(byte[] line) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(line))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidApplicationRequest("request is not valid UTF-8");
        }
    }

    private static JsonNode parse(String text) {
        JsonNode value;
        try {
            value = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidApplicationRequest("invalid JSON: " + firstLine(e.getOriginalMessage()));
        }
        if (value == null || value.isMissingNode()) {
            throw new InvalidApplicationRequest("invalid JSON: no value");
        }
        return value;
    }

    private static void requireExactly(JsonNode request, String op, List<String> expected) {
        Set<String> present = new TreeSet<>(CanonicalJson.CODE_POINT_ORDER);
        for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
            present.add(names.next());
        }
        List<String> missing = new ArrayList<>();
        for (String name : expected) {
            if (!present.contains(name)) {
                missing.add(name);
            }
        }
        List<String> unexpected = new ArrayList<>(present);
        unexpected.removeAll(expected);
        if (!missing.isEmpty() || !unexpected.isEmpty()) {
            throw new InvalidApplicationRequest("bridge " + op + " requires exactly the fields " + expected
                    + (missing.isEmpty() ? "" : "; missing " + missing)
                    + (unexpected.isEmpty() ? "" : "; unexpected " + unexpected));
        }
    }

    private static String text(JsonNode request, String field) {
        JsonNode value = request.get(field);
        if (!value.isTextual()) {
            throw new InvalidApplicationRequest(field + " must be a string");
        }
        return value.textValue();
    }

    private static ObjectNode object(JsonNode request, String field) {
        JsonNode value = request.get(field);
        if (!value.isObject()) {
            throw new InvalidApplicationRequest(field + " must be an object");
        }
        return (ObjectNode) value;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
