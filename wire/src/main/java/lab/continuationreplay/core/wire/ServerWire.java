package lab.continuationreplay.core.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;

/**
 * One running server process and the lab's wire to it: stdio lines ({@link ServerProcess}) or HTTP exchanges
 * ({@link HttpServerProcess}). Whatever the transport, every byte either way is in the process's transcript, and a
 * request either gets its JSON-RPC reply or fails with a {@link TransportFailure}.
 */
public interface ServerWire extends AutoCloseable {
    /** The name this process has in messages. */
    String name();

    /** Sends a request with the modern {@code _meta} envelope and returns the reply with its id. */
    ObjectNode request(String method, ObjectNode params) throws TransportFailure;

    /** {@code tools/call} with the given arguments and, for a continuation, input responses and state. */
    default ObjectNode callTool(String name, ObjectNode arguments, JsonNode inputResponses, String requestState)
            throws TransportFailure {
        return request("tools/call", WireEnvelope.toolCall(name, arguments, inputResponses, requestState));
    }

    /** Waits for the process to end by itself (a fault exit, say) and returns its status. */
    int awaitExit(Duration timeout) throws InterruptedException, TransportFailure;

    /** The exit status once the process has ended, or null while it runs. */
    Integer exitStatus();

    boolean isAlive();

    long pid();

    /** The live process, for fault experiments that signal it or its children (a bridge child, say). */
    ProcessHandle handle();

    /** Asks the server to stop the way its transport expects, waits briefly, then kills what is left. */
    @Override
    void close();
}
