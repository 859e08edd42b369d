package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The checker's reading of a status reply, held to the table the ledger's client rules are held to. */
class StatusReadingTest {
    private static final RuleTable TABLE = RuleTable.load("status-observation.json");

    static List<RuleTable.Case> cases() {
        return TABLE.cases(RuleTable.JAVA);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSharedTable(RuleTable.Case rule) {
        JsonNode id = TABLE.member("identity");
        StatusReading.Identity attempt = new StatusReading.Identity(id.path("operationId").asText(), id.path("principal").asText(),
                id.path("backend").asText());
        ObjectNode verdict = JsonNodeFactory.instance.objectNode();
        try {
            StatusReading.Settled settled = StatusReading.read(RuleTable.onBase(TABLE.member("base"), rule.row()), attempt);
            verdict.put("effect", settled.effect()).put("action", settled.action());
        } catch (IllegalArgumentException refused) {
            verdict.put("error", refused.getMessage());
        }
        assertEquals(rule.expected(), verdict, rule.name());
    }
}
