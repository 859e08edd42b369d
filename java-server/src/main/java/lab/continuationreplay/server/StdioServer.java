package lab.continuationreplay.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.util.List;
import lab.continuationreplay.server.frames.Answers;
import lab.continuationreplay.server.frames.FrameGate;
import lab.continuationreplay.server.frames.StdoutLines;
import lab.continuationreplay.server.wire.FrozenStateErrors;
import lab.continuationreplay.server.wire.PassThroughStateCodec;

/** Runs tools as a 2026-07-28 stdio server on the SDK's modern stack until stdin closes; {@code wire} is stdout. */
final class StdioServer {
    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());
    /** The longest a closed stdin waits for replies still being computed. */
    static final java.time.Duration DRAIN_LIMIT = java.time.Duration.ofSeconds(30);

    private StdioServer() {}

    static void serve(String name, List<McpSyncTool> tools, java.io.OutputStream wire) {
        McpServer server = server(name, tools);
        Activity activity = new Activity();
        // Each request the gate passes, until its reply is out: at the end of stdin an exact reason to stop waiting.
        Answers answers = new Answers(activity::moved);
        activity.settledWhen(answers::allAnswered);
        // One stdout for the SDK's replies and the gate's refusals: whole lines, one at a time.
        StdoutLines stdout = new StdoutLines(DrainingStdio.output(wire, activity), answers);
        // Only JSON-RPC 2.0 text reaches the SDK; the gate answers the rest (FrameGate).
        FrameGate stdin = new FrameGate(DrainingStdio.input(System.in, activity, DRAIN_LIMIT), MAPPER, stdout, answers);
        StdioMcpTransport transport = new StdioMcpTransport(new InFlightRequests(new FrozenStateErrors(server), activity),
                MAPPER, stdin, stdout.writer());
        // block(): the transport's reader threads are daemons; without it the JVM would exit at once.
        transport.start().block();
    }

    /** The tools on the SDK's modern server; the same server behind stdio and HTTP. */
    static McpServer server(String name, List<McpSyncTool> tools) {
        return server(name, tools, List.of());
    }

    /** The same, with more features beside the tools (the conformance profile's prompts and resources). */
    static McpServer server(String name, List<McpSyncTool> tools, List<McpFeature> features) {
        McpSyncToolRepository repository = new McpSyncToolRepository() {
            @Override
            public ToolsPage list(io.modelcontextprotocol.modern.server.McpRequestContext context, String cursor) {
                return ToolsPage.of(tools.stream().map(McpSyncTool::definition).toList());
            }

            @Override
            public McpSyncTool find(io.modelcontextprotocol.modern.server.McpRequestContext context, String tool) {
                return tools.stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElse(null);
            }
        };
        McpServer.Builder builder = McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder(name, "0.1.0").build())
                .jsonMapper(MAPPER)
                .requestStateCodec(new PassThroughStateCodec())
                .feature(ToolsFeature.ofSync(repository));
        if (!features.isEmpty()) {
            builder.features(features);
        }
        return builder.build();
    }
}
