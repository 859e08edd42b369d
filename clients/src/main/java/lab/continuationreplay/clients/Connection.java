package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;

/** One open connection: the server process behind its transport, the client on it, and the answer in use. */
final class Connection {
    private final String name;
    private final StdioMcpClientTransport transport;
    private McpSyncClient client;
    // The elicitation handler runs on an SDK thread while the step's thread waits in call().
    private volatile ObjectNode answer;

    Connection(String name, StdioMcpClientTransport transport) {
        this.name = name;
        this.transport = transport;
    }

    String name() {
        return name;
    }

    StdioMcpClientTransport transport() {
        return transport;
    }

    McpSyncClient client() {
        return client;
    }

    void attach(McpSyncClient client) {
        this.client = client;
    }

    /** The answer the handler gives while the current {@code call} runs; null declines. */
    void answerWith(ObjectNode answer) {
        this.answer = answer;
    }

    /** The form elicitation handler: the {@code answer} of the {@code call} in progress, or a decline. */
    ElicitResult elicit(ElicitFormRequest request) {
        ObjectNode current = answer;
        return current == null ? ElicitResult.decline() : ElicitResult.accept(SdkJson.map(current));
    }
}
