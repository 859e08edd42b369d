package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.vectors.ExactJson;

/** The complete result of {@code create_guarded_issue}, keys in the seed's order. */
@JsonPropertyOrder({"operationId", "effectId", "result", "replayed", "state"})
public record GuardedIssueResult(String operationId, long effectId, String result, boolean replayed, String state) {
    public ObjectNode toJson() {
        return ExactJson.mapper().valueToTree(this);
    }
}
