package lab.continuationreplay.cases.clients;

import java.util.List;

/**
 * How each official client tells the application that a reply never came, written down from the probe facts before
 * any run (docs/clients.md), and over HTTP from what the SDKs raised when measured (docs/client-drivers.md, "Over
 * HTTP"): the exception type, for the TypeScript client the {@code SdkError} code (for the Python client the SDK's own
 * JSON-RPC code, for the Go client the sentinel error in the chain), and where the type alone says too little, the
 * message and the cause. A thrown error that carries a JSON-RPC error from the server is read by its code
 * and message instead, the same for both.
 */
public final class ClientVocabulary {
    /** A thrown error, as a client record names it: its type, the SDK's own code if any, its message and its cause. */
    public record Thrown(String type, String code, String message, String cause) {}

    /**
     * One way a client says the outcome is unknown. A null {@code transport}, {@code code}, {@code message},
     * {@code cause} or {@code messagePattern} matches anything; every other member must be equal, and the whole message
     * must match {@code messagePattern} (for a message that names a URL with the run's port).
     */
    record Word(String client, ClientTransport transport, String type, String code, String message, String cause, Seen.Kind kind,
            java.util.regex.Pattern messagePattern, java.util.regex.Pattern causePattern) {
        Word(String client, ClientTransport transport, String type, String code, String message, String cause, Seen.Kind kind) {
            this(client, transport, type, code, message, cause, kind, null, null);
        }

        Word(String client, ClientTransport transport, String type, String code, String message, String cause, Seen.Kind kind,
                java.util.regex.Pattern messagePattern) {
            this(client, transport, type, code, message, cause, kind, messagePattern, null);
        }

        boolean says(String client, ClientTransport transport, Thrown thrown) {
            return this.client.equals(client) && (this.transport == null || this.transport == transport)
                    && type.equals(thrown.type()) && (code == null || code.equals(thrown.code()))
                    && (message == null || message.equals(thrown.message())) && (cause == null || cause.equals(thrown.cause()))
                    && (messagePattern == null || (thrown.message() != null && messagePattern.matcher(thrown.message()).matches()))
                    && (causePattern == null || (thrown.cause() != null && causePattern.matcher(thrown.cause()).matches()));
        }
    }

    private static final List<Word> UNKNOWN_OUTCOMES = List.of(
            // the Java SDK names both outcomes with types of its own, on either transport
            new Word("java", null, "McpResponseLostException", null, null, null, Seen.Kind.LOST),
            new Word("java", null, "McpTimeoutException", null, null, null, Seen.Kind.TIMEOUT),
            new Word("typescript", null, "SdkError", "CONNECTION_CLOSED", null, null, Seen.Kind.LOST),
            new Word("typescript", null, "SdkError", "REQUEST_TIMEOUT", null, null, Seen.Kind.TIMEOUT),
            // Over HTTP the TypeScript SDK passes Node's fetch failure through unchanged. A TypeError is any bug in
            // JavaScript, and "fetch failed" any failure to reach the server (a refused connection, a DNS error), so
            // only the three together say the connection closed after the request went out without a response.
            new Word("typescript", ClientTransport.HTTP, "TypeError", null, "fetch failed", "SocketError: other side closed",
                    Seen.Kind.LOST),
            // The Python SDK raises its MCPError with the SDK's own codes (mcp_types CONNECTION_CLOSED -32000 and
            // REQUEST_TIMEOUT -32001), the same type a server's JSON-RPC error has: so the code and the SDK's exact
            // message together, as measured (docs/clients.md, "The Python and Go clients").
            new Word("python", null, "MCPError", "-32000", "Connection closed", null, Seen.Kind.LOST),
            new Word("python", null, "MCPError", "-32001", "Request 'tools/call' timed out", null, Seen.Kind.TIMEOUT),
            // The Go SDK returns the stdio pipe's io.EOF wrapped by the call (fmt.Errorf %w), not its ErrConnectionClosed;
            // the driver names a sentinel found in the chain as the code. A timeout is the context's deadline.
            new Word("go", ClientTransport.STDIO, "*fmt.wrapError", "EOF", "calling \"tools/call\": EOF", null, Seen.Kind.LOST),
            new Word("go", null, "context.deadlineExceededError", "DeadlineExceeded", null, null, Seen.Kind.TIMEOUT),
            // Over HTTP the Go SDK wraps every failed POST in its jsonrpc2.ErrRejected (-32005, "rejected by
            // transport"), a refused connection too; only a POST that met end of file after it was sent says the
            // connection closed without a response: "calling "tools/call": sending "tools/call": rejected by
            // transport: Post "<url>": EOF".
            new Word("go", ClientTransport.HTTP, "*fmt.wrapError", "-32005", null, null, Seen.Kind.LOST, java.util.regex.Pattern.compile(
                    "calling \"tools/call\": sending \"tools/call\": rejected by transport: Post \"http://[^\"]+\": EOF")),
            // The Rust SDK (rmcp) ends a stdio call whose server exited with its ServiceError::TransportClosed; the
            // driver names the variant as the code. Its high-level calls take no timeout, so the driver bounds each
            // with tokio's, as a Rust application would: the elapsed deadline is the timeout
            // (docs/findings/rust-client-no-request-timeout.md).
            new Word("rust", ClientTransport.STDIO, "ServiceError", "TransportClosed", null, null, Seen.Kind.LOST),
            new Word("rust", null, "tokio::time::error::Elapsed", null, null, null, Seen.Kind.TIMEOUT),
            // Over HTTP a POST that failed for any reason is its ServiceError::TransportSend; only a chain that ends in
            // hyper's "connection closed before message completed" says the connection closed after the request went
            // out without a response (a refused connection ends otherwise).
            new Word("rust", ClientTransport.HTTP, "ServiceError", "TransportSend", null, null, Seen.Kind.LOST, null,
                    java.util.regex.Pattern.compile("(?s).*caused by hyper::Error: connection closed before message completed")));

    private ClientVocabulary() {}

    /**
     * {@link Seen.Kind#LOST}, {@link Seen.Kind#TIMEOUT}, or null when {@code thrown} is neither for {@code client}
     * over {@code transport}.
     */
    public static Seen.Kind unknownOutcome(String client, ClientTransport transport, Thrown thrown) {
        return UNKNOWN_OUTCOMES.stream().filter(w -> w.says(client, transport, thrown)).map(Word::kind).findFirst().orElse(null);
    }
}
