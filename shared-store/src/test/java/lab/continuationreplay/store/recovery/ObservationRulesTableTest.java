package lab.continuationreplay.store.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The recovery rules a client applies to a status read-back, held to the shared table
 * {@code vectors/rules/status-observation.json}; the checker's own reading of a status is held to the same table
 * ({@code StatusReadingTest}), so the judge and the judged cannot share a bug unseen.
 */
class ObservationRulesTableTest {
    private static final RuleTable TABLE = RuleTable.load("status-observation.json");

    static List<RuleTable.Case> cases() {
        return TABLE.cases(RuleTable.JAVA);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSharedTable(RuleTable.Case rule) {
        JsonNode id = TABLE.member("identity");
        OperationIdentity identity = new OperationIdentity(id.path("operationId").asText(), id.path("principal").asText(),
                id.path("backend").asText());
        JsonNode status = RuleTable.onBase(TABLE.member("base"), rule.row());
        String verdict;
        try {
            EffectObservation observation = WireObservation.parse(status, identity);
            RecoveryState state = new ContinuationConsumer(identity).reconcile(asked -> observation);
            verdict = "{\"effect\":\"" + state.effect().wire() + "\",\"action\":\"" + state.action().wire() + "\"}";
        } catch (Exception refused) {
            verdict = "{\"error\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(refused.getMessage()) + "}";
        }
        assertEquals(rule.expected(), lab.continuationreplay.vectors.ExactJson.parse(verdict), rule.name());
    }
}
