package lab.continuationreplay.matrix.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.vectors.VectorComparison;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/** The report page's vector table: one column per language the comparison holds, the disagreeing ones named. */
class ComparisonHtmlVectorsTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    private static ObjectNode comparison() {
        ObjectNode comparison = ExactJson.mapper().createObjectNode();
        comparison.putArray("sdks").add("java");
        return comparison;
    }

    @Test
    void fourLanguagesAreFourColumnsAndADisagreementNamesItsLanguage() {
        Map<String, String> digests = new LinkedHashMap<>();
        digests.put("java", A);
        digests.put("typescript", A);
        digests.put("python", B);
        digests.put("go", A);
        VectorComparison.Report report = new VectorComparison.Report("test key", List.of("java", "typescript", "python", "go"),
                List.of(new VectorComparison.Row("v1", A, digests)), List.of(), Map.of(), Map.of());
        JsonNode vectors = ExactJson.mapper().valueToTree(report);
        assertEquals(B, vectors.path("rows").get(0).path("python").textValue(), "each language is a member of its row");
        String page = ComparisonHtml.render(comparison(), vectors);
        assertTrue(page.contains("<tr><th>vector</th><th>java</th><th>typescript</th><th>python</th><th>go</th><th>agree</th></tr>"), page);
        assertTrue(page.contains("<td>NO: python</td>"), page);
    }

    @Test
    void aComparisonWrittenBeforeTheFourColumnsStillShowsJavaAndTypeScript() {
        ObjectNode vectors = ExactJson.mapper().createObjectNode();
        vectors.putArray("rows").addObject().put("name", "v1").put("java", A).put("typescript", A).put("agree", true);
        String page = ComparisonHtml.render(comparison(), vectors);
        assertTrue(page.contains("<tr><th>vector</th><th>java</th><th>typescript</th><th>agree</th></tr>"), page);
        assertTrue(page.contains("<td>yes</td></tr>"), page);
    }
}
