package lab.continuationreplay.server.conformance;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.server.wire.WireErrors;

/** The suite's prompt fixtures, and completion of {@code test_prompt_with_arguments}'s arguments. */
final class FixturePrompts {
    /** What {@code arg1} and {@code arg2} complete from (scenario {@code completion-complete}). */
    private static final List<String> SUGGESTIONS = List.of("hello", "help", "paris", "park", "party", "test", "world");

    private FixturePrompts() {}

    static PromptsFeature feature(McpJsonMapper mapper, McpSyncPrompt.Handler inputRequiredPrompt) {
        Map<String, McpSyncPrompt> prompts = new LinkedHashMap<>();
        add(prompts, McpSyncPrompt.of(prompt("test_simple_prompt", "A prompt without arguments.", List.of()),
                (context, request) -> messages(message(ContentFixtures.text("This is a simple prompt for testing.")))));
        add(prompts, McpSyncPrompt.of(prompt("test_prompt_with_arguments", "A prompt with two required arguments.",
                List.of(argument("arg1", "First test argument"), argument("arg2", "Second test argument"))),
                FixturePrompts::withArguments).withCompletionHandler(FixturePrompts::complete));
        add(prompts, McpSyncPrompt.of(prompt("test_prompt_with_embedded_resource", "A prompt embedding a resource.",
                List.of(argument("resourceUri", "URI of the resource to embed"))),
                FixturePrompts::withEmbeddedResource));
        add(prompts, McpSyncPrompt.of(prompt("test_prompt_with_image", "A prompt with an image.", List.of()),
                (context, request) -> messages(
                        message(new McpSchema.ImageContent(null, Media.PNG_BASE64, "image/png", null)),
                        message(ContentFixtures.text("Please analyze the image above.")))));
        add(prompts, McpSyncPrompt.of(prompt(MrtrFixture.PROMPT.fixtureName,
                "Asks for context with input_required and a sealed requestState.", List.of()), inputRequiredPrompt));
        McpSyncPromptRepository repository = new McpSyncPromptRepository() {
            @Override
            public PromptsPage list(McpRequestContext context, String cursor) {
                return PromptsPage.of(prompts.values().stream().map(McpSyncPrompt::definition).toList());
            }

            @Override
            public McpSyncPrompt find(McpRequestContext context, String name) {
                return prompts.get(name);
            }

            @Override
            public boolean supportsCompletion() {
                return true;
            }
        };
        // Lists are the same for every principal, but nothing is gained by letting a shared cache keep them.
        return PromptsFeature.ofSync(repository, mapper, 0, McpSchema.CacheScope.PRIVATE);
    }

    private static McpSyncResponse<McpSchema.GetPromptOutcome> withArguments(McpRequestContext context,
            McpSchema.GetPromptRequest request) {
        String arg1 = required(request, "arg1");
        String arg2 = required(request, "arg2");
        return messages(message(ContentFixtures.text("Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'")));
    }

    private static McpSyncResponse<McpSchema.GetPromptOutcome> withEmbeddedResource(McpRequestContext context,
            McpSchema.GetPromptRequest request) {
        String uri = required(request, "resourceUri");
        return messages(
                message(new McpSchema.EmbeddedResource(null,
                        new McpSchema.TextResourceContents(uri, "text/plain", "Embedded resource content for testing.", null),
                        null)),
                message(ContentFixtures.text("Please process the embedded resource above.")));
    }

    private static McpSchema.CompleteResult complete(McpRequestContext context, McpSchema.CompleteRequest request) {
        String prefix = request.argument() == null || request.argument().value() == null ? "" : request.argument().value();
        List<String> values = SUGGESTIONS.stream().filter(value -> value.startsWith(prefix)).toList();
        return McpSchema.CompleteResult.of(new McpSchema.CompleteResult.Completion(values, values.size(), false));
    }

    private static String required(McpSchema.GetPromptRequest request, String name) {
        String value = request.arguments() == null ? null : request.arguments().get(name);
        if (value == null) {
            throw new McpException(WireErrors.INVALID_PARAMS, "Missing required argument: " + name);
        }
        return value;
    }

    private static void add(Map<String, McpSyncPrompt> prompts, McpSyncPrompt prompt) {
        prompts.put(prompt.definition().name(), prompt);
    }

    private static McpSchema.Prompt prompt(String name, String description, List<McpSchema.PromptArgument> arguments) {
        McpSchema.Prompt.Builder builder = McpSchema.Prompt.builder(name).description("Conformance fixture: " + description);
        return arguments.isEmpty() ? builder.build() : builder.arguments(arguments).build();
    }

    private static McpSchema.PromptArgument argument(String name, String description) {
        return McpSchema.PromptArgument.builder(name).description(description).required(true).build();
    }

    private static McpSchema.PromptMessage message(McpSchema.Content content) {
        return new McpSchema.PromptMessage(McpSchema.Role.USER, content);
    }

    private static McpSyncResponse<McpSchema.GetPromptOutcome> messages(McpSchema.PromptMessage... messages) {
        return McpSyncResponse.result(McpSchema.GetPromptResult.builder(List.of(messages)).build());
    }
}
