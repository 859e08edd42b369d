package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.vectors.CanonicalJsonException;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code tools/call} over Streamable HTTP as the 2026-07-28 wire has it: one plain POST per request, no session, the
 * standard headers and the {@code _meta} envelope on every request, a JSON or an event-stream reply. Each request
 * goes on a connection of its own ({@code Connection: close}), written as raw bytes: no client library may retry a
 * POST on a pooled connection the server had closed, which would send a continuation twice behind the checker's
 * back and spoil the replay check.
 */
final class McpClient {
    static final String PROTOCOL_VERSION = "2026-07-28";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_BODY = HttpMessages.MAX_BODY;

    /** Whose token goes with a request. */
    enum Principal {
        MAIN,
        OTHER
    }

    /** Thrown when the very connection cannot be made: the target is unreachable, not misbehaving. */
    static final class CannotConnect extends IOException {
        private static final long serialVersionUID = 1L;

        CannotConnect(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final StrictTarget target;
    private final Duration readTimeout;
    private final AtomicLong ids = new AtomicLong();

    McpClient(StrictTarget target, Duration readTimeout) {
        this.target = target;
        this.readTimeout = readTimeout;
    }

    /**
     * One {@code tools/call}. {@code requestState} empty leaves the member out; a present value is sent as the JSON
     * value it is (a string, or any other value for the non-string check). {@code inputResponses} null leaves it out.
     */
    Reply call(Principal principal, String tool, ObjectNode arguments, ObjectNode inputResponses, Optional<JsonNode> requestState) {
        return send(toolCall(principal, tool, arguments, inputResponses, requestState, List.of(), Read.WHOLE)).reply();
    }

    /** Like {@link #call}, but a connection that cannot be made at all is thrown, not answered: the first contact. */
    Reply firstCall(String tool, ObjectNode arguments) throws CannotConnect {
        return exchange(toolCall(Principal.MAIN, tool, arguments, null, Optional.empty(), List.of(), Read.WHOLE)).reply();
    }

    /** How much of the answer a request waits for. */
    enum Read {
        /** The JSON-RPC answer to the request, from a JSON body or the event stream. */
        WHOLE,
        /** The status line and the headers; the body is left unread (a GET may open a stream that never ends). */
        HEAD,
        /** Nothing: the connection is closed as soon as the request is written, the client giving up on it. */
        NONE,
        /** Nothing, but the connection is closed only {@link #GIVE_UP_LATER} after the request: the server has it in hand. */
        NONE_LATER
    }

    /** How long {@link Read#NONE_LATER} keeps the connection open before giving up. */
    static final Duration GIVE_UP_LATER = Duration.ofSeconds(1);

    /**
     * One HTTP request: any method, headers beyond the standard ones, a JSON-RPC body (null for GET and DELETE), the
     * id that body carries, and how much of the answer to read.
     */
    record Request(String httpMethod, Principal principal, String mcpMethod, String mcpName, long id, byte[] body,
            List<Header> extraHeaders, Read read) {}

    /**
     * A reply with the response's headers (none when there was no response) and the id of the JSON-RPC response it
     * was read from (null when there was none, or its id was no integer).
     */
    record Answer(Reply reply, List<Header> headers, Long answeredId) {
        Answer(Reply reply, List<Header> headers) {
            this(reply, headers, null);
        }
    }

    /** A {@code tools/call} request with a new id, as {@link #call} sends it, with {@code extraHeaders} added. */
    Request toolCall(Principal principal, String tool, ObjectNode arguments, ObjectNode inputResponses, Optional<JsonNode> requestState,
            List<Header> extraHeaders, Read read) {
        long id = ids.incrementAndGet();
        return new Request("POST", principal, "tools/call", tool, id, body(id, tool, arguments, inputResponses, requestState),
                extraHeaders, read);
    }

    /** Any JSON-RPC request by POST ({@code tools/list}, say): params get the {@code _meta} envelope. */
    Request rpc(String method, ObjectNode params) {
        long id = ids.incrementAndGet();
        ObjectNode request = ExactJson.mapper().createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", id);
        request.put("method", method);
        ObjectNode withMeta = params.deepCopy();
        withMeta.set("_meta", meta());
        request.set("params", withMeta);
        return new Request("POST", Principal.MAIN, method, null, id, bytes(request), List.of(), Read.WHOLE);
    }

    /** A request without a body ({@code GET}, {@code DELETE}), of which only the status and the headers are read. */
    Request bare(String httpMethod, List<Header> extraHeaders) {
        return new Request(httpMethod, Principal.MAIN, null, null, 0, null, extraHeaders, Read.HEAD);
    }

    /** Sends {@code request}; a connection that cannot be made is answered as no response. */
    Answer send(Request request) {
        try {
            return exchange(request);
        } catch (CannotConnect e) {
            return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, target.redact(e.getMessage())), List.of());
        }
    }

