package lab.continuationreplay.matrix.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class ResultTableTest {
    @Test
    void shortNamesKeepTwelveColumnsAndALongNameNeverRunsIntoTheNext() throws Exception {
        String row = "\"case_id\":\"01\",\"name\":\"identical_retry\",\"agree\":true";
        String shortNames = ResultTable.render(ExactJson.parse("{\"sdks\":[\"java\",\"go\"],\"cases\":[{" + row
                + ",\"java\":{\"status\":\"pass\"},\"go\":{\"status\":\"pass\"}}]}"));
        assertEquals(String.format("%-46s%-12s%-12sagree%n%-46s%-12s%-12syes%n", "case", "java", "go", "01 identical_retry", "pass", "pass")
                .replace(System.lineSeparator(), "\n"), shortNames);
        String longNames = ResultTable.render(ExactJson.parse("{\"sdks\":[\"typescript-http\",\"go-http\"],\"cases\":[{" + row
                + ",\"typescript-http\":{\"status\":\"pass\"},\"go-http\":{\"status\":\"pass\"}}]}"));
        assertEquals(String.format("%-46s%-16s%-16sagree%n%-46s%-16s%-16syes%n", "case", "typescript-http", "go-http", "01 identical_retry",
                "pass", "pass").replace(System.lineSeparator(), "\n"), longNames);
    }
}
