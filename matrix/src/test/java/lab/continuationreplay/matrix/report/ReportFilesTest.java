package lab.continuationreplay.matrix.report;

import lab.continuationreplay.history.html.HtmlPage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFilesTest {
    private static final Pattern BAR = Pattern.compile("class=\"bar\" style=\"width:([0-9.]+)%\"");

    private static JsonNode record(String caseId, String name, String refusal) {
        ObjectNode record = ExactJson.mapper().createObjectNode().put("case_id", caseId).put("name", name).put("status", "pass");
        record.putObject("outcome").put("effects", 1).put("mechanism", "operation_conflict");
        record.putObject("independent_db").putArray("issues").addObject();
        var calls = record.putObject("independent_wire").put("replies", 4).putArray("calls");
        if (refusal != null) {
            calls.addObject().putObject("reply").put("shape", "jsonrpc_error").put("code", -32602).put("refusal", refusal);
        }
        return record;
    }

    /** An attempt folder as the runner leaves it: a case folder and a history line per case, with or without a time. */
    private static List<JsonNode> attempt(Path out, String sdk, Map<String, Long> playedMs) throws Exception {
        Path attempt = Files.createDirectories(out.resolve(sdk));
        List<JsonNode> records = new ArrayList<>();
        for (String id : List.of("01", "04", "h3")) {
            Path folder = Files.createDirectories(attempt.resolve("case-" + id));
            Files.writeString(folder.resolve("processes.json"), "{}");
            Long ms = playedMs.get(id);
            RunLog.append(attempt.resolve("history.jsonl"), folder, null, ms == null ? null : Duration.ofMillis(ms));
            records.add(record(id, id.equals("h3") ? "twenty_identical_continuations_at_once" : "case_" + id,
                    id.equals("04") ? "operation_conflict" : null));
        }
        return records;
    }

    @Test
    void eachCaseCarriesTheTimeItsHistoryRecordedAndThePageDrawsItAsABar(@TempDir Path out) throws Exception {
        Map<String, List<JsonNode>> bySdk = new LinkedHashMap<>();
        bySdk.put("java", attempt(out, "java", Map.of("01", 2_000L, "04", 500L, "h3", 4_000L)));
        bySdk.put("typescript", attempt(out, "typescript", Map.of("01", 1_000L)));
        JsonNode comparison = ReportFiles.write(out, bySdk, Map.of(), Map.of(), ExactJson.mapper().createObjectNode(), null);

        JsonNode first = comparison.path("cases").get(0);
        assertEquals(2_000, first.path("java").path("played_ms").asLong());
        assertEquals(1_000, first.path("typescript").path("played_ms").asLong());
        assertTrue(comparison.path("cases").get(1).path("typescript").path("played_ms").isMissingNode(),
                "no time recorded, none invented");

        String html = Files.readString(out.resolve("report.html"));
        assertEquals(3, html.split("<tr class=\"yes\" data-case=", -1).length - 1, "a row per case: " + html);
        List<Double> widths = new ArrayList<>();
        Matcher bar = BAR.matcher(html);
        while (bar.find()) {
            widths.add(Double.parseDouble(bar.group(1)));
        }
        assertEquals(List.of(50.0, 25.0, 12.5, 100.0), widths, "one scale for all bars, the longest case full width");
        assertEquals(2, html.split("not recorded", -1).length - 1, html);
        assertTrue(html.contains("<details><summary>1 refusal</summary><code>jsonrpc_error -32602: operation_conflict</code></details>"), html);
        assertTrue(html.contains("twenty_<wbr>identical_<wbr>continuations_<wbr>at_<wbr>once"), "names wrap between words");
        assertTrue(html.contains("<table class=\"fit cases\">"), "the case table keeps to the window's width");
        assertFalse(html.contains("<script") || html.contains("http://") || html.contains("https://") || html.contains("src="), html);
    }

    @Test
    void anOlderHistoryWithoutTimesGivesNoTimesAndNoError(@TempDir Path out) throws Exception {
        Map<String, List<JsonNode>> bySdk = new LinkedHashMap<>();
        bySdk.put("java", attempt(out, "java", Map.of()));
        Files.delete(out.resolve("java/history.jsonl"));
        JsonNode comparison = ReportFiles.write(out, bySdk, Map.of(), Map.of(), ExactJson.mapper().createObjectNode(), null);
        assertTrue(comparison.path("cases").get(0).path("java").path("played_ms").isMissingNode());
        assertTrue(Files.readString(out.resolve("report.html")).contains("not recorded"));
    }

    @Test
    void durationsReadAtAGlance() {
        assertEquals("850 ms", HtmlPage.duration(850));
        assertEquals("2.3 s", HtmlPage.duration(2_345));
    }
}
