package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The five components a fingerprint binds (seed spec §2.1). {@code principal} may be null; a missing opaque field
 * binds as JSON null.
 */
public record LogicalRequest(
        String principal,
        String toolId,
        String toolVersion,
        ObjectNode arguments,
        JsonNode continuationState,
        JsonNode inputResponses) {

    public LogicalRequest {
        Objects.requireNonNull(toolId, "toolId");
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(arguments, "arguments");
        continuationState = continuationState == null ? NullNode.getInstance() : continuationState;
        inputResponses = inputResponses == null ? NullNode.getInstance() : inputResponses;
    }
}
