package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import lab.continuationreplay.history.Reply;

/**
 * Wire-shape facts per column, gathered from all of its records: how refusals travel (over HTTP with the response
 * status, e.g. {@code jsonrpc_error -32602 (HTTP 400)}), token shape, result fields, and the HTTP statuses seen.
 */
final class WireDifferences {
    private WireDifferences() {}

    static ObjectNode summarise(Map<String, List<JsonNode>> recordsBySdk) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        recordsBySdk.forEach((sdk, records) -> {
            TreeSet<String> applicationRefusals = new TreeSet<>();
            TreeSet<String> stateRefusals = new TreeSet<>();
            TreeSet<String> tokenShapes = new TreeSet<>();
            TreeSet<String> resultFields = new TreeSet<>();
            TreeSet<String> httpStatuses = new TreeSet<>();
            for (JsonNode record : records) {
                for (JsonNode call : record.path("independent_wire").path("calls")) {
                    JsonNode reply = call.path("reply");
                    String refusal = reply.path("refusal").asText(null);
                    String shape = reply.path("shape").asText("") + (reply.has("code") ? " " + reply.path("code").asInt() : "")
                            + (call.has("http_status") ? " (HTTP " + call.path("http_status").asInt() + ")" : "");
                    if (call.has("http_status")) {
                        httpStatuses.add(call.path("http_status").asInt() + " " + (refusal == null ? "reply" : "refusal"));
                    } else if (call.path("reply").isNull() && sdk.endsWith(lab.continuationreplay.history.Layout.HTTP_SUFFIX)) {
                        httpStatuses.add("no response (connection closed)");
                    }
                    if (refusal != null && Reply.STATE_REJECTED.equals(Reply.mechanismOf(refusal))) {
                        stateRefusals.add(shape);
                    } else if (refusal != null) {
                        applicationRefusals.add(shape);
                    }
                    JsonNode structured = reply.path("structured");
                    if (reply.has("request_state_format")) {
                        tokenShapes.add(reply.path("request_state_format").asText());
                    }
                    if (structured.isObject() && structured.has("effectId")) {
                        structured.fieldNames().forEachRemaining(resultFields::add);
                    }
                }
            }
            ObjectNode side = out.putObject(sdk);
            side.set("application_refusal", array(applicationRefusals));
            side.set("request_state_refusal", array(stateRefusals));
            side.set("request_state_format", array(tokenShapes));
            side.set("create_result_fields", array(resultFields));
            side.set("http_statuses", array(httpStatuses));
        });
        return out;
    }

    private static ArrayNode array(TreeSet<String> values) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        values.forEach(array::add);
        return array;
    }
}
