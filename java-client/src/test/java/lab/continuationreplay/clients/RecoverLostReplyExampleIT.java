package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.McpSyncClient.ToolSpec;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Java example of docs/recovering-a-lost-reply.md, run against both guarded servers as real processes: the first
 * server commits and exits before it replies (WIRE_FAULT=drop-after-commit), the second is a restart on the same
 * database.
 * The region between the snippet markers is the page's code block, word for word (RecoveryDocsTest checks that).
 */
class RecoverLostReplyExampleIT {
    @TempDir
    Path dir;

    private final List<StdioMcpClientTransport> transports = new ArrayList<>();

    @AfterEach
    void closeServers() {
        transports.forEach(StdioMcpClientTransport::close);
    }

    @ParameterizedTest
    @EnumSource(GuardedServer.class)
    void aLostCommitIsSettledByStatusAndAnExactReplayWithOneIssue(GuardedServer kind) throws Exception {
        Path db = dir.resolve("store.sqlite3");
        // The application's "start the server again": the first start crashes after its commit, later ones do not.
        List<String> faults = new ArrayList<>(List.of("drop-after-commit"));
        Supplier<McpSyncClient> connect = () -> {
            String fault = faults.isEmpty() ? null : faults.remove(0);
            return connect(server(kind, db, fault));
        };
        Map<String, Object> arguments = Map.of("operation_id", "issue-42", "title", "Printer on fire", "mode", "atomic");

        Example.Recovered recovered = Example.createIssue(connect, arguments, "alpha");

        assertTrue(recovered.replyLost(), "the first server exits after its commit: the reply must be lost");
        assertEquals("applied", recovered.status().get("state"));
        assertEquals("created 1", recovered.status().get("storedResult"));
        assertEquals(true, recovered.issue().get("replayed"));
        assertEquals("created 1", recovered.issue().get("result"));
        assertEquals(1, GuardedServer.issueRows(db), "one issue, however the reply went");
    }

    /**
     * Without a lost reply the commit answers directly; then the same operation id with another answer is refused,
     * thrown by the SDK (McpException) from the Java server, thrown by accepted() for the fixture's isError result.
     */
    @ParameterizedTest
    @EnumSource(GuardedServer.class)
    void withoutALostReplyTheCommitAnswersDirectlyAndAGuardRefusalReachesTheCallerAsAnException(GuardedServer kind) throws Exception {
        Path db = dir.resolve("store.sqlite3");
        ServerParameters server = server(kind, db, null);
        Map<String, Object> arguments = Map.of("operation_id", "issue-44", "title", "Toner", "mode", "atomic");
        Example.Recovered direct = Example.createIssue(() -> connect(server), arguments, "alpha");

        assertFalse(direct.replyLost());
        assertEquals(null, direct.status());
        assertEquals(false, direct.issue().get("replayed"));
        assertEquals(1, GuardedServer.issueRows(db));

        // The same operation id with another answer: the guard refuses it (operation_conflict).
        RuntimeException refused = assertThrows(RuntimeException.class, () -> Example.createIssue(() -> connect(server), arguments, "beta"));

        assertTrue(refused.getMessage().contains("operation_conflict"), refused::toString);
        assertEquals(1, GuardedServer.issueRows(db));
    }

    private static ServerParameters server(GuardedServer kind, Path db, String fault) {
        List<String> command = kind.command();
        return ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).env(kind.env(db, fault)).build();
    }

    /** Starts the server and connects; every transport is closed after the test. */
    private McpSyncClient connect(ServerParameters server) {
        StdioMcpClientTransport transport = StdioMcpClientTransport.builder(server).stderrConsumer(line -> { }).start();
        transports.add(transport);
        return Example.client(transport);
    }

    /** The page's example: plain SDK calls, nothing of the lab. */
    static final class Example {
        private Example() {}

        // snippet:recover-lost-reply
        /** The issue as the server stored it; the status read-back too when the first reply was lost. */
        record Recovered(Map<String, Object> issue, Map<String, Object> status, boolean replyLost) {}

        static McpSyncClient client(StdioMcpClientTransport transport) {
            McpSyncClient client = McpClient.sync(transport)
                    .clientInfo(Implementation.builder("issue-app", "1.0.0").build())
                    // Declares form elicitation, so the server may ask; the answers go in inputResponses below.
                    .formElicitation(request -> ElicitResult.decline())
                    .build();
            client.discover();
            return client;
        }

        static Recovered createIssue(Supplier<McpSyncClient> connect, Map<String, Object> arguments, String body) {
            McpSyncClient client = connect.get();
            // Manual round one: the application sees the requestState and keeps it.
            CallToolOutcome first = client.tool("create_guarded_issue").arguments(arguments).callOnce();
            if (!(first instanceof InputRequiredResult roundOne)) {
                throw new IllegalStateException("expected input_required, got " + first);
            }
            Map<String, Object> answers = Map.of("body", Map.of("action", "accept", "content", Map.of("body", body)));
            try {
                // Specs are immutable: chain the setters; a dropped return value sends round one again.
                return new Recovered(accepted(client.tool("create_guarded_issue").arguments(arguments)
                        .inputResponses(answers).requestState(roundOne.requestState()).callOnce()), null, false);
            } catch (McpResponseLostException | McpTimeoutException unknown) {
                // The write may or may not have happened. Never start again from round one: that mints a new
                // state, which the guard refuses as operation_conflict, and the stored result stays out of reach.
            }
            McpSyncClient again = connect.get();
            Map<String, Object> status = accepted(again.tool("get_operation_status")
                    .arguments(Map.of("operation_id", arguments.get("operation_id"))).call());
            // Whatever the status says, the exact replay (same arguments, answers and state) is safe: it returns
            // the stored result (replayed: true) or applies the write once.
            ToolSpec replay = again.tool("create_guarded_issue").arguments(arguments)
                    .inputResponses(answers).requestState(roundOne.requestState());
            return new Recovered(accepted(replay.callOnce()), status, true);
        }

        /** A refusal comes two ways: thrown (McpException, a JSON-RPC error) or as a result with isError. */
        @SuppressWarnings("unchecked")
        static Map<String, Object> accepted(CallToolOutcome outcome) {
            if (!(outcome instanceof CallToolResult result)) {
                throw new IllegalStateException("expected a complete result, got " + outcome);
            }
            if (Boolean.TRUE.equals(result.isError())) {
                throw new IllegalStateException("refused: " + result.content());
            }
            return (Map<String, Object>) result.structuredContent();
        }
        // end-snippet
    }
}
