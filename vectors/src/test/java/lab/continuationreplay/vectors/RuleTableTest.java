package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The reader of the shared rule tables; {@code ts-fixture/test/rule-table.test.ts} checks its TypeScript twin alike. */
class RuleTableTest {
    private static List<RuleTable.Case> cases(String casesJson, String language) {
        return new RuleTable(Path.of("t.json"), ExactJson.parse("{\"cases\":" + casesJson + "}")).cases(language);
    }

    private static void refused(String casesJson, String message) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> cases(casesJson, RuleTable.JAVA));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void everySharedTableWithCasesReadsInBothLanguages() throws IOException {
        Path rules = RuleTable.load("stdio-jvm-options.json").file().getParent();
        List<Path> tables;
        try (Stream<Path> files = Files.list(rules)) {
            tables = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        int withCases = 0;
        for (Path table : tables) {
            if (ExactJson.parse(Files.readString(table)).has("format")) {
                continue; // a table with a format of its own has its own reader and tests (client-script-rules, tool-table)
            }
            RuleTable read = RuleTable.load(table.getFileName().toString());
            if (read.root().has("cases")) {
                withCases++;
                assertEquals(read.cases(RuleTable.JAVA).size(), read.cases(RuleTable.TYPESCRIPT).size(), table.toString());
                assertTrue(read.root().path("rule").isTextual(), table + " states its rule");
            }
        }
        assertTrue(withCases > 0, "no table with cases in " + rules);
    }

    @Test
    void aCommonVerdictIsEachLanguagesAndADifferenceIsPicked() {
        String json = "[{\"name\":\"same\",\"expect\":1},"
                + "{\"name\":\"differs\",\"expect_by_language\":{\"java\":2,\"typescript\":3},\"difference\":\"why\"}]";
        List<RuleTable.Case> java = cases(json, RuleTable.JAVA);
        List<RuleTable.Case> typeScript = cases(json, RuleTable.TYPESCRIPT);
        assertEquals(1, java.get(0).expected().intValue());
        assertEquals(1, typeScript.get(0).expected().intValue());
        assertEquals(2, java.get(1).expected().intValue());
        assertEquals(3, typeScript.get(1).expected().intValue());
        assertEquals("why", java.get(1).difference());
    }

    @Test
    void placeholdersExpandEverywhereButInTheirDefinition() {
        RuleTable.Case only = cases("[{\"name\":\"long\",\"expand\":{\"@x3\":{\"repeat\":\"ab\",\"times\":3}},"
                + "\"input\":{\"a\":[\"@x3\",\"@x3 \"]},\"expect\":{\"value\":\"@x3\"}}]", RuleTable.JAVA).get(0);
        assertEquals(ExactJson.parse("{\"a\":[\"ababab\",\"@x3 \"]}"), only.row().get("input"));
        assertEquals("ababab", only.expected().get("value").textValue());
        assertEquals("@x3", only.row().get("expand").fieldNames().next());
    }

    @Test
    void aMalformedCaseFailsTheTable() {
        refused("[]", "non-empty");
        refused("[{\"expect\":1}]", "a name of its own");
        refused("[{\"name\":\"a\",\"expect\":1},{\"name\":\"a\",\"expect\":1}]", "a name of its own");
        refused("[{\"name\":\"a\"}]", "exactly one of");
        refused("[{\"name\":\"a\",\"expect\":1,\"expect_by_language\":{\"java\":1,\"typescript\":2},\"difference\":\"d\"}]",
                "exactly one of");
        refused("[{\"name\":\"a\",\"expect\":1,\"difference\":\"d\"}]", "a difference but one verdict");
        refused("[{\"name\":\"a\",\"expect_by_language\":{\"java\":1},\"difference\":\"d\"}]", "a java and a typescript");
        refused("[{\"name\":\"a\",\"expect_by_language\":{\"java\":1,\"typescript\":2,\"python\":3},\"difference\":\"d\"}]",
                "a java and a typescript");
        refused("[{\"name\":\"a\",\"expect_by_language\":{\"java\":1,\"typescript\":1},\"difference\":\"d\"}]", "use expect");
        refused("[{\"name\":\"a\",\"expect_by_language\":{\"java\":1,\"typescript\":2}}]", "why the languages differ");
        refused("[{\"name\":\"a\",\"expect_by_language\":{\"java\":1,\"typescript\":2},\"difference\":\" \"}]",
                "why the languages differ");
    }

    @Test
    void theTablesAreFoundFromTheRepository() {
        RuleTable table = RuleTable.load("stdio-jvm-options.json");
        assertTrue(Files.isRegularFile(table.file()));
        assertFalse(table.member("options").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> table.cases("python"));
    }
}
