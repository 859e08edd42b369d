package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a parsed line as {@code LogicalRequest} or {@code {"name":…,"request":LogicalRequest}}. Rules and messages
 * match {@code ts-fixture/src/logical-request.ts}.
 */
public final class LogicalRequestReader {
    private static final Set<String> MEMBERS = Set.of(
            "principal", "tool_id", "tool_version", "arguments", "continuation_state", "input_responses");

    private LogicalRequestReader() {}

    public static NamedRequest readNamed(JsonNode value) {
        String name = readName(value);
        return new NamedRequest(name, read(name == null ? value : value.get("request")));
    }

    /** The name of a named entry, null for a plain request; checks the envelope, not the request inside. */
    public static String readName(JsonNode value) {
        if (value == null || !value.isObject()) {
            throw new CanonicalJsonException("a line must hold a JSON object");
        }
        if (!value.has("request")) {
            return null;
        }
        if (value.size() != 2 || !value.has("name")) {
            throw new CanonicalJsonException("a named entry must have exactly the members \"name\" and \"request\"");
        }
        JsonNode name = value.get("name");
        if (!name.isTextual() || name.textValue().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new CanonicalJsonException("$.name: must be a string without control characters");
        }
        CanonicalJson.requireScalarValues(name.textValue(), "$.name");
        return name.textValue();
    }

    public static LogicalRequest read(JsonNode value) {
        if (value == null || !value.isObject()) {
            throw new CanonicalJsonException("a LogicalRequest must be a JSON object");
        }
        // Sorted, so that Java (insertion order) and JS (integer-like keys first) report the same member.
        List<String> keys = new ArrayList<>();
        value.fieldNames().forEachRemaining(keys::add);
        keys.sort(CanonicalJson.CODE_POINT_ORDER);
        for (String key : keys) {
            if (!MEMBERS.contains(key)) {
                throw new CanonicalJsonException("$" + CanonicalJson.pathSegment(key) + ": unknown LogicalRequest member");
            }
        }
        JsonNode principal = required(value, "principal");
        if (!principal.isNull() && !principal.isTextual()) {
            throw new CanonicalJsonException("$.principal: must be a string or null");
        }
        String toolId = requiredString(value, "tool_id");
        String toolVersion = requiredString(value, "tool_version");
        JsonNode arguments = required(value, "arguments");
        if (!arguments.isObject()) {
            throw new CanonicalJsonException("$.arguments: must be a JSON object");
        }
        return new LogicalRequest(
                principal.isNull() ? null : principal.textValue(),
                toolId,
                toolVersion,
                (ObjectNode) arguments,
                value.get("continuation_state"),
                value.get("input_responses"));
    }

    private static JsonNode required(JsonNode value, String member) {
        JsonNode found = value.get(member);
        if (found == null) {
            throw new CanonicalJsonException("$." + member + ": required");
        }
        return found;
    }

    private static String requiredString(JsonNode value, String member) {
        JsonNode found = required(value, member);
        if (!found.isTextual()) {
            throw new CanonicalJsonException("$." + member + ": must be a string");
        }
        return found.textValue();
    }
}
