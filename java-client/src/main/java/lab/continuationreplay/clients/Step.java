package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One validated step. Members an op does not carry are null; {@code inner} is empty except for {@code parallel}.
 * JSON objects stay Jackson trees so that what is sent is exactly what the script gave.
 */
public record Step(
        StepId id,
        Op op,
        String connection,
        String server,
        String tool,
        ObjectNode arguments,
        ObjectNode answer,
        ObjectNode inputResponses,
        String state,
        StateTransform stateTransform,
        String saveState,
        String operationId,
        List<Step> inner) {

    public Step {
        inner = List.copyOf(inner);
    }
}
