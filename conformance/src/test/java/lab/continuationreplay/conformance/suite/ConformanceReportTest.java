package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import lab.continuationreplay.history.Judgement;

class ConformanceReportTest {
    private static final Requirements REQUIREMENTS = Requirements.parse("2026-07-28", RequirementsTest.LISTING);
    private static final ExpectedFailures.Entry LISTED = new ExpectedFailures.Entry(Side.SERVER, "server-stateless", "the SDK <answers> 200",
            "io/x/Y.java:1", "docs/findings/y.md");

    private static ConformanceRun.Result result(Verdict typescriptToolsList) {
        ScenarioOutcome pass = new ScenarioOutcome("tools-list", Side.SERVER, Verdict.PASSED, 2, 0, 0, List.of(), "server-tools-list-t");
        ScenarioOutcome other = new ScenarioOutcome("tools-list", Side.SERVER, typescriptToolsList, 1,
                typescriptToolsList == Verdict.FAILED ? 1 : 0, 0, typescriptToolsList == Verdict.FAILED ? List.of("tools-list: no tools") : List.of(),
                "server-tools-list-t");
        ScenarioOutcome stateless = new ScenarioOutcome("server-stateless", Side.SERVER, Verdict.FAILED, 0, 1, 0, List.of("s: 200"), "f");
        List<ConformanceRun.Row> rows = List.of(
                new ConformanceRun.Row(Side.SERVER, "java", "tools-list", pass, Judgement.PASS, Optional.empty()),
                new ConformanceRun.Row(Side.SERVER, "java", "server-stateless", stateless, Judgement.EXPECTED_FAILURE, Optional.of(LISTED)),
                new ConformanceRun.Row(Side.SERVER, "typescript", "tools-list", other, ExpectedFailures.judge(typescriptToolsList, Optional.empty()),
                        Optional.empty()));
        List<ConformanceRun.Subject> subjects = List.of(new ConformanceRun.Subject(Side.SERVER, "java", 1500, 1, ""),
                new ConformanceRun.Subject(Side.SERVER, "typescript", 900, 1, ""));
        return new ConformanceRun.Result(REQUIREMENTS, subjects, rows, List.of(new ConformanceRun.Unscored(Side.SERVER, "java",
                "tasks-lifecycle", "extension", ScenarioOutcome.notRun("tasks-lifecycle", Side.SERVER, "x"))), List.of());
    }

    @Test
    void theJsonHasEveryScoredScenarioSideBySideWithTheExpectedFailuresReasonAndTheCounts() {
        JsonNode json = ConformanceReport.json(result(Verdict.PASSED), "v22.23.3");
        assertEquals("conformance/1", json.path("format").asText());
        assertEquals("0.2.0-alpha.12", json.path("suite").path("version").asText());
        assertTrue(json.path("passed").asBoolean());
        JsonNode java = json.path("subjects").get(0);
        assertEquals(3, java.path("scored").asInt());
        assertEquals(1, java.path("pass").asInt());
        assertEquals(1, java.path("expected_failure").asInt());
        JsonNode stateless = json.path("scenarios").get(0);
        assertEquals("server-stateless", stateless.path("scenario").asText());
        assertEquals("docs/findings/y.md", stateless.path("results").path("java").path("expected_failure").path("finding").asText());
        JsonNode toolsList = json.path("scenarios").get(1).path("results");
        assertEquals("pass", toolsList.path("typescript").path("judgement").asText());
        assertEquals("server-java/suite/server-tools-list-t", toolsList.path("java").path("folder").asText());
        assertEquals("extension", json.path("unscored").get(0).path("why").asText());
    }

    @Test
    void anUnexpectedFailureIsNamedInTheSummaryAndFailsTheRun() {
        ConformanceRun.Result failed = result(Verdict.FAILED);
        assertFalse(failed.ok());
        List<String> summary = ConformanceReport.summary(failed);
        assertEquals("server java        3 scored: 1 pass, 1 expected failure(s), 0 unexpected (1.5 s)", summary.get(0));
        assertEquals("server typescript  3 scored: 0 pass, 0 expected failure(s), 1 unexpected (0.9 s)", summary.get(1));
        assertEquals("  server typescript tools-list: FAIL — tools-list: no tools", summary.get(2));
        assertEquals("conformance unexpected results (above); see CONFORMANCE.md", summary.get(3));
    }

    @Test
    void theMarkdownAndTheHtmlShowTheSameCellsAndTheHtmlEscapesText() {
        ConformanceRun.Result result = result(Verdict.PASSED);
        String md = ConformanceReport.markdown(result);
        assertTrue(md.contains("| `tools-list` | pass (2/2) | pass (1/1) |"), md);
        assertTrue(md.contains("| `server-stateless` | expected failure (0/1) | – |"), md);
        String html = ConformanceReport.html(result);
        assertTrue(html.contains("<section id=\"conformance-server\">"), html);
        assertTrue(html.contains("<td class=\"expected\">expected failure (0/1)</td>"), html);
        assertFalse(html.contains("<answers>"), "text from a file is escaped");
        assertTrue(md.contains("the SDK <answers> 200"), md);
    }
}
