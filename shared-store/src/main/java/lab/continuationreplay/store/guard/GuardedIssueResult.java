package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.store.ledger.OperationState;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The complete result of {@code create_guarded_issue}, keys in the seed's order; {@code state} is written as the ledger
 * stores it ({@code applied}, {@code partial}).
 */
@JsonPropertyOrder({"operationId", "effectId", "result", "replayed", "state"})
public record GuardedIssueResult(
        String operationId, long effectId, String result, boolean replayed, OperationState state) {
    public ObjectNode toJson() {
        return ExactJson.mapper().valueToTree(this);
    }
}