    static ObjectNode meta() {
        ObjectNode meta = ExactJson.mapper().createObjectNode();
        meta.put("io.modelcontextprotocol/protocolVersion", PROTOCOL_VERSION);
        ObjectNode client = meta.putObject("io.modelcontextprotocol/clientInfo");
        client.put("name", "continuation-replay-lab-strict");
        client.put("version", "1");
        ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
        // All three kinds a fixture may ask for, so no fixture has a reason to refuse for a missing capability.
        capabilities.putObject("elicitation").putObject("form");
        capabilities.putObject("sampling");
        capabilities.putObject("roots").put("listChanged", true);
        return meta;
    }

    private byte[] body(long id, String tool, ObjectNode arguments, ObjectNode inputResponses, Optional<JsonNode> requestState) {
        ObjectNode request = ExactJson.mapper().createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", id);
        request.put("method", "tools/call");
        ObjectNode params = request.putObject("params");
        params.put("name", tool);
        params.set("arguments", arguments);
        if (inputResponses != null) {
            params.set("inputResponses", inputResponses);
        }
        requestState.ifPresent(state -> params.set("requestState", state));
        params.set("_meta", meta());
        return bytes(request);
    }

    private static byte[] bytes(ObjectNode request) {
        try {
            return ExactJson.mapper().writeValueAsBytes(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a request the checker built cannot be written", e);
        }
    }

    private Answer exchange(Request request) throws CannotConnect {
        URI url = target.url();
        boolean tls = "https".equals(url.getScheme());
        int port = url.getPort() > 0 ? url.getPort() : tls ? 443 : 80;
        String host = url.getHost().startsWith("[") ? url.getHost().substring(1, url.getHost().length() - 1) : url.getHost();
        Socket socket;
        try {
            socket = connect(host, port, tls);
        } catch (IOException e) {
            throw new CannotConnect("cannot connect to " + url.getHost() + ":" + port + ": " + reason(e), e);
        }
        try (socket) {
            socket.setSoTimeout((int) readTimeout.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head(url, port, tls, request));
                if (request.body() != null) {
                    out.write(request.body());
                }
                out.flush();
            } catch (IOException e) {
                // A server may answer (413, say) and close before the whole body is in: read what it said.
            }
            if (request.read() == Read.NONE) {
                return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, "given up: the connection was closed right after the request"),
                        List.of());
            }
            if (request.read() == Read.NONE_LATER) {
                try {
                    Thread.sleep(GIVE_UP_LATER.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, "given up: the connection was closed "
                        + GIVE_UP_LATER.toSeconds() + " s after the request"), List.of());
            }
            return read(new BufferedInputStream(socket.getInputStream()), request);
        } catch (SocketTimeoutException e) {
            return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, "no response within " + readTimeout.toSeconds() + " s"), List.of());
        } catch (EOFException e) {
            return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, "the connection closed before a whole response"), List.of());
        } catch (IOException e) {
            return new Answer(new Reply(ReplyKind.NO_RESPONSE, 0, null, target.redact(reason(e))), List.of());
        }
    }

    private static Socket connect(String host, int port, boolean tls) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(host, port), (int) CONNECT_TIMEOUT.toMillis());
            plain.setTcpNoDelay(true);
            if (!tls) {
                return plain;
            }
            SSLSocket secure = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, host, port, true);
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            secure.setSSLParameters(parameters);
            secure.startHandshake();
            return secure;
        } catch (IOException e) {
            plain.close();
            throw e;
        }
    }

    private byte[] head(URI url, int port, boolean tls, Request request) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        boolean defaultPort = url.getPort() < 0 || (tls ? port == 443 : port == 80);
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Host", url.getHost() + (defaultPort ? "" : ":" + port)));
        if (request.body() != null) {
            headers.add(new Header("Content-Type", "application/json"));
            headers.add(new Header("Accept", "application/json, text/event-stream"));
        } else {
            // What a client of the 2025 revisions sent to open its standalone stream or end its session.
            headers.add(new Header("Accept", "text/event-stream"));
        }
        headers.add(new Header("MCP-Protocol-Version", PROTOCOL_VERSION));
        if (request.mcpMethod() != null) {
            headers.add(new Header("Mcp-Method", request.mcpMethod()));
        }
        if (request.mcpName() != null) {
            headers.add(new Header("Mcp-Name", request.mcpName()));
        }
        Optional<String> token = request.principal() == Principal.MAIN ? this.target.bearer() : this.target.otherBearer();
        token.ifPresent(value -> headers.add(new Header("Authorization", "Bearer " + value)));
        headers.addAll(request.extraHeaders());
        if (request.body() != null) {
            headers.add(new Header("Content-Length", Integer.toString(request.body().length)));
        }
        headers.add(new Header("Connection", "close"));
        StringBuilder head = new StringBuilder(request.httpMethod() + " " + target + " HTTP/1.1\r\n");
        for (Header header : headers) {
            head.append(header.name()).append(": ").append(header.value()).append("\r\n");
        }
        return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private Answer read(InputStream in, Request request) throws IOException {
        String statusLine = HttpMessages.line(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("[0-9]{3}")) {
            return new Answer(new Reply(ReplyKind.BROKEN, 0, null, "not an HTTP response: " + excerpt(statusLine)), List.of());
        }
        int status = Integer.parseInt(parts[1]);
        List<Header> headers = HttpMessages.headers(in);
        String type = Optional.ofNullable(HttpMessages.value(headers, "Content-Type")).orElse("").toLowerCase(Locale.ROOT);
        if (request.read() == Read.HEAD) {
            boolean clientError = status >= 400 && status < 500;
            return new Answer(new Reply(clientError ? ReplyKind.HTTP_4XX : ReplyKind.BROKEN, status, null,
                    clientError ? type : "HTTP " + status + (type.isEmpty() ? "" : ", " + type)), headers);
        }
        InputStream body = bodyOf(in, headers);
        if (type.startsWith("text/event-stream")) {
            String event = fromEventStream(body, request.id());
            return event == null ? new Answer(new Reply(ReplyKind.BROKEN, status, null, "the event stream ended without a JSON-RPC response"),
                    headers) : new Answer(classify(status, event), headers, idOf(event));
        }
        String text = new String(body.readNBytes(MAX_BODY), StandardCharsets.UTF_8);
        return new Answer(classify(status, text), headers, idOf(text));
    }

    private static Long idOf(String text) {
        JsonNode message = parseOrNull(text);
        return message != null && message.path("id").isIntegralNumber() ? message.path("id").asLong() : null;
    }

    /**
     * Reads events until the one answering this request: a server may keep the stream open after it, so reading to
     * the end could wait forever. Notifications and other events before it are passed over; at the stream's end the
     * last response in it is taken (null when there was none).
     */
    private static String fromEventStream(InputStream body, long id) throws IOException {
        StringBuilder data = new StringBuilder();
        String last = null;
        while (true) {
            String line = eventLine(body);
            if (line == null || line.isEmpty()) {
                if (data.length() > 0) {
                    String event = data.toString();
                    data.setLength(0);
                    JsonNode message = parseOrNull(event);
                    if (message != null && message.isObject() && (message.has("result") || message.has("error"))) {
                        last = event;
                        if (message.path("id").isIntegralNumber() && message.path("id").asLong() == id) {
                            return event;
                        }
                    }
                }
                if (line == null) {
                    return last;
                }
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                data.append(data.length() > 0 ? "\n" : "").append(value.startsWith(" ") ? value.substring(1) : value);
            }
        }
    }

    /** Judges one body: a JSON-RPC response by its contents, anything else by the HTTP status. */
    static Reply classify(int status, String text) {
        JsonNode message = parseOrNull(text);
        if (message != null && message.isObject() && message.has("error") && message.get("error").isObject()) {
            JsonNode error = message.get("error");
            String detail = (error.path("code").isNumber() ? error.path("code").asText() + " " : "") + error.path("message").asText("");
            return new Reply(ReplyKind.JSON_RPC_ERROR, status, null, excerpt(detail.trim()));
        }
        if (message != null && message.isObject() && message.has("result") && message.get("result").isObject()) {
            JsonNode result = message.get("result");
            JsonNode type = result.get("resultType");
            if (result.path("isError").asBoolean(false)) {
                return new Reply(ReplyKind.TOOL_ERROR, status, result, excerpt(firstText(result)));
            }
            if (type == null || "complete".equals(type.asText())) {
                return new Reply(ReplyKind.COMPLETED, status, result, excerpt(firstText(result)));
            }
            if ("input_required".equals(type.asText())) {
                return new Reply(ReplyKind.INPUT_REQUIRED, status, result, "");
            }
            return new Reply(ReplyKind.OTHER_RESULT, status, result, "resultType " + excerpt(type.toString()));
        }
        if (status >= 400 && status < 500) {
            return new Reply(ReplyKind.HTTP_4XX, status, null, excerpt(text.trim()));
        }
        return new Reply(ReplyKind.BROKEN, status, null, "HTTP " + status + (text.isBlank() ? ", empty body" : ": " + excerpt(text.trim())));
    }

    /** The first text content of a result, which is where the fixtures put their word. */
    static String firstText(JsonNode result) {
        for (JsonNode item : result.path("content")) {
            if ("text".equals(item.path("type").asText()) && item.path("text").isTextual()) {
                return item.path("text").textValue();
            }
        }
        return "";
    }

    private static JsonNode parseOrNull(String text) {
        try {
            return ExactJson.parse(text);
        } catch (CanonicalJsonException e) {
            return null;
        }
    }

    static String excerpt(String text) {
        String flat = text.replaceAll("[\\r\\n\\t]+", " ");
        return flat.length() <= 160 ? flat : flat.substring(0, 157) + "...";
    }

    private static String reason(IOException e) {
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SocketTimeoutException) {
            return "timed out";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** The body as delivered: de-chunked, cut at its length, or up to the end of the connection. */
    private static InputStream bodyOf(InputStream in, List<Header> headers) throws IOException {
        String encoding = HttpMessages.value(headers, "Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return new Chunked(in);
        }
        String length = HttpMessages.value(headers, "Content-Length");
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw new IOException("a Content-Length that is not a number: " + excerpt(length));
            }
            return new Bounded(in, n);
        }
        return in;
    }

    /** Chunked transfer coding, read as the chunks arrive (an event stream may never end). */
    private static final class Chunked extends InputStream {
        private final InputStream in;
        private long left;
        private boolean ended;

        Chunked(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (ended) {
                return -1;
            }
            if (left == 0) {
                String size = HttpMessages.line(in);
                int semicolon = size.indexOf(';');
                String digits = (semicolon < 0 ? size : size.substring(0, semicolon)).trim();
                if (!digits.matches("[0-9A-Fa-f]{1,8}")) {
                    throw new IOException("a chunk size that is not hexadecimal: " + excerpt(size));
                }
                left = Long.parseLong(digits, 16);
                if (left == 0) {
                    ended = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("closed in the middle of a chunk");
            }
            left -= n;
            if (left == 0) {
                HttpMessages.line(in);
            }
            return n;
        }
    }

    /** A body of a declared length. */
    private static final class Bounded extends FilterInputStream {
        private long left;

        Bounded(InputStream in, long length) {
            super(in);
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("closed in the middle of a body");
            }
            left -= n;
            return n;
        }
    }

    /**
     * One line of an event stream as UTF-8 (a head line is Latin-1, an event's JSON is not), or null at the end. A
     * data line may be as long as a body: a server may echo a large state in its error.
     */
    static String eventLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b = in.read();
        if (b < 0) {
            return null;
        }
        for (; b >= 0 && b != '\n'; b = in.read()) {
            line.write(b);
            if (line.size() > MAX_BODY) {
                throw new IOException("an event-stream line over " + MAX_BODY + " bytes");
            }
        }
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
