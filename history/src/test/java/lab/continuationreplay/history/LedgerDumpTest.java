package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader of a PostgreSQL ledger's row dump: the checker's queries run on it as on a file, and nothing malformed loads. */
class LedgerDumpTest {
    private static final String GOOD = """
            {"format":"ledger-rows/1","source":"postgresql","tables":{
              "issues":{"columns":[["id","integer"],["title","text"],["body","text"]],"rows":[[1,"t","b"],[2,"t2",null]]},
              "operations":{"columns":[["operation_id","text"],["issued_at","real"],["effect_id","integer"]],
                "rows":[["op",1790035200.0,1],["op2",null,null]]}}}""";

    @TempDir
    Path dir;

    private Path dump(String text) throws Exception {
        return Files.writeString(dir.resolve(Layout.LEDGER_DUMP), text);
    }

    @Test
    void theCheckersQueriesRunOnADumpAsOnAFile() throws Exception {
        Path dump = dump(GOOD);
        assertEquals(2, StoreRows.count(dump, "issues"));
        assertEquals(List.of(Map.of("id", 2, "title", "t2")), StoreRows.rows(dump,
                "SELECT id, title FROM issues WHERE body IS NULL"));
        assertEquals(List.of(Map.of("issued_at", 1790035200.0, "effect_id", 1)), StoreRows.rows(dump,
                "SELECT issued_at, effect_id FROM operations WHERE operation_id = ?", "op"));
        assertEquals(0, StoreRows.count(dump, "issues WHERE id > 2"));
    }

    @Test
    void theCaseFolderNamesTheDumpWhenThereIsOneAndTheFileOtherwise() throws Exception {
        assertEquals(dir.resolve(Layout.DATABASE), Layout.ledgerEvidence(dir));
        dump(GOOD);
        assertEquals(dir.resolve(Layout.LEDGER_DUMP), Layout.ledgerEvidence(dir));
    }

    @Test
    void everyMalformedDumpIsRefusedWithWhatIsWrong() throws Exception {
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put("{\"format\":\"ledger-rows/2\",\"tables\":{}}", "is not one this checker reads");
        refusals.put("not json", "cannot read the ledger dump");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":[]}", "\"tables\" is not an object");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"x; DROP\":{\"columns\":[[\"a\",\"text\"]],\"rows\":[]}}}",
                "a table name that is not a plain identifier");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[[\"a\",\"blob\"]],\"rows\":[]}}}",
                "a column is not [plain name, integer|real|text] or is repeated");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[[\"a\",\"text\"],[\"a\",\"text\"]],\"rows\":[]}}}",
                "a column is not [plain name, integer|real|text] or is repeated");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[],\"rows\":[]}}}", "has no columns or no rows array");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[[\"a\",\"text\"]],\"rows\":[[\"x\",\"y\"]]}}}",
                "table t: row 1 does not have 1 values");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[[\"a\",\"integer\"]],\"rows\":[[1.5]]}}}",
                "table t: row 1, a is not integer");
        refusals.put("{\"format\":\"ledger-rows/1\",\"tables\":{\"t\":{\"columns\":[[\"a\",\"text\"]],\"rows\":[[1]]}}}",
                "table t: row 1, a is not text");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            Path dump = dump(refusal.getKey());
            SQLException refused = assertThrows(SQLException.class, () -> StoreRows.count(dump, "t"), refusal.getKey());
            assertTrue(refused.getMessage().contains(refusal.getValue()), refusal.getKey() + " -> " + refused.getMessage());
        }
    }
}
