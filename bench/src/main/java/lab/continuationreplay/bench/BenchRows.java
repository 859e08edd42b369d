package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lab.continuationreplay.core.servers.ServerKind;

/**
 * The ten rows of the bench's goal table (Step 19), derived from one {@code bench.json}'s goals and figures alone. A
 * row holds each SDK to the row's own bound (or the ledger and bridge once), so a goal measured with another bound
 * (a benchmark's older goal) is judged again here. A row whose goal this run did not measure, for one SDK or at all,
 * says so and is not met: it never counts as met by default.
 */
public final class BenchRows {
    /** Per SDK (met when every SDK meets it) or once (the shared ledger or bridge). */
    enum Scope {
        PER_SDK("per SDK"), ONCE("once");

        private final String label;

        Scope(String label) {
            this.label = label;
        }
    }

    /** One row: its goals per SDK (or under {@link #ONCE_KEY}), and what else a passing run must show. */
    record Row(int number, String id, String title, Scope scope, String comparison, double bound,
            Function<String, List<String>> goalIds, Function<JsonNode, String> extraProblem) {}

    static final String ONCE_KEY = "once";

    static final List<Row> ROWS = List.of(
            perSdk(1, "guard_overhead_stdio", "guarded / the same SDK's unguarded control, continuation p50 over stdio", "<=", 1.25,
                    sdk -> List.of("guard_overhead_" + sdk)),
            perSdk(2, "guard_overhead_http", "the same over Streamable HTTP", "<=", 1.25, sdk -> List.of("guard_overhead_http_" + sdk)),
            perSdk(3, "guard_throughput_http", "guarded commits/s with 16 HTTP clients / the unguarded control's with 16", ">=", 0.8,
                    sdk -> List.of("guard_throughput_http_" + sdk)),
            perSdk(4, "fingerprint_floor", "fingerprint / that language's floor (its own serializer on a sorted tree, the same"
                    + " HMAC and SHA-256), case 01 and 64 KiB", "<=", 1.5,
                    sdk -> List.of("fingerprint_floor_" + sdk + "_case-01", "fingerprint_floor_" + sdk + "_args-64KiB")),
            once(5, "sqlite_ledger", "SQLite ledger: 8 warm processes, distinct operations / their bare commit loop", ">=", 0.8,
                    List.of("ledger_vs_floor"), report -> null),
            once(6, "postgres_ledger", "PostgreSQL ledger: 8 warm processes / their bare INSERT+COMMIT loop, writers never abort"
                    + " each other", ">=", 0.6, List.of("postgres_ledger_vs_floor"), BenchRows::postgresResends),
            once(7, "race_one_effect", "racing one operation id, SQLite and PostgreSQL: exactly one effect", "==", 1.0,
                    List.of("race_one_effect", "postgres_race_one_effect"), report -> null),
            once(8, "large_ledger", "continuation p50 with 1,000,000 ledger rows / with 1,000 rows, status read-back alike", "<=", 1.2,
                    List.of("large_ledger_continuation", "large_ledger_status"), report -> null),
            perSdk(9, "peak_rss", "peak RSS of every server, bridge and client process / 160 MiB", "<=", 1.0, BenchRows::memoryGoals),
            once(10, "persistent_bridge", "persistent bridge vs one JVM per call, p50", ">=", 100.0,
                    List.of("bridge_persistent_speedup"), report -> null));

    private BenchRows() {}

    private static Row perSdk(int number, String id, String title, String comparison, double bound,
            Function<String, List<String>> goalIds) {
        return new Row(number, id, title, Scope.PER_SDK, comparison, bound, goalIds, report -> null);
    }

    private static Row once(int number, String id, String title, String comparison, double bound, List<String> goalIds,
            Function<JsonNode, String> extraProblem) {
        return new Row(number, id, title, Scope.ONCE, comparison, bound, key -> goalIds, extraProblem);
    }

    /** Benchmark 6's roles of an SDK: its server (and bridge) and its client driver. */
    private static List<String> memoryGoals(String sdk) {
        return switch (sdk) {
            case "java" -> List.of("memory_java_server", "memory_java_client_driver");
            case "typescript" -> List.of("memory_typescript_fixture_node", "memory_typescript_fixture_bridge",
                    "memory_typescript_client_driver");
            default -> List.of("memory_" + sdk + "_fixture", "memory_" + sdk + "_fixture_bridge", "memory_" + sdk + "_client_driver");
        };
    }

    /** Row 6 asks for no aborted writers: every rolled-back transaction was a writer run again. */
    private static String postgresResends(JsonNode report) {
        JsonNode rolledBack = report.path("benchmarks").path("ledger_throughput_postgres").path("figures").path("rolled_back_transactions");
        if (!rolledBack.isNumber()) {
            return "no rolled_back_transactions figure";
        }
        return rolledBack.asLong() == 0 ? null : rolledBack.asLong() + " transactions rolled back and run again";
    }

