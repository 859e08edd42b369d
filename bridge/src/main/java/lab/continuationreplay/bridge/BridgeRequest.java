package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One validated bridge request: the shapes are checked here, the guard rules later by the shared store. */
sealed interface BridgeRequest permits BridgeRequest.Apply, BridgeRequest.Status, BridgeRequest.Create {

    /** {@code op: apply}: the continuation of {@code create_guarded_issue}, its state already verified by the fixture. */
    record Apply(String operationId, String title, String mode, String body, ObjectNode state, ObjectNode responses)
            implements BridgeRequest {}

    /** {@code op: status}: {@code get_operation_status}. */
    record Status(String operationId) implements BridgeRequest {}

    /**
     * {@code op: create}: the unguarded control's {@code create_issue}, one new issue per call and no operation row, so
     * a benchmark can weigh the guard against the same SDK and the same bridge without it.
     */
    record Create(String title, String body, ObjectNode responses) implements BridgeRequest {}
}
