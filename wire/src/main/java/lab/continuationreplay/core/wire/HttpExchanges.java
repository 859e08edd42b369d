package lab.continuationreplay.core.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;

/**
 * HTTP/1.1 exchanges with one loopback server, each on a connection of its own ({@code Connection: close}), written
 * and read as raw bytes so the transcript holds exactly what went over the socket: no client library retries a POST,
 * pools a connection the server has closed, or decodes a body behind the lab's back. A bearer token never reaches
 * the transcript: the {@code Authorization} value is replaced by the name of the token's principal.
 */
public final class HttpExchanges {
    /** What came back: the status and headers as received, and the body as delivered (chunked encoding removed). */
    public record Response(int status, String reason, List<Header> headers, byte[] body) {
        public String header(String name) {
            return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** The exchange ended without a complete response: {@link #ended()} says how (closed, reset, timed out). */
    public static final class NoResponse extends TransportFailure {
        private static final long serialVersionUID = 1L;
        private final String ended;

        NoResponse(String ended, String name) {
            super(name + ": no HTTP response: " + ended);
            this.ended = ended;
        }

        public String ended() {
            return ended;
        }
    }

    /**
     * Who the exchanges speak to and what never reaches the transcript.
     *
     * @param principalsByToken every token the lab holds, by value, so its principal can name it in the transcript;
     *                          any other token is shown only by its length
     * @param secretHeaders     names of further headers (a user's own, given to {@code lab probe}) whose values are
     *                          shown only by their length
     * @param remoteAllowed     whether a host other than loopback may be the endpoint (only on a user's explicit
     *                          {@code --allow-remote}; the lab's own runs never)
     */
    public record Options(Map<String, String> principalsByToken, java.util.Set<String> secretHeaders, boolean remoteAllowed) {
        public Options {
            principalsByToken = Map.copyOf(principalsByToken);
            secretHeaders = secretHeaders.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.toUnmodifiableSet());
        }

        public static Options tokens(Map<String, String> principalsByToken) {
            return new Options(principalsByToken, java.util.Set.of(), false);
        }
    }

    private final URI endpoint;
    private final Transcript transcript;
    private final Duration readTimeout;
    private final Options options;
    private final String name;
    private final AtomicInteger exchanges = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();

    /**
     * @param principalsByToken every token the lab holds, by value, so its principal can name it in the transcript;
     *                          any other token is shown only by its length
     */
    public HttpExchanges(URI endpoint, Transcript transcript, Duration readTimeout, Map<String, String> principalsByToken,
            String name) {
        this(endpoint, transcript, readTimeout, Options.tokens(principalsByToken), name);
    }

    public HttpExchanges(URI endpoint, Transcript transcript, Duration readTimeout, Options options, String name) {
        // List.of(...).contains(null) throws: an endpoint without a host (http:///mcp) must be refused, not crash.
        if (!"http".equals(endpoint.getScheme()) || endpoint.getHost() == null
                || !(options.remoteAllowed() || LOOPBACK.contains(endpoint.getHost()))) {
            throw new IllegalArgumentException("the lab talks HTTP to loopback servers only, not " + endpoint);
        }
        // Without a port the socket would be opened on port -1 only when the first exchange is already transcribed.
        if (endpoint.getPort() < 1 || endpoint.getPort() > 65535) {
            throw new IllegalArgumentException("the lab talks HTTP to a server's own port, and names it: not " + endpoint);
        }
        this.endpoint = endpoint;
        this.transcript = transcript;
        this.readTimeout = readTimeout;
        this.options = options;
        this.name = name;
    }

    private static final List<String> LOOPBACK = List.of("127.0.0.1", "localhost", "[::1]");

    public URI endpoint() {
        return endpoint;
    }

    /** The {@code Host} header value a well-behaved client sends to this server. */
    public String host() {
        return endpoint.getHost() + ":" + endpoint.getPort();
    }

    /**
     * One exchange: {@code method target HTTP/1.1}, {@code Host}, the given headers in order, {@code Content-Length}
     * (when there is a body or the method is POST) and {@code Connection: close}, then the body.
     *
     * @throws NoResponse when the connection ends or stalls before a whole response arrived
     */
    public Response exchange(String method, List<Header> headers, byte[] body) throws TransportFailure {
        return exchangeAsIs(requestLine(method), wellBehaved(method, headers, body), body);
    }

    private String requestLine(String method) {
        return method + " " + endpoint.getRawPath() + " HTTP/1.1";
    }

    /** {@code Host}, the given headers in order, {@code Content-Length} (with a body, or on POST), {@code Connection: close}. */
    private List<Header> wellBehaved(String method, List<Header> headers, byte[] body) {
        List<Header> all = new ArrayList<>();
        all.add(new Header("Host", host()));
        all.addAll(headers);
        if (body.length > 0 || method.equals("POST")) {
            all.add(new Header("Content-Length", Integer.toString(body.length)));
        }
        all.add(new Header("Connection", "close"));
        return all;
    }

    /** The request line and headers as they go over the socket. */
    private static byte[] head(String requestLine, List<Header> headers) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.writeBytes((requestLine + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (Header header : headers) {
            head.writeBytes((header.name() + ": " + header.value() + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        head.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return head.toByteArray();
    }

    /** A connection to the endpoint, reads timing out after the read timeout. */
    private Socket connected() throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(endpoint.getHost().replace("[", "").replace("]", ""), endpoint.getPort()),
                    (int) readTimeout.toMillis());
            socket.setSoTimeout((int) readTimeout.toMillis());
            socket.setTcpNoDelay(true);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends a request as {@link #exchange} does and closes the connection at once, without reading anything: a client
     * that gives up on its request the moment it is written (lab probe's p2b). The transcript records the request and
     * {@code <x} saying so.
     */
    public void cutAfterRequest(String method, List<Header> headers, byte[] body) throws TransportFailure {
        List<Header> all = wellBehaved("POST", headers, body);
        String requestLine = requestLine(method);
        int exchange = exchanges.incrementAndGet();
        int connection = connections.incrementAndGet();
        transcript.request(HttpHead.request(exchange, connection, requestLine, redacted(all)), body);
        try (Socket socket = connected()) {
            OutputStream out = socket.getOutputStream();
            out.write(head(requestLine, all));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            transcript.noResponse(HttpHead.noResponse(exchange, connection, "connection failed: " + e.getMessage()));
            throw new NoResponse("connection failed: " + e.getMessage(), name);
        }
        transcript.noResponse(HttpHead.noResponse(exchange, connection, "closed by the client right after the request"));
    }

    /**
     * One exchange with exactly the request line and headers given (no {@code Host} or length added): for requests a
     * well-behaved client would not send. Header names and values go out as given, so they may hold anything.
     */
    public Response exchangeAsIs(String requestLine, List<Header> headers, byte[] body) throws TransportFailure {
        int exchange = exchanges.incrementAndGet();
        int connection = connections.incrementAndGet();
        transcript.request(HttpHead.request(exchange, connection, requestLine, redacted(headers)), body);
        try (Socket socket = connected()) {
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head(requestLine, headers));
                out.write(body);
                out.flush();
            } catch (IOException e) {
                // The server may answer (413, say) and close before the whole body is written: read what it said.
            }
            Response response = read(new BufferedInputStream(socket.getInputStream()), requestLine.startsWith("HEAD "));
            transcript.response(HttpHead.response(exchange, connection, response.status(), response.headers()), response.body());
            return response;
        } catch (NoResponse e) {
            transcript.noResponse(HttpHead.noResponse(exchange, connection, e.ended()));
            throw e;
        } catch (SocketTimeoutException e) {
            transcript.noResponse(HttpHead.noResponse(exchange, connection, "no response within " + readTimeout.toMillis() + " ms"));
            throw new NoResponse("no response within " + readTimeout.toMillis() + " ms", name);
        } catch (IOException e) {
            String ended = "connection failed: " + e.getMessage();
            transcript.noResponse(HttpHead.noResponse(exchange, connection, ended));
            throw new NoResponse(ended, name);
        }
    }

    /** One event of an event stream: its {@code id} (null without one) and its data lines joined (null without any). */
    public record Event(String id, String data) {}

    /** What a streamed exchange does with each event as it arrives: true reads on, false closes the connection at once. */
    @FunctionalInterface
    public interface EventSink {
        boolean accept(Event event) throws TransportFailure;
    }

    /** How the reading of a streamed response ended. */
    public enum End {
        /** the server ended the body */
        COMPLETE,
        /** the sink asked to close the connection */
        CLOSED_BY_CLIENT,
        /** nothing came for the quiet time, and the client closed the connection */
        QUIET
    }

    /** A streamed response: the status, headers and the body as far as it was read, and how the reading ended. */
    public record Streamed(Response response, End end) {}

    /**
     * One exchange as {@link #exchange} sends it, whose event stream is read event by event while the server writes:
     * each event goes to {@code sink} the moment its blank line arrives, so the caller can answer a request from the
     * server, or close the connection after a priming event. A JSON body is read whole. The transcript records the
     * bytes read; a response the client closed says so in its head's {@code ended}.
     *
     * @param quiet null: a stalled body fails as in {@link #exchange}; else a stall that long ends the reading
     *              ({@link End#QUIET}), for a stream that a server keeps open
     */
    public Streamed stream(String method, List<Header> headers, byte[] body, EventSink sink, Duration quiet) throws TransportFailure {
        List<Header> all = wellBehaved(method, headers, body);
        String requestLine = requestLine(method);
        int exchange = exchanges.incrementAndGet();
        int connection = connections.incrementAndGet();
        transcript.request(HttpHead.request(exchange, connection, requestLine, redacted(all)), body);
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        Head answer = null;
        try (Socket socket = connected()) {
            OutputStream out = socket.getOutputStream();
            out.write(head(requestLine, all));
            out.write(body);
            out.flush();
            BufferedInputStream in = new BufferedInputStream(socket.getInputStream());
            answer = head(in);
            String type = HttpMessages.value(answer.headers(), "Content-Type");
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                byte[] whole = answer.status() == 204 || answer.status() == 304 ? new byte[0] : HttpMessages.body(in, answer.headers(), true);
                transcript.response(HttpHead.response(exchange, connection, answer.status(), answer.headers()), whole);
                return new Streamed(new Response(answer.status(), "", answer.headers(), whole), End.COMPLETE);
            }
            if (quiet != null) {
                socket.setSoTimeout((int) quiet.toMillis());
            }
            End end = events(BodyStream.of(in, answer.headers()), read, sink, quiet != null);
            String ended = switch (end) {
                case COMPLETE -> null;
                case CLOSED_BY_CLIENT -> "closed by the client after an event";
                case QUIET -> "closed by the client after " + quiet.toMillis() + " ms without an event";
            };
            transcript.response(new HttpHead(exchange, connection, null, answer.status(), ended, answer.headers()), read.toByteArray());
            return new Streamed(new Response(answer.status(), "", answer.headers(), read.toByteArray()), end);
        } catch (NoResponse e) {
            transcribeCut(exchange, connection, answer, read, e.ended());
            throw e;
        } catch (SocketTimeoutException e) {
            String ended = "no response within " + readTimeout.toMillis() + " ms";
            transcribeCut(exchange, connection, answer, read, ended);
            throw new NoResponse(ended, name);
        } catch (IOException e) {
            String ended = (answer == null ? "connection failed: " : "closed in the middle of the response body: ") + e.getMessage();
            transcribeCut(exchange, connection, answer, read, ended);
            throw new NoResponse(ended, name);
        }
    }

    /** A response's status and headers. */
    private record Head(int status, List<Header> headers) {}

    private Head head(InputStream in) throws IOException, NoResponse {
        try {
            String statusLine = HttpMessages.line(in);
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("[0-9]{3}")) {
                throw new NoResponse("not an HTTP response: " + (statusLine.length() > 80 ? statusLine.substring(0, 80) : statusLine), name);
            }
            return new Head(Integer.parseInt(parts[1]), List.copyOf(HttpMessages.headers(in)));
        } catch (EOFException | java.net.SocketException e) {
            throw new NoResponse("closed before a response", name);
        }
    }

    private void transcribeCut(int exchange, int connection, Head answer, ByteArrayOutputStream read, String ended) {
        if (answer == null) {
            transcript.noResponse(HttpHead.noResponse(exchange, connection, ended));
        } else {
            transcript.response(new HttpHead(exchange, connection, null, answer.status(), ended, answer.headers()), read.toByteArray());
        }
    }

    /** Reads events until the body ends, the sink says stop, or (with a quiet time) nothing comes; keeps every byte read. */
    private static End events(InputStream body, ByteArrayOutputStream read, EventSink sink, boolean quietEnds)
            throws IOException, TransportFailure {
        String id = null;
        StringBuilder data = null;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            for (int b = body.read(); ; b = body.read()) {
                if (b >= 0) {
                    read.write(b);
                }
                if (b >= 0 && b != '\n') {
                    line.write(b);
                    continue;
                }
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (text.endsWith("\r")) {
                    text = text.substring(0, text.length() - 1);
                }
                if (text.isEmpty() && b >= 0) {
                    if ((id != null || data != null) && !sink.accept(new Event(id, data == null ? null : data.toString()))) {
                        return End.CLOSED_BY_CLIENT;
                    }
                    id = null;
                    data = null;
                } else if (text.equals("id") || text.startsWith("id:")) {
                    id = field(text, 2);
                } else if (text.equals("data") || text.startsWith("data:")) {
                    data = data == null ? new StringBuilder(field(text, 4)) : data.append('\n').append(field(text, 4));
                }
                if (b < 0) {
                    if ((id != null || data != null)) {
                        sink.accept(new Event(id, data == null ? null : data.toString()));
                    }
                    return End.COMPLETE;
                }
            }
        } catch (SocketTimeoutException quiet) {
            if (!quietEnds) {
                throw quiet;
            }
            return End.QUIET;
        }
    }

    /** A field's value after its name: one space after the colon is not part of it (WHATWG HTML, event streams). */
    private static String field(String line, int nameLength) {
        String rest = line.substring(nameLength);
        return rest.startsWith(": ") ? rest.substring(2) : rest.isEmpty() ? "" : rest.substring(1);
    }

    private Response read(InputStream in, boolean headRequest) throws IOException, NoResponse {
        String statusLine;
        try {
            statusLine = HttpMessages.line(in);
        } catch (EOFException e) {
            throw new NoResponse("closed before a response", name);
        } catch (java.net.SocketException e) {
            throw new NoResponse("reset before a response (" + e.getMessage() + ")", name);
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("[0-9]{3}")) {
            throw new NoResponse("not an HTTP response: " + (statusLine.length() > 80 ? statusLine.substring(0, 80) : statusLine), name);
        }
        int status = Integer.parseInt(parts[1]);
        List<Header> headers;
        byte[] body;
        try {
            headers = HttpMessages.headers(in);
        } catch (EOFException | java.net.SocketException e) {
            throw new NoResponse("closed in the middle of the response head", name);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            // HttpMessages' own refusals: the connection worked, the bytes on it were no HTTP head
            throw new NoResponse("not an HTTP response: " + e.getMessage(), name);
        }
        try {
            // A response to HEAD has no body, whatever its Content-Length says (RFC 9110, 9.3.2).
            body = headRequest || status == 204 || status == 304 ? new byte[0] : HttpMessages.body(in, headers, true);
        } catch (EOFException | java.net.SocketException e) {
            throw new NoResponse("closed in the middle of the response body (" + status + ")", name);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new NoResponse("not an HTTP response: " + e.getMessage(), name);
        }
        return new Response(status, parts.length > 2 ? parts[2] : "", List.copyOf(headers), body);
    }

    private List<Header> redacted(List<Header> headers) {
        return HttpMessages.redacted(headers, options.principalsByToken()).stream()
                .map(h -> options.secretHeaders().contains(h.name().toLowerCase(Locale.ROOT))
                        ? new Header(h.name(), "[redacted, " + h.value().length() + " characters]") : h)
                .toList();
    }
}