    /** Adds {@code rows}, {@code rows_met} and {@code rows_total} to {@code report}, from its goals and figures. */
    static void addTo(ObjectNode report) {
        Map<String, JsonNode> goals = new LinkedHashMap<>();
        report.path("benchmarks").forEach(bench -> bench.path("goals").forEach(goal -> goals.put(goal.path("id").asText(), goal)));
        ArrayNode rows = report.putArray("rows");
        int met = 0;
        for (Row row : ROWS) {
            ObjectNode json = rows.addObject();
            json.put("number", row.number());
            json.put("id", row.id());
            json.put("title", row.title());
            json.put("scope", row.scope().label);
            json.put("comparison", row.comparison());
            json.put("bound", row.bound());
            ObjectNode parts = json.putObject(row.scope() == Scope.ONCE ? "result" : "sdks");
            boolean rowMet = true;
            List<String> keys = row.scope() == Scope.ONCE ? List.of(ONCE_KEY) : ServerKind.sdkLabels();
            for (String key : keys) {
                ObjectNode part = row.scope() == Scope.ONCE ? parts : parts.putObject(key);
                rowMet &= judge(row, row.goalIds().apply(key), goals, part);
            }
            String extra = row.extraProblem().apply(report);
            if (extra != null) {
                json.put("problem", extra);
                rowMet = false;
            }
            json.put("met", rowMet);
            met += rowMet ? 1 : 0;
        }
        report.put("rows_met", met);
        report.put("rows_total", ROWS.size());
    }

    /** One SDK's (or the once) part of a row: the worst ratio of its goals against the row's bound. */
    private static boolean judge(Row row, List<String> ids, Map<String, JsonNode> goals, ObjectNode part) {
        ArrayNode named = part.putArray("goals");
        List<String> missing = new ArrayList<>();
        Double worst = null;
        for (String id : ids) {
            named.add(id);
            JsonNode goal = goals.get(id);
            if (goal == null || !goal.path("ratio").isNumber()) {
                missing.add(id);
                continue;
            }
            double ratio = goal.path("ratio").asDouble();
            worst = worst == null ? ratio : worse(row.comparison(), worst, ratio);
        }
        if (!missing.isEmpty()) {
            part.put("measured", false);
            ArrayNode absent = part.putArray("not_measured");
            missing.forEach(absent::add);
            part.put("met", false);
            return false;
        }
        part.put("measured", true);
        part.put("ratio", worst);
        boolean met = holds(row.comparison(), worst, row.bound());
        part.put("met", met);
        return met;
    }

    private static double worse(String comparison, double a, double b) {
        return switch (comparison) {
            case "<=" -> Math.max(a, b);
            case ">=" -> Math.min(a, b);
            default -> Math.abs(a - 1) >= Math.abs(b - 1) ? a : b;
        };
    }

    static boolean holds(String comparison, double ratio, double bound) {
        return switch (comparison) {
            case "<=" -> ratio <= bound;
            case ">=" -> ratio >= bound;
            case "==" -> ratio == bound;
            default -> throw new IllegalArgumentException("comparison " + comparison);
        };
    }

    /** The rows as a Markdown table: one column per SDK for a per-SDK row, the once column for the others. */
    public static String markdown(JsonNode report) {
        List<String> sdks = ServerKind.sdkLabels();
        StringBuilder md = new StringBuilder("| # | row | scope | bound |");
        sdks.forEach(sdk -> md.append(' ').append(sdk).append(" |"));
        md.append(" once | met |\n|---|---|---|---|");
        sdks.forEach(sdk -> md.append("---|"));
        md.append("---|---|\n");
        for (JsonNode row : report.path("rows")) {
            md.append("| ").append(row.path("number").asInt()).append(" | ").append(row.path("title").asText()).append(" | ")
                    .append(row.path("scope").asText()).append(" | ").append(row.path("comparison").asText()).append(' ')
                    .append(BenchReport.number(row.path("bound"))).append(" |");
            boolean once = row.has("result");
            for (String sdk : sdks) {
                md.append(' ').append(once ? "" : cell(row.path("sdks").path(sdk))).append(" |");
            }
            md.append(' ').append(once ? cell(row.path("result")) : "").append(" | ").append(row.path("met").asBoolean() ? "yes" : "**no**");
            if (row.has("problem")) {
                md.append(" (").append(row.path("problem").asText()).append(')');
            }
            md.append(" |\n");
        }
        return md.toString();
    }

    private static String cell(JsonNode part) {
        if (!part.path("measured").asBoolean()) {
            return "not measured";
        }
        return BenchReport.number(part.path("ratio")) + (part.path("met").asBoolean() ? "" : " ✗");
    }

    /** "Rows met: M of 10", for the run's last lines. */
    static String summary(JsonNode report) {
        return "Rows met: " + report.path("rows_met").asInt() + " of " + report.path("rows_total").asInt()
                + " (the goal table of docs/benchmarks.md, each SDK held to each per-SDK row)";
    }
}
