package lab.continuationreplay.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import java.util.Map;

/** A complete tool result: the structured object, and the same object as compact JSON text for text-only clients. */
final class ToolResults {
    static final Map<String, Object> BODY_SCHEMA = Map.of(
            "type", "object",
            "properties", Map.of("body", Map.of("type", "string")),
            "required", java.util.List.of("body"));

    private ToolResults() {}

    static McpSyncResponse<McpSchema.CallToolOutcome> complete(ObjectNode structured) {
        return McpSyncResponse.result(McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(structured.toString()).build())
                .structuredContent(structured)
                .isError(false)
                .build());
    }

    /** First round: ask for the issue body, carrying the sealed state. */
    static McpSyncResponse<McpSchema.CallToolOutcome> askForBody(String title, String requestState) {
        return McpSyncResponse.result(McpSchema.InputRequiredResult.builder()
                .elicit("body", McpSchema.ElicitFormRequest.builder("Body for " + title + "?", BODY_SCHEMA).build())
                .requestState(requestState)
                .build());
    }

    static McpSchema.ClientCapabilities formElicitation() {
        return new McpSchema.ClientCapabilities.Builder()
                .elicitation(new McpSchema.ClientCapabilities.Elicitation(new McpSchema.ClientCapabilities.Elicitation.Form(), null))
                .build();
    }
}
