package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.Format;

/**
 * {@code bench.json}: the machine, the mode, each benchmark's figures and goals in the order, and the tally.
 * Renders nothing itself; {@link BenchMarkdown} and {@link BenchHtml} read this JSON only.
 */
public final class BenchReport {
    /** The benchmarks of the issue, in its order, then benchmark 2 on PostgreSQL (Step 15) and the large ledger (row 8). */
    public static final List<String> BENCHMARKS = List.of("guard_overhead", "ledger_throughput", "bridge_round_trip",
            "fingerprint", "matrix_wall_time", "memory", "http_vs_stdio", "ledger_throughput_postgres", "large_ledger");

    private BenchReport() {}

    public static ObjectNode of(boolean quick, String startedUtc, double seconds, ObjectNode machine,
            Map<String, BenchResult> results, Map<String, Double> durations) {
        // The format member replaces the report's former "schema" member: one version marker, checked like every other.
        ObjectNode json = Format.BENCH.document();
        json.put("mode", quick ? "quick" : "full");
        json.put("started_utc", startedUtc);
        json.put("duration_s", Round.of(seconds));
        json.set("machine", machine);
        ObjectNode benchmarks = json.putObject("benchmarks");
        int met = 0;
        int total = 0;
        int outOfReach = 0;
        for (String id : BENCHMARKS) {
            BenchResult result = results.get(id);
            if (result == null) {
                throw new IllegalStateException("benchmark " + id + " has no result");
            }
            benchmarks.set(id, result.toJson(durations.getOrDefault(id, 0.0)));
            for (Goal goal : result.goals()) {
                total++;
                met += goal.met() ? 1 : 0;
                outOfReach += goal.outOfReach() && !goal.met() ? 1 : 0;
            }
        }
        json.put("goals_met", met);
        json.put("goals_total", total);
        json.put("goals_out_of_reach", outOfReach);
        BenchRows.addTo(json);
        return json;
    }

    /** "Goals met: M of N" and, when some missed goals' floors are beyond their bounds, how many. */
    public static String summary(JsonNode report) {
        int outOfReach = report.path("goals_out_of_reach").asInt();
        return "Goals met: " + report.path("goals_met").asInt() + " of " + report.path("goals_total").asInt()
                + (outOfReach == 0 ? "" : "; " + outOfReach + " of the missed goals are out of reach on this runtime (their"
                        + " floor, measured in this run, is already beyond the bound)");
    }

    /** Every goal of a report, in order, each with its benchmark's number (1–6) and id added. */
    public static List<ObjectNode> goals(JsonNode report) {
        List<ObjectNode> goals = new ArrayList<>();
        int number = 0;
        for (String id : BENCHMARKS) {
            number++;
            for (JsonNode goal : report.path("benchmarks").path(id).path("goals")) {
                ObjectNode copy = ((ObjectNode) goal).deepCopy();
                copy.put("benchmark", id);
                copy.put("number", number);
                goals.add(copy);
            }
        }
        return goals;
    }

    /**
     * The figures of one benchmark flattened to {@code a.b.c = value} lines, for the details sections. An array of
     * numbers (a distribution, a benchmark's rounds) stays one line, its values joined by commas.
     */
    public static List<String[]> flatten(JsonNode figures) {
        List<String[]> rows = new ArrayList<>();
        flatten("", figures, rows);
        return rows;
    }

    private static void flatten(String prefix, JsonNode node, List<String[]> rows) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), rows));
        } else if (node.isArray() && node.size() > 0 && java.util.stream.StreamSupport.stream(node.spliterator(), false)
                .allMatch(JsonNode::isNumber)) {
            List<String> values = new ArrayList<>();
            node.forEach(v -> values.add(number(v)));
            rows.add(new String[] {prefix, String.join(", ", values)});
        } else if (node.isArray()) {
            ArrayNode array = (ArrayNode) node;
            for (int i = 0; i < array.size(); i++) {
                flatten(prefix + "[" + i + "]", array.get(i), rows);
            }
        } else {
            rows.add(new String[] {prefix, node.asText()});
        }
    }

    static String number(JsonNode value) {
        double v = value.asDouble();
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return value.asText();
    }
}
