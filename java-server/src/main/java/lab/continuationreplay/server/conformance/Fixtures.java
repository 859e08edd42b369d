package lab.continuationreplay.server.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.server.tools.CallContext;
import lab.continuationreplay.server.wire.WireErrors;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The official conformance suite's fixtures (tools, prompts, resources), served beside the guarded tools when the
 * server runs with {@code --conformance}. Names, keys and texts are the ones the suite's scenarios ask for.
 */
public final class Fixtures {
    static final String NO_ARGUMENTS_SCHEMA = "{\"type\":\"object\",\"properties\":{}}";

    private final MultiRound rounds;
    private final CallContext calls;
    private final McpJsonMapper mapper;

    public Fixtures(FixtureStates states, CallContext calls, McpJsonMapper mapper) {
        this.rounds = new MultiRound(states);
        this.calls = calls;
        this.mapper = mapper;
    }

    public List<McpSyncTool> tools() {
        List<McpSyncTool> tools = new ArrayList<>(ContentFixtures.tools(mapper));
        for (MrtrFixture fixture : MrtrFixture.values()) {
            if (fixture.method == FixtureCall.Method.TOOLS_CALL) {
                McpSchema.Tool tool = McpSchema.Tool.builder(fixture.fixtureName, mapper, NO_ARGUMENTS_SCHEMA)
                        .description("Conformance fixture: asks for input with input_required and a sealed requestState.")
                        .build();
                tools.add(McpSyncTool.of(tool, (context, request) -> toolRound(fixture, context, request)));
            }
        }
        return tools;
    }

    public List<McpFeature> features() {
        return List.of(FixturePrompts.feature(mapper, this::promptRound), FixtureResources.feature(mapper));
    }

    private McpSyncResponse<McpSchema.CallToolOutcome> toolRound(MrtrFixture fixture, McpRequestContext context,
            McpSchema.CallToolRequest request) {
        FixtureCall call = new FixtureCall(fixture.method, fixture.fixtureName, arguments(request.arguments()),
                calls.principal(context));
        MultiRound.Step step = rounds.run(fixture, call, context.clientCapabilities(), request.inputResponses(),
                request.requestState());
        if (step instanceof MultiRound.Step.Needs needs) {
            return McpSyncResponse.result(inputRequired(needs));
        }
        return McpSyncResponse.result(McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(((MultiRound.Step.Done) step).text()).build())
                .build());
    }

    private McpSyncResponse<McpSchema.GetPromptOutcome> promptRound(McpRequestContext context,
            McpSchema.GetPromptRequest request) {
        MrtrFixture fixture = MrtrFixture.PROMPT;
        FixtureCall call = new FixtureCall(fixture.method, fixture.fixtureName, arguments(request.arguments()),
                calls.principal(context));
        MultiRound.Step step = rounds.run(fixture, call, context.clientCapabilities(), request.inputResponses(),
                request.requestState());
        if (step instanceof MultiRound.Step.Needs needs) {
            return McpSyncResponse.result(inputRequired(needs));
        }
        return McpSyncResponse.result(McpSchema.GetPromptResult.builder(List.of(new McpSchema.PromptMessage(
                McpSchema.Role.USER, McpSchema.TextContent.builder(((MultiRound.Step.Done) step).text()).build())))
                .build());
    }

    private static McpSchema.InputRequiredResult inputRequired(MultiRound.Step.Needs needs) {
        return new McpSchema.InputRequiredResult(needs.requests(), needs.requestState(),
                McpSchema.ResultType.INPUT_REQUIRED, null);
    }

    /**
     * The arguments a state is bound to. Absent arguments and {@code {}} are the same call; arguments that have no
     * canonical form (a fraction, a lone surrogate) are refused, since no state could be bound to them.
     */
    static JsonNode arguments(Map<String, ?> arguments) {
        JsonNode node = arguments == null ? JsonNodeFactory.instance.objectNode() : ExactJson.mapper().valueToTree(arguments);
        try {
            CanonicalJson.canonical(node);
        } catch (IllegalArgumentException e) {
            throw new McpException(WireErrors.INVALID_PARAMS, "arguments have no canonical JSON form");
        }
        return node;
    }
}
