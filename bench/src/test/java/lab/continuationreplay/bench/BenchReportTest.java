package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchReportTest {
    private static Map<String, BenchResult> results() {
        Map<String, BenchResult> results = new LinkedHashMap<>();
        for (String id : BenchReport.BENCHMARKS) {
            ObjectNode figures = JsonNodeFactory.instance.objectNode().put("value_ms", 2.5);
            figures.putObject("nested").put("calls", 10).putArray("list").add("a<b");
            boolean met = !id.equals("fingerprint");
            results.put(id, new BenchResult(id, "Title " + id, "method & more", figures,
                    List.of(met ? Goal.atMost(id + "_goal", "goal of " + id, "figure", 1, "baseline", 2, "ms", 1)
                            : Goal.atMost(id + "_goal", "goal of " + id, "figure", 3, "baseline", 2, "ms", 1).withFloor("the least work", 1.2)),
                    id.equals("memory") ? List.of("a note") : List.of()));
        }
        return results;
    }

    private static ObjectNode report() {
        return BenchReport.of(true, "2026-12-02T00:00:00Z", 12.5, JsonNodeFactory.instance.objectNode().put("cores", 2),
                results(), Map.of());
    }

    @Test
    void everyBenchmarkInTheIssuesOrderWithTheTally() {
        ObjectNode report = report();
        assertEquals("format", report.fieldNames().next(), "the format comes first");
        assertEquals("bench/1", report.get("format").textValue());
        assertEquals(null, report.get("schema"), "the format member replaced the former schema member");
        assertEquals("quick", report.get("mode").textValue());
        List<String> ids = new java.util.ArrayList<>();
        report.get("benchmarks").fieldNames().forEachRemaining(ids::add);
        assertEquals(BenchReport.BENCHMARKS, ids);
        assertEquals(8, report.get("goals_met").intValue());
        assertEquals(9, report.get("goals_total").intValue());
        assertEquals(1, report.get("goals_out_of_reach").intValue(), "the missed goal's floor 1.2 is beyond its bound 1");
        List<ObjectNode> goals = BenchReport.goals(report);
        assertEquals(9, goals.size());
        assertEquals(7, goals.get(6).get("number").intValue(), "HTTP vs stdio is benchmark 7");
        assertEquals(8, goals.get(7).get("number").intValue(), "the ledger on PostgreSQL is benchmark 8");
        assertEquals(9, goals.get(8).get("number").intValue(), "the large ledger is benchmark 9");
        assertEquals(4, goals.get(3).get("number").intValue());
        assertFalse(goals.get(3).get("met").booleanValue());
    }

    @Test
    void aMissingBenchmarkIsAnError() {
        Map<String, BenchResult> results = results();
        results.remove("memory");
        assertThrows(IllegalStateException.class, () -> BenchReport.of(false, "t", 1, JsonNodeFactory.instance.objectNode(),
                results, Map.of()));
    }

    @Test
    void markdownHasARowPerGoalAndTheDetails() {
        String md = BenchMarkdown.render(report());
        long rows = md.lines().filter(l -> l.matches("^\\| [1-9] \\| goal of .*")).count();
        assertEquals(9, rows, md);
        assertTrue(md.indexOf("Rows met: 0 of 10") < md.indexOf("Goals met:"), "the row table comes first: " + md);
        assertTrue(md.contains("| 4 | goal of fingerprint | figure 3 ms | baseline 2 ms | 1.5 | <= 1 | **no** (floor 1.2, out of reach) |"), md);
        assertTrue(md.contains("| nested.list[0] | a<b |"), md);
        assertTrue(md.contains("Note: a note"), md);
        assertTrue(md.contains("Goals met: 8 of 9; 1 of the missed goals are out of reach on this runtime"), md);
    }

    @Test
    void htmlIsSelfContainedAndEscaped() {
        String html = BenchHtml.render(report());
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("a&lt;b"));
        assertTrue(html.contains("method &amp; more"));
        assertTrue(html.contains("floor 1.2 (the least work): out of reach on this runtime"), html);
        assertFalse(html.contains("<script"));
        assertFalse(html.contains("href="));
        assertFalse(html.contains("src="));
    }

    @Test
    void flattenNamesEveryLeaf() {
        List<String[]> rows = BenchReport.flatten(results().get("memory").figures());
        assertEquals(List.of("value_ms", "nested.calls", "nested.list[0]"), rows.stream().map(r -> r[0]).toList());
    }
}
