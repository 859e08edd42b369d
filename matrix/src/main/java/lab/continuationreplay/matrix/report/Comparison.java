package lab.continuationreplay.matrix.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * Puts two SDKs' records side by side: per case the semantic outcomes and whether they agree, the physical rows,
 * the reply counts, and how each SDK shaped its refusals on the wire. Differences in shape are findings to show,
 * not failures; a difference in outcome is a failure.
 */
public final class Comparison {
    private Comparison() {}

    public static ObjectNode compare(Map<String, List<JsonNode>> recordsBySdk) {
        ObjectNode comparison = JsonNodeFactory.instance.objectNode();
        List<String> sdks = new ArrayList<>(recordsBySdk.keySet());
        comparison.set("sdks", JsonNodeFactory.instance.arrayNode().addAll(sdks.stream().map(JsonNodeFactory.instance::textNode).toList()));
        ArrayNode cases = comparison.putArray("cases");
        Map<String, Map<String, JsonNode>> byCase = new TreeMap<>();
        recordsBySdk.forEach((sdk, records) -> records.forEach(r -> byCase.computeIfAbsent(r.path("case_id").asText(),
                id -> new TreeMap<>()).put(sdk, r)));
        boolean allAgree = true;
        for (Map.Entry<String, Map<String, JsonNode>> entry : byCase.entrySet()) {
            ObjectNode row = cases.addObject();
            row.put("case_id", entry.getKey());
            Set<String> outcomes = new LinkedHashSet<>();
            for (String sdk : sdks) {
                JsonNode record = entry.getValue().get(sdk);
                ObjectNode side = row.putObject(sdk);
                if (record == null) {
                    side.put("status", "missing");
                    outcomes.add("missing");
                    continue;
                }
                row.put("name", record.path("name").asText());
                side.put("status", record.path("status").asText());
                side.set("outcome", record.path("outcome"));
                side.put("issues", record.path("independent_db").path("issues").size());
                side.put("operations", record.path("independent_db").path("operations").size());
                side.put("replies", record.path("independent_wire").path("replies").asInt());
                side.set("refusal_shapes", refusalShapes(record));
                outcomes.add(CanonicalJson.canonical(record.path("outcome")));
            }
            boolean agree = outcomes.size() == 1 && !outcomes.contains("missing");
            row.put("agree", agree);
            allAgree &= agree;
        }
        comparison.put("all_agree", allAgree);
        comparison.set("wire_differences", WireDifferences.summarise(recordsBySdk));
        return comparison;
    }

    /** Each refusal as {@code <shape>[ <code>]: <mechanism text>}, in call order. */
    static ArrayNode refusalShapes(JsonNode record) {
        ArrayNode shapes = JsonNodeFactory.instance.arrayNode();
        for (JsonNode call : record.path("independent_wire").path("calls")) {
            JsonNode reply = call.path("reply");
            String shape = reply.path("shape").asText("");
            if (shape.equals("jsonrpc_error") || shape.equals("tool_result_isError")) {
                shapes.add(shape + (reply.has("code") ? " " + reply.path("code").asInt() : "") + ": " + reply.path("refusal").asText());
            }
        }
        return shapes;
    }
}
