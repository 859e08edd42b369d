package lab.continuationreplay.core.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.core.wire.HttpMessages;

/**
 * A recording HTTP/1.1 relay in front of one loopback MCP server: clients (the SDK clients of {@code lab clients}, the
 * fault lab's traffic) talk to {@link #endpoint()}; each request is read whole, handed to the {@link ExchangePlan},
 * and sent to the server on a connection of its own. The transcript holds every exchange as the server saw it
 * (request and response, tokens redacted), so the checker reads an HTTP relay's transcript exactly as it reads the
 * runner's; what the relay did to an exchange on the way back (a dropped or cut response) goes to the relay log, as
 * the stdio relay's dropped replies do. Keeps client connections alive as HTTP/1.1 expects, so a client library
 * meets a lost reply on the connection it reuses.
 */
public final class HttpRelay implements AutoCloseable {
    static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "transfer-encoding", "content-length",
            "te", "trailer", "upgrade", "proxy-connection");

    /** One thing the relay did that the client did not see as the server meant it. */
    public record Event(int exchange, String action, String detail) {}

    /** The action of an {@link Event} for an {@link ExchangePlan.DropResponse} the relay carried out. */
    public static final String DROP_RESPONSE = "drop_response";
    /** The action of an {@link Event} for an {@link ExchangePlan.HoldResponse}. */
    public static final String HOLD_RESPONSE = "hold_response";

    private final URI upstream;
    private final Transcript transcript;
    private final ExchangePlan plan;
    private final Duration readTimeout;
    private final java.util.function.UnaryOperator<List<Header>> redaction;
    private final ServerSocket listener;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "http-relay");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Event> events = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger exchanges = new AtomicInteger();
    private final AtomicInteger connectionCount = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean closed;

    private HttpRelay(int port, URI upstream, Transcript transcript, ExchangePlan plan, Duration readTimeout,
            java.util.function.UnaryOperator<List<Header>> redaction) throws IOException {
        this.upstream = upstream;
        this.transcript = transcript;
        this.plan = plan;
        this.readTimeout = readTimeout;
        this.redaction = redaction;
        this.listener = new ServerSocket(port, 64, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "http-relay-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Listens on a free loopback port in front of {@code upstream} (a loopback {@code http://} URL).
     *
     * @param principalsByToken the run's tokens, so the transcript names each by its principal
     */
    public static HttpRelay start(URI upstream, Transcript transcript, ExchangePlan plan, Duration readTimeout,
            Map<String, String> principalsByToken) throws IOException {
        Map<String, String> tokens = Map.copyOf(principalsByToken);
        return start(0, upstream, transcript, plan, readTimeout, headers -> HttpMessages.redacted(headers, tokens));
    }

    /**
     * As above, on loopback port {@code port} (0: a free one), with the request heads written to the transcript as
     * {@code redaction} makes them: lab proxy relays a stranger's client, whose every header value may be a secret.
     */
    public static HttpRelay start(int port, URI upstream, Transcript transcript, ExchangePlan plan, Duration readTimeout,
            java.util.function.UnaryOperator<List<Header>> redaction) throws IOException {
        if (!"http".equals(upstream.getScheme()) || !"127.0.0.1".equals(upstream.getHost())) {
            throw new IllegalArgumentException("the relay forwards to 127.0.0.1 only, not " + upstream);
        }
        if (upstream.getPort() < 1 || upstream.getPort() > 65535) {
            throw new IllegalArgumentException("the relay forwards to a server's own port, and the upstream names none: " + upstream);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a port is 0 to 65535, not " + port);
        }
        return new HttpRelay(port, upstream, transcript, plan, readTimeout, redaction);
    }

    /** Where clients connect: {@code http://127.0.0.1:PORT} plus the upstream's path. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + upstream.getRawPath());
    }

    /** What the relay did to exchanges, in the order it did it. */
    public List<Event> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (closed) {
                // accepted while close() ran (a blocked accept() still takes a connection until it is woken):
                // end it rather than leave it open and unserved
                closeQuietly(client);
                return;
            }
            open.add(client);
            int connection = connectionCount.incrementAndGet();
            try {
                connections.execute(() -> serve(client, connection));
            } catch (java.util.concurrent.RejectedExecutionException shutDown) {
                open.remove(client);
                closeQuietly(client);
                return;
            }
        }
    }

    private void serve(Socket client, int connection) {
        try (client) {
            client.setSoTimeout((int) readTimeout.toMillis());
            client.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            while (!closed) {
                Request request = readRequest(in);
                if (request == null) {
                    return; // the client closed its connection between requests
                }
                if (!relay(request, new ClientSide(client, connection, in, out))) {
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away or stalled; its connection ends here
        } finally {
            open.remove(client);
        }
    }

    /** The client's connection: its socket, its number in the transcript, and its two streams. */
    private record ClientSide(Socket socket, int connection, InputStream in, OutputStream out) {}

    /** One exchange as the plan says; answers whether the client's connection goes on. */
    private boolean relay(Request request, ClientSide client) throws IOException, InterruptedException {
        int exchange = exchanges.incrementAndGet();
        int connection = client.connection();
        HttpHead head = HttpHead.request(exchange, connection, request.line(), redacted(request.headers()));
        ExchangePlan.Action action = plan.decide(exchange, head, request.body());
        if (action instanceof ExchangePlan.Delay delay) {
            events.add(new Event(exchange, "delay", delay.delay().toMillis() + " ms"));
            Thread.sleep(delay.delay().toMillis());
        }
        Upstream answer;
        if (action instanceof ExchangePlan.InspectEvents tap) {
            answer = forward(exchange, connection, request, head, new EventStreamRelay.Tap(client.socket(), client.out(), tap));
            if (answer != null && answer.relayed() != null) {
                tap.events().ended(exchange, answer.status(), answer.relayed() == EventStreamRelay.Relayed.HELD
                        ? awaitClientClose(client.in()) : answer.relayed() == EventStreamRelay.Relayed.DROPPED);
                return false; // an event stream ends its connection (Connection: close), whatever became of it
            }
            action = answer == null ? action : tap.whole().decide(exchange, answer.status(), answer.body());
        } else {
            answer = forward(exchange, connection, request, head, null);
            if (action instanceof ExchangePlan.Duplicate) {
                events.add(new Event(exchange, "duplicate", "the request went to the server twice"));
                // one number for both records: another connection may take the next one in between
                int again = exchanges.incrementAndGet();
                answer = forward(again, connection, request, HttpHead.request(again, connection, request.line(),
                        redacted(request.headers())), null);
            }
            if (answer != null && action instanceof ExchangePlan.Inspect inspect) {
                action = inspect.rule().decide(exchange, answer.status(), answer.body());
            }
        }
        // no response from the server: the client's connection ends without one too
        return answer != null && respond(action, exchange, answer, request, client);
    }

    /** The server's response to the client as {@code action} says; answers whether the client's connection goes on. */
    private boolean respond(ExchangePlan.Action action, int exchange, Upstream answer, Request request, ClientSide client)
            throws IOException {
        if (action instanceof ExchangePlan.HoldResponse hold) {
            events.add(new Event(exchange, HOLD_RESPONSE, "held the " + answer.status() + " response; the client's"
                    + " connection stays open and silent"));
            hold.clientLeft().accept(awaitClientClose(client.in()));
            return false;
        }
        if (action instanceof ExchangePlan.DropResponse) {
            events.add(new Event(exchange, DROP_RESPONSE, "closed the client's connection without the "
                    + answer.status() + " response"));
            return false;
        }
        byte[] bytes = answer.bytes(request.keepAlive());
        if (action instanceof ExchangePlan.ResetMidResponse) {
            events.add(new Event(exchange, "reset_mid_response", "sent " + bytes.length / 2 + " of " + bytes.length
                    + " bytes, then reset"));
            client.out().write(bytes, 0, bytes.length / 2);
            client.out().flush();
            client.socket().setSoLinger(true, 0);
            return false;
        }
        client.out().write(bytes);
        client.out().flush();
        return request.keepAlive();
    }

    /**
     * Until the client closes its connection (true), or the relay does or the read timeout passes (false); whatever
     * the client sends meanwhile goes nowhere: it waits for a response that will not come.
     */
    private boolean awaitClientClose(InputStream in) {
        try {
            while (in.read() >= 0) {
                continue;
            }
            return true;
        } catch (IOException ended) {
            return !closed && !(ended instanceof java.net.SocketTimeoutException);
        }
    }

    /** The request to the server on its own connection: the client's headers less the hop-by-hop ones, Host its own. */
    private void send(Socket server, Request request) throws IOException {
        List<Header> headers = new ArrayList<>();
        for (Header header : request.withHost(upstreamAuthority()).headers()) {
            if (!HOP_BY_HOP.contains(header.name().toLowerCase(Locale.ROOT))) {
                headers.add(header);
            }
        }
        headers.add(new Header("Content-Length", Integer.toString(request.body().length)));
        headers.add(new Header("Connection", "close"));
        server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstream.getPort()), (int) readTimeout.toMillis());
        server.setSoTimeout((int) readTimeout.toMillis());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes((request.line() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        for (Header header : headers) {
            bytes.writeBytes((header.name() + ": " + header.value() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        bytes.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(request.body());
        OutputStream out = server.getOutputStream();
        out.write(bytes.toByteArray());
        out.flush();
    }

    /** An event stream relayed to the client as it comes ({@link EventStreamRelay}), recorded once it ends. */
    private Upstream streamed(int exchange, int connection, Upstream head, InputStream in, EventStreamRelay.Tap tap) {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        EventStreamRelay.Relayed relayed = EventStreamRelay.Relayed.FORWARDED;
        String ended = null;
        try {
            relayed = EventStreamRelay.relay(exchange, head.status(), head.reason(), head.headers(), in, tap, read, events::add);
        } catch (IOException cut) {
            ended = closed ? "closed by the relay's end" : "the stream ended early: " + cut.getMessage();
        }
        transcript.response(new HttpHead(exchange, connection, null, head.status(), ended, head.headers()), read.toByteArray());
        return new Upstream(head.status(), head.reason(), head.headers(), read.toByteArray(), relayed);
    }

    /**
     * The server's response, recorded; null (and a no-response record) when none came. With a tap, an event stream is
     * relayed to the client as it arrives and the answer says what became of it ({@link Upstream#relayed()}).
     */
    private Upstream forward(int exchange, int connection, Request request, HttpHead head, EventStreamRelay.Tap tap) {
        transcript.request(head, request.body());
        Socket server = new Socket();
        open.add(server); // so close() ends a stream the server keeps open
        try (server) {
            send(server, request);
            InputStream in = new BufferedInputStream(server.getInputStream());
            String status;
            try {
                status = HttpMessages.line(in);
            } catch (EOFException e) {
                transcript.noResponse(HttpHead.noResponse(exchange, connection, "closed before a response"));
                return null;
            }
            String[] parts = status.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("[0-9]{3}")) {
                // as HttpExchanges records it; parsing it anyway recorded "no response: Index 1 out of bounds ..."
                transcript.noResponse(HttpHead.noResponse(exchange, connection, "not an HTTP response: "
                        + (status.length() > 80 ? status.substring(0, 80) : status)));
                return null;
            }
            int code = Integer.parseInt(parts[1]);
            List<Header> responseHeaders;
            byte[] body;
            try {
                responseHeaders = HttpMessages.headers(in);
                String type = HttpMessages.value(responseHeaders, "Content-Type");
                if (tap != null && type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                    return streamed(exchange, connection, new Upstream(code, parts.length > 2 ? parts[2] : "", responseHeaders,
                            new byte[0], null), in, tap);
                }
                body = code == 204 || code == 304 || request.line().startsWith("HEAD ") ? new byte[0] : HttpMessages.body(in, responseHeaders, true);
            } catch (EOFException | java.net.SocketException | java.net.SocketTimeoutException e) {
                throw e;
            } catch (IOException e) {
                // HttpMessages' own refusals: the server answered, with bytes that are no HTTP head or body
                transcript.noResponse(HttpHead.noResponse(exchange, connection, "not an HTTP response: " + e.getMessage()));
                return null;
            }
            transcript.response(HttpHead.response(exchange, connection, code, responseHeaders), body);
            return new Upstream(code, parts.length > 2 ? parts[2] : "", responseHeaders, body, null);
        } catch (IOException | RuntimeException e) {
            transcript.noResponse(HttpHead.noResponse(exchange, connection, "no response: " + e.getMessage()));
            return null;
        } finally {
            open.remove(server);
        }
    }

    private record Request(String line, List<Header> headers, byte[] body, boolean keepAlive) {
        /**
         * The request with its {@code Host} naming the server, as a reverse proxy sends it (nginx's default): the
         * client addressed the relay, and a server that guards against DNS rebinding (the Java server compares
         * {@code Host} with its own address and port) refuses any other with 403. Only the bytes to the server change;
         * the transcript keeps the head as the client sent it, as it does for the hop-by-hop headers.
         */
        Request withHost(String authority) {
            List<Header> rewritten = new ArrayList<>();
            boolean replaced = false;
            // every Host line keeps its place, so a request that carried two still does: the relay fixes the address,
            // it does not repair a malformed request the server should see as sent
            for (Header header : headers) {
                boolean host = header.name().equalsIgnoreCase("Host");
                rewritten.add(host ? new Header(header.name(), authority) : header);
                replaced |= host;
            }
            if (!replaced) {
                rewritten.add(0, new Header("Host", authority));
            }
            return new Request(line, rewritten, body, keepAlive);
        }
    }

    private String upstreamAuthority() {
        return "127.0.0.1:" + upstream.getPort();
    }

    /** @param relayed null: the body was read whole and is still to be sent; else the stream went to the client as it came */
    private record Upstream(int status, String reason, List<Header> headers, byte[] body, EventStreamRelay.Relayed relayed) {
        /** The response for the client, de-chunked with a length, and the connection kept or closed as the client asked. */
        byte[] bytes(boolean keepAlive) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(("HTTP/1.1 " + status + " " + reason + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            for (Header header : headers) {
                if (!HOP_BY_HOP.contains(header.name().toLowerCase(Locale.ROOT))) {
                    out.writeBytes((header.name() + ": " + header.value() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                }
            }
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(("Connection: " + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(body);
            return out.toByteArray();
        }
    }

    /** The next request on a client connection, or null when the client closed it before sending one. */
    private static Request readRequest(InputStream in) throws IOException {
        String line;
        try {
            line = HttpMessages.line(in);
            while (line.isEmpty()) {
                line = HttpMessages.line(in); // a stray CRLF between requests is allowed
            }
        } catch (EOFException e) {
            return null;
        }
        List<Header> headers = HttpMessages.headers(in);
        byte[] body = HttpMessages.body(in, headers, false);
        boolean http10 = line.endsWith("HTTP/1.0");
        String connection = String.valueOf(HttpMessages.value(headers, "Connection")).toLowerCase(Locale.ROOT);
        boolean keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");
        return new Request(line, headers, body, keepAlive);
    }

    private List<Header> redacted(List<Header> headers) {
        return redaction.apply(headers);
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /**
     * Stops listening and ends every client connection. When it returns the port takes no connection: the acceptor
     * has left {@code accept()} (the kernel keeps a listening socket alive while a thread is blocked accepting on it).
     */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // already closed
        }
        if (Thread.currentThread() != acceptor) {
            try {
                acceptor.join(ACCEPTOR_LIMIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        connections.shutdownNow();
        try {
            // a connection thread still writes its exchange to the transcript: the caller closes that next
            connections.awaitTermination(ACCEPTOR_LIMIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How long close() waits for the acceptor to leave accept() once the listener is closed (it is woken at once). */
    private static final Duration ACCEPTOR_LIMIT = Duration.ofSeconds(5);
}
