package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.InputResponses;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * The two requests benchmark 4 fingerprints, as LogicalRequest JSON both languages read: case 01's continuation as
 * the guard fingerprints it, and one whose arguments object is 64 KiB of canonical JSON (nested members, escapes,
 * non-ASCII text).
 */
final class FingerprintRequests {
    static final String CASE_01 = "case-01";
    static final String ARGS_64_KIB = "args-64KiB";
    static final int LARGE_ARGUMENT_BYTES = 64 * 1024;

    private FingerprintRequests() {}

    static Map<String, ObjectNode> all() {
        Map<String, ObjectNode> requests = new LinkedHashMap<>();
        requests.put(CASE_01, request(JsonNodeFactory.instance.objectNode().put("mode", "atomic").put("operation_id", "case-01")
                .put("title", "guarded-01"), "case-01"));
        requests.put(ARGS_64_KIB, request(largeArguments(), "bench-64k"));
        return requests;
    }

    private static ObjectNode request(ObjectNode arguments, String operationId) {
        long t0 = WireSettings.T0;
        ContinuationState state = new ContinuationState(operationId, "661eed17995cd1b77e6812a2fd567408", t0, t0 + 300, t0 + 360);
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("principal", "alice");
        request.put("tool_id", "create_guarded_issue");
        request.put("tool_version", "1");
        request.set("arguments", arguments);
        request.put("continuation_state", state.canonicalText());
        request.set("input_responses", InputResponses.normalised("alpha"));
        return request;
    }

    /** {@code operation_id}, {@code title}, {@code mode} and a {@code details} object filled to 64 KiB canonical. */
    static ObjectNode largeArguments() {
        ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("operation_id", "bench-64k").put("title", "large")
                .put("mode", "atomic");
        ObjectNode details = arguments.putObject("details");
        String unit = "line \"quoted\" \\ café ünïcödé 漢字 tab\t end. ";
        int index = 0;
        while (size(arguments) < LARGE_ARGUMENT_BYTES) {
            ObjectNode entry = details.putObject(String.format("item-%04d", index++));
            entry.put("text", unit.repeat(3));
            entry.put("n", index * 7919L);
            entry.putArray("tags").add("a").add(true).addNull();
        }
        // trim the last text so the canonical arguments are exactly 64 KiB
        int excess = size(arguments) - LARGE_ARGUMENT_BYTES;
        ObjectNode last = (ObjectNode) details.get(String.format("item-%04d", index - 1));
        String text = last.get("text").textValue();
        String trimmed = text.substring(0, Math.max(0, text.length() - excess));
        last.put("text", trimmed);
        while (size(arguments) > LARGE_ARGUMENT_BYTES && !trimmed.isEmpty()) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
            last.put("text", trimmed);
        }
        // an escape or a multi-byte character may have overshot: ASCII letters add one byte each
        last.put("text", trimmed + "x".repeat(LARGE_ARGUMENT_BYTES - size(arguments)));
        return arguments;
    }

    static int size(ObjectNode value) {
        return CanonicalJson.canonical(value).getBytes(StandardCharsets.UTF_8).length;
    }
}
