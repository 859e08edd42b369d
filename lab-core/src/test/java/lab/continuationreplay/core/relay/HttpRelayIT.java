package lab.continuationreplay.core.relay;

import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.core.wire.ExchangePlan;
import static lab.continuationreplay.core.wire.RawHttpPeer.closeAtOnce;
import static lab.continuationreplay.core.wire.RawHttpPeer.respond;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.RawHttpPeer;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.history.Transcript.Direction;
import lab.continuationreplay.history.Transcript.Kind;
import lab.continuationreplay.history.Transcript.Line;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP relay between a client (raw sockets, or the lab's {@link HttpExchanges}) and a raw socket peer playing the
 * server, on 127.0.0.1: what each side receives under every {@link ExchangePlan} action, what the transcript (the
 * server's side) holds, and what {@link HttpRelay#events()} says the relay did.
 */
class HttpRelayIT {
    private static final String TOKEN = "tok-alice-0123456789abcdef0123456789abcdef";
    private static final Duration PATIENT = Duration.ofSeconds(20);
    private static final String BODY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}";

    @TempDir
    Path dir;

    private final List<AutoCloseable> resources = new ArrayList<>();
    /** Every call of the plan: the exchange number and the request head it was given. */
    private final List<HttpHead> decided = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private <T extends AutoCloseable> T closing(T resource) {
        resources.add(resource);
        return resource;
    }

    private Path relayTranscript() {
        return dir.resolve("server.transcript.log");
    }

    /** A relay in front of {@code peer} whose plan takes {@code actions} for exchanges 1, 2, ... and forwards the rest. */
    private HttpRelay relay(RawHttpPeer peer, ExchangePlan.Action... actions) throws IOException {
        Transcript transcript = closing(new Transcript(relayTranscript()));
        ExchangePlan plan = (exchange, request, body) -> {
            decided.add(request);
            return exchange <= actions.length ? actions[exchange - 1] : ExchangePlan.FORWARD;
        };
        return closing(HttpRelay.start(peer.endpoint(), transcript, plan, PATIENT, Map.of(TOKEN, "alice")));
    }

    private HttpExchanges client(HttpRelay relay) {
        Transcript transcript = closing(new Transcript(dir.resolve("client.transcript.log")));
        return new HttpExchanges(relay.endpoint(), transcript, PATIENT, Map.of(TOKEN, "alice"), "client");
    }

    private static List<Header> headers() {
        return List.of(new Header("Authorization", "Bearer " + TOKEN), new Header("Content-Type", "application/json"));
    }

    private static HttpExchanges.Response post(HttpExchanges client, String body) throws Exception {
        return client.exchange("POST", headers(), body.getBytes(StandardCharsets.UTF_8));
    }

    private static String reply(int n) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":" + n + "}}";
    }

    private static String okWithLength(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String raw(String requestLine, String port, String extraHeaders, String body) {
        return requestLine + "\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Type: application/json\r\n" + extraHeaders + "\r\n" + body;
    }

    private List<Line> transcript() throws IOException, FormatException {
        return Transcript.read(relayTranscript());
    }

    private static HttpHead head(Line line) {
        try {
            return HttpHead.parse(line.text(), "head");
        } catch (FormatException e) {
            throw new AssertionError(e);
        }
    }

    /** One response read off a raw client socket by its own rules: the head, then Content-Length bytes. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the head: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    private static Socket connect(HttpRelay relay) throws IOException {
        Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), relay.endpoint().getPort());
        socket.setSoTimeout((int) PATIENT.toMillis());
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    @Test
    void theEndpointIsOnLoopbackWithTheUpstreamsPath() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(closeAtOnce())) {
            HttpRelay relay = relay(peer);
            assertEquals("http", relay.endpoint().getScheme());
            assertEquals("127.0.0.1", relay.endpoint().getHost());
            assertEquals("/mcp", relay.endpoint().getPath());
            assertTrue(relay.endpoint().getPort() > 0);
        }
    }

    @Test
    void forwardKeepsTheClientsConnectionAliveAcrossTwoRequestsAndGivesEachItsOwnServerConnection() throws Exception {
        String chunked = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
                + "Keep-Alive: timeout=5\r\nMcp-Session: x\r\n\r\n" + Integer.toHexString(reply(1).length()) + "\r\n" + reply(1) + "\r\n0\r\n\r\n";
        try (RawHttpPeer peer = new RawHttpPeer(respond(chunked), respond(okWithLength(reply(2))))) {
            HttpRelay relay = relay(peer);
            String port = Integer.toString(relay.endpoint().getPort());
            String serverPort = Integer.toString(peer.endpoint().getPort());
            String second = BODY.replace("\"id\":1", "\"id\":2");
            try (Socket client = connect(relay)) {
                InputStream in = client.getInputStream();
                send(client, raw("POST /mcp HTTP/1.1", port, "Content-Length: " + BODY.length() + "\r\n", BODY));
                assertEquals("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session: x\r\nContent-Length: " + reply(1).length()
                        + "\r\nConnection: keep-alive\r\n\r\n" + reply(1), readResponse(in),
                        "de-chunked with a length, hop-by-hop headers dropped, the connection kept");
                send(client, raw("POST /mcp HTTP/1.1", port, "Content-Length: " + second.length() + "\r\n", second));
                assertEquals("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + reply(2).length()
                        + "\r\nConnection: keep-alive\r\n\r\n" + reply(2), readResponse(in));
            }
            assertEquals(2, peer.connections(), "one server connection per exchange");
            assertEquals(raw("POST /mcp HTTP/1.1", serverPort, "Content-Length: " + BODY.length() + "\r\nConnection: close\r\n", BODY),
                    peer.nextRequestText(), "the server gets the request with its own Host, the real token, its own length, and close");
            assertEquals(raw("POST /mcp HTTP/1.1", serverPort, "Content-Length: " + second.length() + "\r\nConnection: close\r\n", second),
                    peer.nextRequestText());
            assertEquals(List.of(), relay.events());
        }

        List<Line> lines = transcript();
        assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY),
                lines.stream().map(Line::kind).toList());
        HttpHead firstRequest = head(lines.get(0));
        assertEquals(1, firstRequest.exchange());
        assertEquals(1, firstRequest.connection());
        assertEquals("POST /mcp HTTP/1.1", firstRequest.requestLine());
        assertEquals("Bearer [token of alice]", firstRequest.header("Authorization"));
        assertEquals(BODY, lines.get(1).text());
        HttpHead firstResponse = head(lines.get(2));
        assertEquals(HttpHead.response(1, 1, 200, List.of(new Header("Content-Type", "application/json"),
                new Header("Transfer-Encoding", "chunked"), new Header("Connection", "close"), new Header("Keep-Alive", "timeout=5"),
                new Header("Mcp-Session", "x"))), firstResponse, "the response head as the server sent it");
        assertEquals(reply(1), lines.get(3).text(), "the body as delivered");
        assertEquals(2, head(lines.get(4)).exchange());
        assertEquals(1, head(lines.get(4)).connection(), "the second exchange came on the same client connection");
        assertEquals(reply(2), lines.get(7).text());
        assertEquals(List.of(firstRequest, head(lines.get(4))), decided, "the plan saw each request head as transcribed");
        assertFalse(Files.readString(relayTranscript()).contains(TOKEN));
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST /mcp HTTP/1.1|Connection: close\r\n", "POST /mcp HTTP/1.0|", "POST /mcp HTTP/1.1|Connection: keep-alive, Close\r\n"})
    void aClientThatAsksForCloseGetsCloseAndTheEndOfItsConnection(String requestLineAndHeader) throws Exception {
        String[] parts = requestLineAndHeader.split("\\|", -1);
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer);
            try (Socket client = connect(relay)) {
                send(client, raw(parts[0], "1", parts[1] + "Content-Length: " + BODY.length() + "\r\n", BODY));
                String response = readResponse(client.getInputStream());
                assertTrue(response.contains("\r\nConnection: close\r\n"), response);
                assertEquals(-1, client.getInputStream().read(), "the relay closed the connection after the response");
            }
        }
    }

    @Test
    void anHttp10ClientThatAsksForKeepAliveKeepsItsConnection() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer);
            try (Socket client = connect(relay)) {
                send(client, raw("POST /mcp HTTP/1.0", "1", "Connection: keep-alive\r\nContent-Length: " + BODY.length() + "\r\n", BODY));
                assertTrue(readResponse(client.getInputStream()).contains("\r\nConnection: keep-alive\r\n"));
                send(client, raw("POST /mcp HTTP/1.0", "1", "Content-Length: " + BODY.length() + "\r\n", BODY));
                assertTrue(readResponse(client.getInputStream()).contains("\r\nConnection: close\r\n"));
            }
            assertEquals(2, peer.connections());
        }
    }

    @Test
    void dropResponseClosesTheClientsConnectionWithoutTheResponseTheServerGave() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))), respond(okWithLength(reply(2))))) {
            HttpRelay relay = relay(peer, new ExchangePlan.DropResponse());
            HttpExchanges client = client(relay);
            HttpExchanges.NoResponse e = assertThrows(HttpExchanges.NoResponse.class, () -> post(client, BODY));
            assertEquals("closed before a response", e.ended());
            assertEquals(List.of(new HttpRelay.Event(1, "drop_response", "closed the client's connection without the 200 response")),
                    relay.events());
            assertTrue(peer.nextRequestText().endsWith(BODY), "the server got the request");

            assertEquals(reply(2), post(client, BODY).text(), "only that exchange is dropped");
            assertEquals(1, relay.events().size());
        }
        List<Line> lines = transcript();
        assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY),
                lines.stream().map(Line::kind).toList());
        assertEquals(200, head(lines.get(2)).status(), "the server's response is in the transcript");
        assertEquals(reply(1), lines.get(3).text());
        List<Line> client = Transcript.read(dir.resolve("client.transcript.log"));
        assertEquals(Kind.NO_RESPONSE, client.get(2).kind(), "the client's own transcript has no response for it");
    }

    /** The bytes the relay sends a client asking for close, for a 200 with {@code body}: the rewritten response. */
    private static byte[] rewritten(String body) {
        return ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
                + body).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void resetMidResponseSendsTheFirstHalfOfTheResponseThenResets() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"pad\":\"" + "p".repeat(3000) + "\"}}";
        byte[] whole = rewritten(big);
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(big)))) {
            HttpRelay relay = relay(peer, new ExchangePlan.ResetMidResponse());
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            IOException ending = null;
            try (Socket client = connect(relay)) {
                send(client, raw("POST /mcp HTTP/1.1", "1", "Connection: close\r\nContent-Length: " + BODY.length() + "\r\n", BODY));
                InputStream in = client.getInputStream();
                try {
                    for (int b = in.read(); b >= 0; b = in.read()) {
                        received.write(b);
                    }
                } catch (SocketException reset) {
                    ending = reset;
                }
            }
            assertArrayEquals(java.util.Arrays.copyOf(whole, whole.length / 2), received.toByteArray(),
                    "exactly the first half of the response the relay would have sent");
            assertTrue(ending != null && ending.getMessage().contains("reset"), "the connection ended with a reset: " + ending);
            assertEquals(List.of(new HttpRelay.Event(1, "reset_mid_response", "sent " + whole.length / 2 + " of " + whole.length
                    + " bytes, then reset")), relay.events());
        }
        List<Line> lines = transcript();
        assertEquals(big, lines.get(3).text(), "the transcript has the server's whole response");
    }

    @Test
    void resetMidResponseIsNoResponseInTheMiddleOfTheBodyForTheLabsClient() throws Exception {
        String big = "{\"pad\":\"" + "p".repeat(3000) + "\"}";
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(big)))) {
            HttpRelay relay = relay(peer, new ExchangePlan.ResetMidResponse());
            HttpExchanges.NoResponse e = assertThrows(HttpExchanges.NoResponse.class, () -> post(client(relay), BODY));
            assertEquals("closed in the middle of the response body (200)", e.ended());
        }
    }

    @Test
    void delayHoldsTheRequestThenForwardsItUnchanged() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer, new ExchangePlan.Delay(Duration.ofMillis(50)));
            HttpExchanges.Response response = post(client(relay), BODY);
            assertEquals(200, response.status());
            assertEquals(reply(1), response.text());
            assertEquals(List.of(new HttpRelay.Event(1, "delay", "50 ms")), relay.events());
            assertTrue(peer.nextRequestText().endsWith(BODY));
        }
        assertEquals(4, transcript().size());
    }

    @Test
    void duplicateSendsTheRequestToTheServerTwiceAndTheClientGetsTheSecondResponse() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))), respond(okWithLength(reply(2))),
                respond(okWithLength(reply(3))))) {
            HttpRelay relay = relay(peer, new ExchangePlan.Duplicate());
            HttpExchanges client = client(relay);
            assertEquals(reply(2), post(client, BODY).text());
            assertEquals(2, peer.connections());
            String first = peer.nextRequestText();
            assertEquals(first, peer.nextRequestText(), "the same request, byte for byte, twice");
            assertTrue(first.endsWith(BODY));
            assertEquals(List.of(new HttpRelay.Event(1, "duplicate", "the request went to the server twice")), relay.events());

            assertEquals(reply(3), post(client, BODY).text());
            assertEquals(List.of(1, 3), decided.stream().map(HttpHead::exchange).toList(),
                    "the duplicate took exchange 2, so the next request is exchange 3");
        }
        List<Line> lines = transcript();
        List<HttpHead> heads = lines.stream().filter(l -> l.kind() == Kind.HEAD).map(HttpRelayIT::head).toList();
        assertEquals(List.of(1, 1, 2, 2, 3, 3), heads.stream().map(HttpHead::exchange).toList());
        assertEquals(List.of(1, 1, 1, 1, 2, 2), heads.stream().map(HttpHead::connection).toList());
        assertEquals(reply(1), lines.get(3).text());
        assertEquals(reply(2), lines.get(7).text());
        assertEquals(BODY, lines.get(5).text(), "the duplicate request is transcribed as sent");
    }

    @Test
    void duplicatesOnManyConnectionsAtOnceKeepEveryExchangeNumberOnItsOwnRequestAndResponse() throws Exception {
        int clients = 8;
        int each = 10;
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(0))))) {
            Transcript transcript = closing(new Transcript(relayTranscript()));
            HttpRelay relay = closing(HttpRelay.start(peer.endpoint(), transcript, (exchange, request, body) -> new ExchangePlan.Duplicate(),
                    PATIENT, Map.of()));
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int c = 0; c < clients; c++) {
                Thread thread = new Thread(() -> {
                    try (Socket client = connect(relay)) {
                        for (int i = 0; i < each; i++) {
                            send(client, raw("POST /mcp HTTP/1.1", "1", "Content-Length: " + BODY.length() + "\r\n", BODY));
                            readResponse(client.getInputStream());
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures);
        }
        List<HttpHead> heads = transcript().stream().filter(l -> l.kind() == Kind.HEAD).map(HttpRelayIT::head).toList();
        assertEquals(clients * each * 2 * 2, heads.size());
        java.util.Map<Integer, List<HttpHead>> byExchange = new java.util.TreeMap<>();
        heads.forEach(h -> byExchange.computeIfAbsent(h.exchange(), n -> new ArrayList<>()).add(h));
        assertEquals(clients * each * 2, byExchange.size(), "every exchange number used once");
        byExchange.forEach((exchange, pair) -> {
            assertEquals(2, pair.size(), "exchange " + exchange);
            assertEquals("POST /mcp HTTP/1.1", pair.get(0).requestLine(), "exchange " + exchange);
            assertEquals(200, pair.get(1).status(), "exchange " + exchange);
            assertEquals(pair.get(0).connection(), pair.get(1).connection(), "exchange " + exchange);
        });
    }

    @Test
    void aChunkedRequestFromTheClientGoesToTheServerWithAContentLength() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer);
            try (Socket client = connect(relay)) {
                send(client, raw("POST /mcp HTTP/1.1", "1", "Transfer-Encoding: chunked\r\nConnection: close\r\n",
                        "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
                assertTrue(readResponse(client.getInputStream()).endsWith(reply(1)));
            }
            assertEquals(raw("POST /mcp HTTP/1.1", Integer.toString(peer.endpoint().getPort()), "Content-Length: 11\r\nConnection: close\r\n",
                    "hello world"), peer.nextRequestText(),
                    "no Transfer-Encoding, the client's Connection replaced, the body de-chunked with its length");
        }
        List<Line> lines = transcript();
        assertEquals("hello world", lines.get(1).text());
        assertEquals("chunked", head(lines.get(0)).header("Transfer-Encoding"), "the head as the client sent it");
    }

    @Test
    void aServerThatClosesWithoutAResponseEndsTheClientsConnectionToo() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(closeAtOnce())) {
            HttpRelay relay = relay(peer);
            HttpExchanges.NoResponse e = assertThrows(HttpExchanges.NoResponse.class, () -> post(client(relay), BODY));
            assertEquals("closed before a response", e.ended());
            assertEquals(List.of(), relay.events(), "the relay did nothing to the exchange: the server gave no response");
        }
        List<Line> lines = transcript();
        assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.NO_RESPONSE), lines.stream().map(Line::kind).toList());
        assertEquals(HttpHead.noResponse(1, 1, "closed before a response"), head(lines.get(2)));
    }

    @Test
    void aServerNobodyListensForIsANoResponseRecord() throws Exception {
        RawHttpPeer gone = new RawHttpPeer(closeAtOnce());
        gone.close();
        HttpRelay relay = relay(gone);
        assertThrows(HttpExchanges.NoResponse.class, () -> post(client(relay), BODY));
        Line last = transcript().get(2);
        assertEquals(Kind.NO_RESPONSE, last.kind());
        assertTrue(head(last).ended().startsWith("no response: "), head(last).ended());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SSH-2.0-OpenSSH_9.6", "HTTP/1.1 OK", "HTTP/1.1 abc OK", "HTTP/1.1 99999999999 Big", ""})
    void aServerThatAnswersSomethingElseThanHttpIsANoResponseRecordQuotingIt(String statusLine) throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(statusLine + "\r\nContent-Length: 0\r\n\r\n"))) {
            HttpRelay relay = relay(peer);
            HttpExchanges.NoResponse e = assertThrows(HttpExchanges.NoResponse.class, () -> post(client(relay), BODY));
            assertEquals("closed before a response", e.ended());
        }
        assertEquals(HttpHead.noResponse(1, 1, "not an HTTP response: " + statusLine), head(transcript().get(2)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: many\r\n\r\n|a Content-Length that is not a number: many",
        "no colon\r\n\r\n|a header without a name: no colon"})
    void aServerWhoseHeadBreaksHttpIsANoResponseRecordSayingWhatWasWrong(String restAndProblem) throws Exception {
        String[] parts = restAndProblem.split("\\|");
        try (RawHttpPeer peer = new RawHttpPeer(respond("HTTP/1.1 200 OK\r\n" + parts[0]))) {
            HttpRelay relay = relay(peer);
            assertThrows(HttpExchanges.NoResponse.class, () -> post(client(relay), BODY));
        }
        assertEquals(HttpHead.noResponse(1, 1, "not an HTTP response: " + parts[1]), head(transcript().get(2)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/mcp", "http://127.0.0.1:0/mcp", "http:///mcp"})
    void anUpstreamWithoutAPortIsRefused(String upstream) throws Exception {
        try (Transcript transcript = new Transcript(relayTranscript())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpRelay.start(URI.create(upstream), transcript, ExchangePlan.forwardAll(), PATIENT, Map.of()));
            assertTrue(e.getMessage().endsWith(upstream), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1:8080/mcp", "http://example.com:80/mcp", "https://127.0.0.1:8443/mcp",
        "http://localhost:8080/mcp", "http://[::1]:8080/mcp", "http://0.0.0.0:8080/mcp"})
    void anUpstreamThatIsNot127001OverHttpIsRefused(String upstream) throws Exception {
        try (Transcript transcript = new Transcript(relayTranscript())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpRelay.start(URI.create(upstream), transcript, ExchangePlan.forwardAll(), PATIENT, Map.of()));
            assertEquals("the relay forwards to 127.0.0.1 only, not " + upstream, e.getMessage());
        }
    }

    @org.junit.jupiter.api.RepeatedTest(20)
    void afterCloseReturnsNoConnectionIsTaken() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer);
            // A served connection first, so the acceptor is back in accept() when close() comes.
            assertEquals(reply(1), post(client(relay), BODY).text());
            relay.close();
            assertThrows(java.net.ConnectException.class,
                    () -> new Socket(InetAddress.getByName("127.0.0.1"), relay.endpoint().getPort()).close());
        }
    }

    @Test
    void closeEndsTheConnectionsItKeptOpen() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(okWithLength(reply(1))))) {
            HttpRelay relay = relay(peer);
            try (Socket client = connect(relay)) {
                send(client, raw("POST /mcp HTTP/1.1", "1", "Content-Length: " + BODY.length() + "\r\n", BODY));
                readResponse(client.getInputStream());
                relay.close();
                int next;
                try {
                    next = client.getInputStream().read();
                } catch (SocketException reset) {
                    next = -1;
                }
                assertEquals(-1, next, "the kept-alive connection was ended");
            }
        }
    }
}
