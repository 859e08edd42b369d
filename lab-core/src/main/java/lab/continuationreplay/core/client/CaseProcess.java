package lab.continuationreplay.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.vectors.ExactJson;

/** One named server process of a case, with the calls the cases make (seed spec §9.1). */
public final class CaseProcess {
    public static final String CREATE = "create_guarded_issue";
    public static final String STATUS = "get_operation_status";

    private final String name;
    private final ServerProcess process;
    private Integer exitStatus;

    public CaseProcess(String name, ServerProcess process) {
        this.name = name;
        this.process = process;
    }

    public String name() {
        return name;
    }

    /** {@code {"operation_id":"case-NN","title":"guarded-NN","mode":mode}}. */
    public static ObjectNode arguments(String caseId, String mode) {
        return JsonNodeFactory.instance.objectNode()
                .put("operation_id", "case-" + caseId)
                .put("title", "guarded-" + caseId)
                .put("mode", mode);
    }

    public static JsonNode accepted(String body) {
        return ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":"
                + JsonNodeFactory.instance.textNode(body) + "}}}");
    }

    /** Opens the modern-era connection, as the seed's harness does first thing. */
    public void open() throws TransportFailure {
        process.request("tools/list", JsonNodeFactory.instance.objectNode());
    }

    /** Round one; must be {@code input_required} with a string state. */
    public String roundOne(ObjectNode arguments) throws TransportFailure {
        return roundOneOf(CREATE, arguments);
    }

    /** The continuation: accepted body and the state (omitted when {@code state} is null). */
    public Reply commit(ObjectNode arguments, String state, String body) throws TransportFailure {
        return commit(CREATE, arguments, state, body);
    }

    /** A continuation of another tool (the unguarded control's {@code create_issue}). */
    public Reply commit(String tool, ObjectNode arguments, String state, String body) throws TransportFailure {
        return new Reply(process.callTool(tool, arguments, accepted(body), state));
    }

    /** Round one of another tool; must ask for input. */
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

    public Reply status(String operationId) throws TransportFailure {
        return new Reply(process.callTool(STATUS, JsonNodeFactory.instance.objectNode().put("operation_id", operationId),
                null, null));
    }

    /** For a process that ended by itself (a lab fault): its status. */
    public int awaitExit() throws InterruptedException, TransportFailure {
        exitStatus = process.awaitExit(Duration.ofSeconds(15));
        return exitStatus;
    }

    /** Closes stdin and records how the process ended. */
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
