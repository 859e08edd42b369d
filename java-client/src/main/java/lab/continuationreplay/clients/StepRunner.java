package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpSyncClient.ListToolsSpec;
import io.modelcontextprotocol.modern.client.McpSyncClient.ToolSpec;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/** Plays a validated script step by step through the SDK and writes one record per step. */
final class StepRunner {
    static final String STATUS_TOOL = "get_operation_status";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final StepScript script;
    private final RecordWriter records;
    private final long startNanos;
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final Map<String, String> states = new ConcurrentHashMap<>();

    StepRunner(StepScript script, RecordWriter records, long startNanos) {
        this.script = script;
        this.records = records;
        this.startNanos = startNanos;
    }

    void run() throws IOException, InterruptedException {
        for (Step step : script.steps()) {
            if (step.op() == Op.PARALLEL) {
                runParallel(step);
            } else {
                records.write(execute(step, Gate.OPEN));
            }
        }
    }

    /** Ends every server the script left open; not a step, so no record. */
    void closeAll() {
        for (Connection connection : connections.values()) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                System.err.println("clients: closing connection " + connection.name() + " failed: " + e);
            }
        }
        connections.clear();
    }

    private void runParallel(Step step) throws IOException, InterruptedException {
        CountDownLatch barrier = new CountDownLatch(step.inner().size());
        List<Thread> threads = new ArrayList<>();
        List<Throwable> defects = new ArrayList<>();
        for (Step inner : step.inner()) {
            Gate gate = new Gate.Barrier(barrier);
            Thread thread = new Thread(() -> {
                try {
                    ClientRecord record = execute(inner, gate);
                    records.write(record);
                } catch (Throwable t) {
                    synchronized (defects) {
                        defects.add(t);
                    }
                } finally {
                    // A step that failed before its call must still arrive, or its siblings would wait for ever.
                    gate.pass();
                }
            }, "step-" + inner.id());
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!defects.isEmpty()) {
            Throwable first = defects.get(0);
            if (first instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("parallel step " + step.id() + " failed in the driver", first);
        }
    }

    private ClientRecord execute(Step step, Gate gate) {
        return switch (step.op()) {
            case CONNECT -> connect(step, gate);
            case LIST_TOOLS -> listTools(step, gate);
            case CALL -> call(step, gate);
            case CALL_ONCE -> callOnce(step, gate);
            case STATUS -> status(step, gate);
            case CLOSE -> close(step, gate);
            case PARALLEL -> throw new IllegalStateException("a parallel step is played by runParallel");
        };
    }

    private ClientRecord connect(Step step, Gate gate) {
        ServerSpec server = script.servers().get(step.server());
        ObjectNode sent = NODES.objectNode();
        sent.put("server", step.server());
        String api;
        Supplier<McpClientTransport> opening;
        if (server instanceof ServerSpec.Http http) {
            api = "HttpClientMcpTransport.builder(url).requestCustomizer(..).build(); McpClient.sync(..).build(); discover()";
            sent.put("url", http.url().toString());
            sent.put("bearer_token_env", http.tokenEnv());
            opening = () -> httpTransport(http);
        } else {
            ServerSpec.Stdio stdio = (ServerSpec.Stdio) server;
            api = "StdioMcpClientTransport.builder(..).start(); McpClient.sync(..).build(); discover()";
            sent.set("command", SdkJson.JSON.valueToTree(stdio.command()));
            opening = () -> stdioTransport(step, stdio);
        }
        Attempt<JsonNode> attempt = attempt(gate, () -> {
            McpClientTransport transport = opening.get();
            Connection connection = new Connection(step.connection(), transport);
            // Registered before discover: a server that started but answered badly still has to be closed, and
            // later steps should meet whatever the SDK does on that connection.
            connections.put(step.connection(), connection);
            McpClient.SyncBuilder builder = McpClient.sync(transport)
                    .clientInfo(Implementation.builder("continuation-replay-java-driver", "0.1.0").build())
                    .formElicitation(connection::elicit);
            if (script.requestTimeout() != null) {
                builder.roundTimeout(script.requestTimeout());
            }
            McpSyncClient client = builder.build();
            connection.attach(client);
            return SdkJson.tree(client.discover());
        });
        return attempt.record(step, api, sent, Outcome.CONNECTED, attempt.value(), null).withTransport(server.transport());
    }

    private static StdioMcpClientTransport stdioTransport(Step step, ServerSpec.Stdio server) {
        // The contract: the driver's own environment plus the script's. ServerParameters keeps only a short
        // list of the parent's names (its transport happens to inherit them all), so neither is relied on.
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(server.env());
        ServerParameters parameters = ServerParameters.builder(server.command().get(0))
                .args(server.command().subList(1, server.command().size()))
                .env(env)
                .build();
        String prefix = "[" + step.connection() + "] ";
        return StdioMcpClientTransport.builder(parameters)
                .stderrConsumer(line -> System.err.println(prefix + line))
                .start();
    }

    /**
     * The SDK's request customizer is its way to add a header; it runs for every HTTP request of the transport, so
     * the token goes with discover, every round of an automatic call, and every manual round alike.
     */
    private static HttpClientMcpTransport httpTransport(ServerSpec.Http server) {
        String authorization = "Bearer " + server.token();
        return HttpClientMcpTransport.builder(server.url())
                .requestCustomizer(McpHttpRequestCustomizer.fromSync(
                        (request, headers, context) -> headers.set("Authorization", authorization)))
                .build();
    }

    private ClientRecord listTools(Step step, Gate gate) {
        Attempt<JsonNode> attempt = attempt(gate, () -> {
            // The SDK's specs are immutable: every setter returns a new spec, which must be the one called.
            ListToolsSpec spec = client(step).listTools();
            if (script.requestTimeout() != null) {
                spec = spec.roundTimeout(script.requestTimeout());
            }
            JsonNode whole = SdkJson.tree(spec.list());
            ObjectNode json = NODES.objectNode();
            json.set("resultType", member(whole, "resultType"));
            json.set("tools", member(whole, "tools"));
            return json;
        });
        return attempt.record(step, "listTools().list()", null, Outcome.LISTED, attempt.value(), null);
    }

    private ClientRecord call(Step step, Gate gate) {
        ObjectNode sent = sent(step.tool(), step.arguments(), null, "absent");
        sent.set("answer", step.answer());
        Attempt<CallToolResult> attempt = attempt(gate, () -> {
            McpSyncClient client = client(step);
            Connection connection = connections.get(step.connection());
            connection.answerWith(step.answer());
            try {
                return timed(client.tool(step.tool()).arguments(SdkJson.map(step.arguments()))).call();
            } finally {
                connection.answerWith(null);
            }
        });
        return toolRecord(step, "tool(..).arguments(..).call()", sent, attempt, null);
    }

    private ClientRecord status(Step step, Gate gate) {
        ObjectNode arguments = NODES.objectNode().put("operation_id", step.operationId());
        ObjectNode sent = sent(STATUS_TOOL, arguments, null, "absent");
        Attempt<CallToolResult> attempt = attempt(gate,
                () -> timed(client(step).tool(STATUS_TOOL).arguments(SdkJson.map(arguments))).call());
        return toolRecord(step, "tool(..).arguments(..).call()", sent, attempt, null);
    }

    private ClientRecord callOnce(Step step, Gate gate) {
        String requestState = step.state() == null ? "absent"
                : step.stateTransform() == StateTransform.TAMPER ? "tampered" : "present";
        ObjectNode sent = sent(step.tool(), step.arguments(), step.inputResponses(), requestState);
        Attempt<CallToolOutcome> attempt = attempt(gate, () -> {
            McpSyncClient client = client(step);
            ToolSpec spec = client.tool(step.tool()).arguments(SdkJson.map(step.arguments()));
            if (step.inputResponses() != null) {
                spec = spec.inputResponses(SdkJson.map(step.inputResponses()));
            }
            if (step.state() != null) {
                String saved = states.get(step.state());
                if (saved == null) {
                    throw new StepNotRunnableException("state \"" + step.state() + "\" was never saved: the step that "
                            + "should save it did not answer input_required");
                }
                spec = spec.requestState(step.stateTransform().apply(saved));
            }
            return timed(spec).callOnce();
        });
        String savedAs = null;
        if (attempt.value() instanceof InputRequiredResult inputRequired && step.saveState() != null
                && inputRequired.requestState() != null) {
            states.put(step.saveState(), inputRequired.requestState());
            savedAs = step.saveState();
        }
        return toolRecord(step, "tool(..).callOnce()", sent, attempt, savedAs);
    }

    private ClientRecord close(Step step, Gate gate) {
        Connection open = connections.get(step.connection());
        String api = open != null && open.overHttp()
                ? "none: HttpClientMcpTransport and McpSyncClient have no close(); the connection is dropped"
                : "close()";
        Attempt<JsonNode> attempt = attempt(gate, () -> {
            Connection connection = connections.remove(step.connection());
            if (connection == null) {
                throw new StepNotRunnableException("connection \"" + step.connection() + "\" has no transport: its connect step threw");
            }
            connection.close();
            return null;
        });
        return attempt.record(step, api, null, Outcome.CLOSED, null, null);
    }

    private ToolSpec timed(ToolSpec spec) {
        Duration timeout = script.requestTimeout();
        return timeout == null ? spec : spec.roundTimeout(timeout);
    }

    private McpSyncClient client(Step step) {
        Connection connection = connections.get(step.connection());
        if (connection == null || connection.client() == null) {
            throw new StepNotRunnableException("connection \"" + step.connection() + "\" has no client: its connect step threw");
        }
        return connection.client();
    }

    private static ObjectNode sent(String tool, ObjectNode arguments, ObjectNode inputResponses, String requestState) {
        ObjectNode sent = NODES.objectNode();
        sent.put("tool", tool);
        sent.set("arguments", arguments);
        sent.set("input_responses", inputResponses);
        sent.put("request_state", requestState);
        return sent;
    }

    private static ClientRecord toolRecord(Step step, String api, ObjectNode sent, Attempt<? extends CallToolOutcome> attempt,
            String savedAs) {
        CallToolOutcome outcome = attempt.value();
        if (attempt.failure() != null) {
            return attempt.record(step, api, sent, Outcome.THREW, null, null);
        }
        if (outcome instanceof CallToolResult result) {
            Outcome kind = Boolean.TRUE.equals(result.isError()) ? Outcome.TOOL_ERROR : Outcome.RESULT;
            return attempt.record(step, api, sent, kind, resultJson(result), savedAs);
        }
        if (outcome instanceof InputRequiredResult inputRequired) {
            return attempt.record(step, api, sent, Outcome.INPUT_REQUIRED, resultJson(inputRequired), savedAs);
        }
        // The SDK documents only these two outcomes of tools/call; anything else means this driver is out of date.
        throw new IllegalStateException("the SDK returned an outcome this driver does not know: " + outcome);
    }

    private static ObjectNode resultJson(CallToolResult result) {
        // Taken from the whole result as the SDK writes it: a bare List<Content> would lose each item's "type".
        JsonNode whole = SdkJson.tree(result);
        ObjectNode json = NODES.objectNode();
        json.set("resultType", member(whole, "resultType"));
        json.set("isError", member(whole, "isError"));
        json.set("structuredContent", member(whole, "structuredContent"));
        json.set("content", member(whole, "content"));
        return json;
    }

    private static ObjectNode resultJson(InputRequiredResult result) {
        JsonNode whole = SdkJson.tree(result);
        ObjectNode json = NODES.objectNode();
        json.set("resultType", member(whole, "resultType"));
        json.putNull("isError");
        json.putNull("structuredContent");
        json.putNull("content");
        json.set("inputRequests", member(whole, "inputRequests"));
        // The state is a credential for the continuation: its length shows it came, the value stays in the driver.
        if (result.requestState() == null) {
            json.putNull("request_state_length");
        } else {
            json.put("request_state_length", result.requestState().length());
        }
        return json;
    }

    private static JsonNode member(JsonNode object, String name) {
        JsonNode value = object.get(name);
        return value == null ? NODES.nullNode() : value;
    }

    /** Runs one SDK call behind the gate; whatever it throws becomes the step's {@code threw}, never the driver's. */
    private <T> Attempt<T> attempt(Gate gate, Supplier<T> call) {
        gate.pass();
        long start = System.nanoTime();
        try {
            T value = call.get();
            return new Attempt<>(value, null, millis(start - startNanos), millis(System.nanoTime() - start));
        } catch (RuntimeException e) {
            return new Attempt<>(null, e, millis(start - startNanos), millis(System.nanoTime() - start));
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000L;
    }

    /** The result of one timed SDK call: a value or what it threw. */
    private record Attempt<T>(T value, RuntimeException failure, long startedMs, long elapsedMs) {
        ClientRecord record(Step step, String api, JsonNode sent, Outcome success, JsonNode result, String savedAs) {
            if (failure != null) {
                return new ClientRecord(step.id(), step.op(), step.connection(), null, api, sent, Outcome.THREW, null,
                        Thrown.of(failure), null, startedMs, elapsedMs);
            }
            return new ClientRecord(step.id(), step.op(), step.connection(), null, api, sent, success, result, null, savedAs,
                    startedMs, elapsedMs);
        }
    }

    /** Where a step waits just before its SDK call: nowhere at the top level, behind a barrier inside parallel. */
    interface Gate {
        Gate OPEN = () -> { };

        void pass();

        final class Barrier implements Gate {
            private final CountDownLatch latch;
            private boolean passed;

            Barrier(CountDownLatch latch) {
                this.latch = latch;
            }

            @Override
            public void pass() {
                if (passed) {
                    return;
                }
                passed = true;
                latch.countDown();
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted at the parallel barrier", e);
                }
            }
        }
    }
}
