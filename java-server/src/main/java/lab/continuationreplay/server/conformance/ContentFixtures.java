package lab.continuationreplay.server.conformance;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.util.List;

/** The suite's single-round tool fixtures: fixed content of each type, an error result, progress, a capability. */
final class ContentFixtures {
    private ContentFixtures() {}

    static List<McpSyncTool> tools(McpJsonMapper mapper) {
        return List.of(
                fixed(mapper, "test_simple_text", "Returns one text item.",
                        text("This is a simple text response for testing.")),
                fixed(mapper, "test_image_content", "Returns one PNG image.",
                        new McpSchema.ImageContent(null, Media.PNG_BASE64, "image/png", null)),
                fixed(mapper, "test_audio_content", "Returns one WAV clip.",
                        new McpSchema.AudioContent(null, Media.WAV_BASE64, "audio/wav", null)),
                fixed(mapper, "test_embedded_resource", "Returns one embedded text resource.",
                        new McpSchema.EmbeddedResource(null, new McpSchema.TextResourceContents(
                                "test://embedded-resource", "text/plain", "This is an embedded resource content.", null),
                                null)),
                fixed(mapper, "test_multiple_content_types", "Returns text, an image and an embedded resource.",
                        text("Multiple content types test:"),
                        new McpSchema.ImageContent(null, Media.PNG_BASE64, "image/png", null),
                        new McpSchema.EmbeddedResource(null, new McpSchema.TextResourceContents(
                                "test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}",
                                null), null)),
                McpSyncTool.of(tool(mapper, "test_error_handling", "Always returns an error result."),
                        (context, request) -> McpSyncResponse.result(McpSchema.CallToolResult.builder()
                                .addContent(text("This tool intentionally returns an error for testing"))
                                .isError(true)
                                .build())),
                McpSyncTool.of(tool(mapper, "test_tool_with_progress", "Reports progress 0, 50 and 100 of 100."),
                        (context, request) -> McpSyncResponse.streaming(notifier -> {
                            for (int step = 0; step <= 100; step += 50) {
                                if (step > 0) {
                                    pause();
                                }
                                notifier.progress(step, 100.0, "step " + step);
                            }
                            return result(text("Progress reported: 0, 50, 100 of 100."));
                        })),
                // Logs nothing: the client never asks for a log level (io.modelcontextprotocol/logLevel), and a server
                // must not send log messages it was not asked for.
                fixed(mapper, "test_logging_tool", "Completes without logging unless a log level was requested.",
                        text("Done; nothing was logged.")),
                // The SDK refuses the call with -32021 before the handler runs when the client did not declare sampling.
                McpSyncTool.of(tool(mapper, "test_missing_capability", "Requires the client's sampling capability."),
                        McpSchema.ClientCapabilities.builder().sampling().build(),
                        (context, request) -> McpSyncResponse.result(result(text("The client declared sampling.")))));
    }

    private static McpSyncTool fixed(McpJsonMapper mapper, String name, String description, McpSchema.Content... content) {
        return McpSyncTool.of(tool(mapper, name, description), (context, request) -> McpSyncResponse.result(result(content)));
    }

    private static McpSchema.Tool tool(McpJsonMapper mapper, String name, String description) {
        return McpSchema.Tool.builder(name, mapper, Fixtures.NO_ARGUMENTS_SCHEMA).description("Conformance fixture: " + description)
                .build();
    }

    private static McpSchema.CallToolResult result(McpSchema.Content... content) {
        return McpSchema.CallToolResult.builder().content(List.of(content)).build();
    }

    static McpSchema.TextContent text(String text) {
        return McpSchema.TextContent.builder(text).build();
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
