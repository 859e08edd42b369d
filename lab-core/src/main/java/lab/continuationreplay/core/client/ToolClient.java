package lab.continuationreplay.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The lab's one client of the guarded tools over the raw wire: round one, the continuation, the status read-back, on
 * one named server process (seed spec §9.1), over stdio or HTTP. The matrix's cases, the controls and the fault experiments all call the
 * tools through it; a test that needs a frame no client would send writes it with {@link ServerProcess} directly.
 */
public final class ToolClient implements AutoCloseable {
    public static final String CREATE = "create_guarded_issue";
    public static final String STATUS = "get_operation_status";

    private final String name;
    private final ServerWire process;
    private Integer exitStatus;

    public ToolClient(String name, ServerWire process) {
        this.name = name;
        this.process = process;
    }

    /** A client on a process started elsewhere, named as the process is. */
    public static ToolClient on(ServerWire process) {
        return new ToolClient(process.name(), process);
    }

    public String name() {
        return name;
    }

    /** {@code {"operation_id":…,"title":…,"mode":…}}. */
    public static ObjectNode arguments(String operationId, String title, String mode) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", title).put("mode", mode);
    }

    /** The input responses of an accepted body, as the form answer the servers ask for. */
    public static JsonNode accepted(String body) {
        return ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":"
                + JsonNodeFactory.instance.textNode(body) + "}}}");
    }

    /** Opens the modern-era connection, as every client does first. */
    public void open() throws TransportFailure {
        process.request("tools/list", JsonNodeFactory.instance.objectNode());
    }

    /** Round one; must be {@code input_required} with a string state, which it returns. */
    public String roundOne(ObjectNode arguments) throws TransportFailure {
        return roundOneOf(CREATE, arguments);
    }

    /** Round one of another tool (the unguarded control's {@code create_issue}); must ask for input. */
    public String roundOneOf(String tool, ObjectNode arguments) throws TransportFailure {
        Reply reply = new Reply(process.callTool(tool, arguments, null, null));
        if (!reply.inputRequired() || reply.requestState() == null) {
            throw new IllegalStateException(name + ": round one of " + tool + " did not ask for input: " + reply.raw());
        }
        return reply.requestState();
    }

    /** A first round whose reply is returned as is. */
    public Reply firstRound(ObjectNode arguments) throws TransportFailure {
        return new Reply(process.callTool(CREATE, arguments, null, null));
    }

    /** The continuation: the accepted body and the state (omitted when {@code state} is null). */
    public Reply commit(ObjectNode arguments, String state, String body) throws TransportFailure {
        return commit(CREATE, arguments, state, body);
    }

    /** A continuation of another tool. */
    public Reply commit(String tool, ObjectNode arguments, String state, String body) throws TransportFailure {
        return new Reply(process.callTool(tool, arguments, accepted(body), state));
    }

    /** A continuation whose requestState may be any JSON value (attacks send numbers, objects, null). */
    public Reply continuation(String tool, ObjectNode arguments, JsonNode requestState, String body) throws TransportFailure {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", tool);
        params.set("arguments", arguments);
        params.set("inputResponses", accepted(body));
        params.set("requestState", requestState);
        return new Reply(process.request("tools/call", params));
    }

    public Reply status(String operationId) throws TransportFailure {
        return new Reply(process.callTool(STATUS, JsonNodeFactory.instance.objectNode().put("operation_id", operationId),
                null, null));
    }

    /** For a process that ended by itself (a lab fault): its status. */
    public int awaitExit() throws InterruptedException, TransportFailure {
        exitStatus = process.awaitExit(Duration.ofSeconds(15));
        return exitStatus;
    }

    public ServerWire process() {
        return process;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the process as its transport expects (end of stdin, or SIGTERM over HTTP) and records how it ended. */
    @Override
    public void close() {
        process.close();
        if (exitStatus == null) {
            exitStatus = process.exitStatus();
        }
    }

    public Integer exitStatus() {
        return exitStatus;
    }
}
