package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;

/**
 * One open connection: its transport (a server process behind stdio, or a URL over HTTP), the client on it, and the
 * answer in use.
 */
final class Connection {
    private final String name;
    private final McpClientTransport transport;
    private McpSyncClient client;
    // The elicitation handler runs on an SDK thread while the step's thread waits in call().
    private volatile ObjectNode answer;

    Connection(String name, McpClientTransport transport) {
        this.name = name;
        this.transport = transport;
    }

    String name() {
        return name;
    }

    boolean overHttp() {
        return transport instanceof HttpClientMcpTransport;
    }

    /**
     * Ends the connection as far as the SDK can: a stdio transport closes the server's stdin and waits for it. Neither
     * {@code HttpClientMcpTransport} nor {@code McpSyncClient} has a close(), so over HTTP there is nothing to call;
     * the HTTP server is the lab's to stop.
     */
    void close() {
        if (transport instanceof StdioMcpClientTransport stdio) {
            stdio.close();
        }
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
