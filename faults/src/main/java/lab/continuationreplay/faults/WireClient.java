package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import lab.continuationreplay.core.client.CaseProcess;
import lab.continuationreplay.core.client.Reply;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;

/** One server process of a fault experiment and the calls the experiments make, over raw stdio with a transcript. */
final class WireClient implements AutoCloseable {
    private final ServerProcess process;

    private WireClient(ServerProcess process) {
        this.process = process;
    }

    /** Starts {@code kind} in {@code folder} as {@code name} (transcript and stderr files named after it). */
    static WireClient start(FaultSession session, ServerKind kind, WireSettings settings, Path folder, String name)
            throws Exception {
        return new WireClient(ServerProcess.start(kind.command(session.home()), settings.environment(),
                folder.resolve(name + ".transcript.log"), folder.resolve(name + ".stderr.log"), ServerProcess.READ_TIMEOUT));
    }

    static ObjectNode arguments(String operationId, String mode) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", "fault " + operationId)
                .put("mode", mode);
    }

    /** Round one; returns the requestState, or throws when the server did not ask for input. */
    String roundOne(ObjectNode arguments) throws TransportFailure {
        Reply reply = new Reply(process.callTool(CaseProcess.CREATE, arguments, null, null));
        if (!reply.inputRequired() || reply.requestState() == null) {
            throw new IllegalStateException("round one did not ask for input: " + reply.raw());
        }
        return reply.requestState();
    }

    Reply continuation(ObjectNode arguments, String state, String body) throws TransportFailure {
        return new Reply(process.callTool(CaseProcess.CREATE, arguments, CaseProcess.accepted(body), state));
    }

    Reply status(String operationId) throws TransportFailure {
        return new Reply(process.callTool(CaseProcess.STATUS,
                JsonNodeFactory.instance.objectNode().put("operation_id", operationId), null, null));
    }

    ServerProcess process() {
        return process;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.close();
    }
}
