package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchRowsTest {
    /** A report whose benchmarks hold exactly these goals, each with its ratio. */
    private static ObjectNode report(Object... idsAndRatios) {
        ObjectNode report = JsonNodeFactory.instance.objectNode();
        ArrayNode goals = report.putObject("benchmarks").putObject("any").putArray("goals");
        for (int i = 0; i < idsAndRatios.length; i += 2) {
            goals.addObject().put("id", (String) idsAndRatios[i]).put("ratio", ((Number) idsAndRatios[i + 1]).doubleValue());
        }
        return report;
    }

    private static JsonNode row(ObjectNode report, int number) {
        BenchRows.addTo(report);
        return report.path("rows").get(number - 1);
    }

    @Test
    void aPerSdkRowIsMetOnlyWhenEverySdkMeetsTheRowsOwnBound() {
        JsonNode met = row(report("guard_overhead_java", 1.1, "guard_overhead_typescript", 1.2, "guard_overhead_python", 1.25,
                "guard_overhead_go", 1.0, "guard_overhead_rust", 0.9), 1);
        assertTrue(met.path("met").asBoolean(), met.toString());
        assertEquals("per SDK", met.path("scope").asText());
        JsonNode missed = row(report("guard_overhead_java", 1.1, "guard_overhead_typescript", 1.3, "guard_overhead_python", 1.0,
                "guard_overhead_go", 1.0, "guard_overhead_rust", 1.0), 1);
        assertFalse(missed.path("met").asBoolean());
        assertFalse(missed.path("sdks").path("typescript").path("met").asBoolean());
        assertTrue(missed.path("sdks").path("java").path("met").asBoolean());
    }

    @Test
    void anSdkOrAGoalNotMeasuredIsNotMetAndNamed() {
        JsonNode row = row(report("guard_overhead_java", 1.0, "guard_overhead_typescript", 1.0), 1);
        assertFalse(row.path("met").asBoolean());
        assertFalse(row.path("sdks").path("go").path("measured").asBoolean());
        assertEquals("guard_overhead_go", row.path("sdks").path("go").path("not_measured").get(0).asText());
        JsonNode large = row(report(), 8);
        assertFalse(large.path("met").asBoolean(), "no run measures row 8 yet: " + large);
        assertFalse(large.path("result").path("measured").asBoolean());
    }

    @Test
    void aGoalIsJudgedAgainByTheRowsBoundAndTheWorstOfAnSdksGoalsCounts() {
        // the ledger's goal bound is 0.7; row 5's is 0.8
        assertFalse(row(report("ledger_vs_floor", 0.75), 5).path("met").asBoolean());
        assertTrue(row(report("ledger_vs_floor", 0.85), 5).path("met").asBoolean());
        ObjectNode report = report("memory_java_server", 0.5, "memory_java_client_driver", 1.2);
        JsonNode java = row(report, 9).path("sdks").path("java");
        assertEquals(1.2, java.path("ratio").asDouble());
        assertFalse(java.path("met").asBoolean());
        assertFalse(row(report("race_one_effect", 1.0, "postgres_race_one_effect", 2.0), 7).path("met").asBoolean());
        assertTrue(row(report("race_one_effect", 1.0, "postgres_race_one_effect", 1.0), 7).path("met").asBoolean());
    }

    @Test
    void thePostgresRowAlsoAsksThatNoWriterWasRolledBack() {
        ObjectNode report = report("postgres_ledger_vs_floor", 0.9);
        ObjectNode figures = ((ObjectNode) report.path("benchmarks")).putObject("ledger_throughput_postgres").putObject("figures");
        figures.put("rolled_back_transactions", 3);
        JsonNode row = row(report, 6);
        assertFalse(row.path("met").asBoolean());
        assertEquals("3 transactions rolled back and run again", row.path("problem").asText());
        figures.put("rolled_back_transactions", 0);
        report.remove(List.of("rows", "rows_met", "rows_total"));
        assertTrue(row(report, 6).path("met").asBoolean());
    }

    @Test
    void theTallyAndTheTable() {
        ObjectNode report = report("bridge_persistent_speedup", 400.0);
        BenchRows.addTo(report);
        assertEquals(10, report.path("rows_total").asInt());
        assertEquals(1, report.path("rows_met").asInt());
        String table = BenchRows.markdown(report);
        assertEquals(12, table.lines().count(), table);
        assertTrue(table.contains("| 10 | persistent bridge vs one JVM per call, p50 | once | >= 100 |"), table);
        assertTrue(table.contains("not measured"), table);
    }
}
