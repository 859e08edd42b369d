package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Streamable HTTP POSTs to a running server with the same headers and envelope as the lab's driver, each calling
 * thread on a connection of its own that stays open between exchanges (HTTP/1.1 keep-alive), written and read as
 * raw bytes like the driver's. Not transcribed: a benchmark's calls are counted in the database instead. A
 * connection the server closes fails the call; nothing is retried.
 */
final class KeptConnections implements AutoCloseable {
    private final HttpServerProcess server;
    private final URI endpoint;
    private final String name;
    private final AtomicLong ids = new AtomicLong(1);
    private final Map<Thread, Socket> sockets = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Thread, Long> lastUsed = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * A connection idle longer than this is replaced before it is used: node and uvicorn close an idle keep-alive
     * connection after 5 s, and a request written into a connection the server is closing gets no reply. With many
     * servers timed in turn, one server's connection idles while the others take their calls.
     */
    static final long IDLE_REUSE_LIMIT_NANOS = 1_000_000_000L;

    KeptConnections(HttpServerProcess server, String name) {
        this.server = server;
        this.endpoint = server.exchanges().endpoint();
        this.name = name;
    }

    ObjectNode callTool(String tool, ObjectNode arguments, JsonNode inputResponses, String requestState) throws Exception {
        long id = ids.getAndIncrement();
        ObjectNode frame = WireEnvelope.request(id, "tools/call", WireEnvelope.toolCall(tool, arguments, inputResponses, requestState));
        byte[] body = frame.toString().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST ").append(endpoint.getRawPath()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(server.exchanges().host()).append("\r\n");
        for (var header : server.headers("tools/call", tool)) {
            head.append(header.name()).append(": ").append(header.value()).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        Thread self = Thread.currentThread();
        Long used = lastUsed.get(self);
        if (used != null && System.nanoTime() - used > IDLE_REUSE_LIMIT_NANOS && sockets.containsKey(self)) {
            sockets.remove(self).close();
        }
        Socket socket = sockets.computeIfAbsent(self, t -> open());
        OutputStream out = socket.getOutputStream();
        byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
        byte[] request = java.util.Arrays.copyOf(headBytes, headBytes.length + body.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        out.write(request);
        out.flush();
        InputStream in = socket.getInputStream();
        String status;
        List<HttpHead.Header> headers;
        byte[] reply;
        try {
            status = HttpMessages.line(in);
            headers = HttpMessages.headers(in);
            reply = HttpMessages.body(in, headers, false);
        } catch (java.io.IOException e) {
            throw new java.io.IOException(name + ": the reply to " + id + " was cut off: " + e.getMessage(), e);
        }
        if ("close".equalsIgnoreCase(HttpMessages.value(headers, "Connection"))) {
            sockets.remove(Thread.currentThread()).close();
        }
        lastUsed.put(self, System.nanoTime());
        String type = HttpMessages.value(headers, "Content-Type");
        String text = new String(reply, StandardCharsets.UTF_8);
        List<String> candidates = type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("text/event-stream")
                ? EventStream.data(text) : List.of(text);
        for (String candidate : candidates) {
            JsonNode parsed = ExactJson.parse(candidate);
            if (parsed.isObject() && parsed.path("id").isIntegralNumber() && parsed.get("id").longValue() == id) {
                return (ObjectNode) parsed;
            }
        }
        throw new IllegalStateException(name + ": " + status + " without the reply to " + id);
    }

    private Socket open() {
        try {
            Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int) ServerProcess.READ_TIMEOUT.toMillis());
            return socket;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(name + ": cannot connect", e);
        }
    }

    @Override
    public void close() {
        for (Socket socket : sockets.values()) {
            try {
                socket.close();
            } catch (java.io.IOException ignored) {
                // the server goes next
            }
        }
    }
}
