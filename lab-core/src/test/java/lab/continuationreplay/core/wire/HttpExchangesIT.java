package lab.continuationreplay.core.wire;

import static lab.continuationreplay.core.wire.RawHttpPeer.closeAtOnce;
import static lab.continuationreplay.core.wire.RawHttpPeer.resetAtOnce;
import static lab.continuationreplay.core.wire.RawHttpPeer.respond;
import static lab.continuationreplay.core.wire.RawHttpPeer.respondThenClose;
import static lab.continuationreplay.core.wire.RawHttpPeer.stall;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.history.Transcript.Kind;
import lab.continuationreplay.history.Transcript.Line;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lab's raw HTTP/1.1 client against a raw socket peer on 127.0.0.1 that answers well, oddly or not at all: what
 * the peer receives, what the client returns or throws, and what the transcript says, the token never in it.
 */
class HttpExchangesIT {
    private static final String TOKEN = "tok-alice-0123456789abcdef0123456789abcdef";
    private static final String REQUEST_BODY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}";
    private static final String REPLY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}";
    /** Long enough that nothing here runs into it unless the client waits for bytes that never come. */
    private static final Duration PATIENT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private Path transcriptFile() {
        return dir.resolve("server.transcript.log");
    }

    private HttpExchanges.Response post(RawHttpPeer peer, Duration readTimeout) throws TransportFailure {
        try (Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(peer.endpoint(), transcript, readTimeout, Map.of(TOKEN, "alice"), "server");
            return client.exchange("POST", List.of(new Header("Authorization", "Bearer " + TOKEN),
                    new Header("Content-Type", "application/json")), REQUEST_BODY.getBytes(StandardCharsets.UTF_8));
        }
    }

    private HttpExchanges.NoResponse noResponse(RawHttpPeer peer, Duration readTimeout) {
        return assertThrows(HttpExchanges.NoResponse.class, () -> post(peer, readTimeout));
    }

    private List<Line> transcript() throws Exception {
        return Transcript.read(transcriptFile());
    }

    /** The transcript holds the request, then {@code <x} saying how the exchange ended: nothing else. */
    private void assertNoResponseRecorded(String ended) throws Exception {
        List<Line> lines = transcript();
        assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.NO_RESPONSE), lines.stream().map(Line::kind).toList());
        assertEquals(HttpHead.noResponse(1, 1, ended), HttpHead.parse(lines.get(2).text(), "<x"));
        assertEquals(REQUEST_BODY, lines.get(1).text());
    }

    private static String ok(String headers, String body) {
        return "HTTP/1.1 200 OK\r\n" + headers + "\r\n" + body;
    }

    /** A user's own headers (lab probe --header): sent as given, shown in the transcript by their length only. */
    @Test
    void aSecretHeaderGoesToThePeerAndOnlyItsLengthToTheTranscript() throws Exception {
        String key = "k-0123456789abcdef0123456789abcdef";
        try (RawHttpPeer peer = new RawHttpPeer(respond(ok("Content-Type: application/json\r\nContent-Length: " + REPLY.length()
                + "\r\n", REPLY)))) {
            try (Transcript transcript = new Transcript(transcriptFile())) {
                HttpExchanges client = new HttpExchanges(peer.endpoint(), transcript, PATIENT,
                        new HttpExchanges.Options(Map.of(), java.util.Set.of("X-Api-Key"), false), "server");
                client.exchange("POST", List.of(new Header("x-api-key", key), new Header("Authorization", "Bearer " + TOKEN)),
                        REQUEST_BODY.getBytes(StandardCharsets.UTF_8));
            }
            String sent = peer.nextRequestText();
            assertTrue(sent.contains("x-api-key: " + key) && sent.contains("Bearer " + TOKEN), sent);
        }
        String recorded = Files.readString(transcriptFile());
        assertFalse(recorded.contains(key) || recorded.contains(TOKEN), recorded);
        assertTrue(recorded.contains("[redacted, " + key.length() + " characters]"), recorded);
    }

    @Test
    void aHostOtherThanLoopbackNeedsTheUsersExplicitConsent() {
        URI remote = URI.create("http://192.0.2.1:8080/mcp");
        try (Transcript transcript = new Transcript(transcriptFile())) {
            assertThrows(IllegalArgumentException.class, () -> new HttpExchanges(remote, transcript, PATIENT, Map.of(), "server"));
            assertEquals(remote, new HttpExchanges(remote, transcript, PATIENT, new HttpExchanges.Options(Map.of(),
                    java.util.Set.of(), true), "server").endpoint());
        }
    }

    @Test
    void aContentLengthBodyIsReadToItsLengthAndTheConnectionNeedNotClose() throws Exception {
        // The peer keeps the connection open and sends bytes after the body: only the declared length is the body.
        try (RawHttpPeer peer = new RawHttpPeer(respond(ok("Content-Type: application/json\r\nContent-Length: " + REPLY.length()
                + "\r\n", REPLY + "TRAILING GARBAGE")))) {
            HttpExchanges.Response response = post(peer, PATIENT);
            assertEquals(200, response.status());
            assertEquals("OK", response.reason());
            assertEquals(REPLY, response.text());
            assertEquals("application/json", response.header("content-type"));
            assertEquals(List.of(new Header("Content-Type", "application/json"), new Header("Content-Length", Integer.toString(REPLY.length()))),
                    response.headers());

            assertEquals("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + peer.port() + "\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + REQUEST_BODY.length() + "\r\nConnection: close\r\n\r\n"
                    + REQUEST_BODY, peer.nextRequestText(), "the exact bytes on the wire, the real token included");

            List<Line> lines = transcript();
            assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY), lines.stream().map(Line::kind).toList());
            assertEquals(HttpHead.request(1, 1, "POST /mcp HTTP/1.1", List.of(new Header("Host", "127.0.0.1:" + peer.port()),
                    new Header("Authorization", "Bearer [token of alice]"), new Header("Content-Type", "application/json"),
                    new Header("Content-Length", Integer.toString(REQUEST_BODY.length())), new Header("Connection", "close"))),
                    HttpHead.parse(lines.get(0).text(), "request head"));
            assertEquals(REQUEST_BODY, lines.get(1).text());
            assertEquals(HttpHead.response(1, 1, 200, response.headers()), HttpHead.parse(lines.get(2).text(), "response head"));
            assertEquals(REPLY, lines.get(3).text());
        }
    }

    @Test
    void aChunkedBodyIsDeliveredWithoutItsChunkingExtensionsOrTrailers() throws Exception {
        String stream = "event: message\ndata: " + REPLY + "\n\n";
        String first = stream.substring(0, 20);
        String second = stream.substring(20);
        String chunked = Integer.toHexString(first.length()) + ";name=value;other\r\n" + first + "\r\n"
                + Integer.toHexString(second.length()).toUpperCase() + " ; ext\r\n" + second + "\r\n"
                + "0;last\r\nX-Trailer: t\r\n\r\n";
        try (RawHttpPeer peer = new RawHttpPeer(respond(ok("Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n", chunked)))) {
            HttpExchanges.Response response = post(peer, PATIENT);
            assertEquals(stream, response.text());
            assertEquals("chunked", response.header("Transfer-Encoding"), "the head is kept as received");
            Line body = transcript().get(3);
            assertEquals(stream, body.text(), "the transcript holds the body as delivered");
            assertTrue(HttpHead.parse(transcript().get(2).text(), "head").eventStream());
        }
    }

    @Test
    void aBodyWithoutLengthOrChunkingRunsToTheEndOfTheConnection() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respondThenClose(ok("Content-Type: application/json\r\n", REPLY)))) {
            HttpExchanges.Response response = post(peer, PATIENT);
            assertEquals(REPLY, response.text());
            assertEquals(REPLY, transcript().get(3).text());
        }
    }

    @Test
    void a204HasNoBodyEvenOnAConnectionThatStaysOpen() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond("HTTP/1.1 204 No Content\r\n\r\n"))) {
            HttpExchanges.Response response = post(peer, PATIENT);
            assertEquals(204, response.status());
            assertEquals("No Content", response.reason());
            assertArrayEquals(new byte[0], response.body());
        }
    }

    @Test
    void aStatusLineWithoutAReasonIsAResponseWithAnEmptyReason() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond("HTTP/1.0 401\r\nContent-Length: 0\r\n\r\n"))) {
            HttpExchanges.Response response = post(peer, PATIENT);
            assertEquals(401, response.status());
            assertEquals("", response.reason());
        }
    }

    @Test
    void aPeerThatClosesBeforeAnyByteIsNoResponseAndAnXLine() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(closeAtOnce())) {
            HttpExchanges.NoResponse e = noResponse(peer, PATIENT);
            assertEquals("closed before a response", e.ended());
            assertEquals("server: no HTTP response: closed before a response", e.getMessage());
            assertTrue(peer.nextRequestText().endsWith(REQUEST_BODY), "the request went out whole");
        }
        assertNoResponseRecorded("closed before a response");
    }

    @Test
    void aPeerThatResetsBeforeAnyByteIsNoResponseSayingReset() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(resetAtOnce())) {
            HttpExchanges.NoResponse e = noResponse(peer, PATIENT);
            assertTrue(e.ended().startsWith("reset before a response ("), e.ended());
            assertNoResponseRecorded(e.ended());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1 200 OK\r\nContent-Type: appl", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n",
        "HTTP/1.1 200 OK\r\n"})
    void aPeerThatClosesInTheMiddleOfTheHeadIsNoResponse(String partial) throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respondThenClose(partial))) {
            assertEquals("closed in the middle of the response head", noResponse(peer, PATIENT).ended());
        }
        assertNoResponseRecorded("closed in the middle of the response head");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 100\r\n\r\n{\"jsonrpc\":", "Transfer-Encoding: chunked\r\n\r\n10\r\n{\"jsonr",
        "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "Transfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: 1\r\n"})
    void aPeerThatClosesInTheMiddleOfTheBodyIsNoResponse(String partial) throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respondThenClose("HTTP/1.1 200 OK\r\n" + partial))) {
            assertEquals("closed in the middle of the response body (200)", noResponse(peer, PATIENT).ended());
        }
        assertNoResponseRecorded("closed in the middle of the response body (200)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SSH-2.0-OpenSSH_9.6", "HTTP/1.1 OK", "HTTP/2 200 OK", "HTTP/1.1 20x OK", "http/1.1 200 OK", ""})
    void aStatusLineThatIsNotHttpIsNoResponseQuotingIt(String statusLine) throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(statusLine + "\r\nContent-Length: 0\r\n\r\n"))) {
            assertEquals("not an HTTP response: " + statusLine, noResponse(peer, PATIENT).ended());
        }
        assertNoResponseRecorded("not an HTTP response: " + statusLine);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `no colon here\\r\\n\\r\\n`                                  | a header without a name: no colon here
            `: no name\\r\\n\\r\\n`                                      | a header without a name: : no name
            `Content-Length: many\\r\\n\\r\\n`                           | a Content-Length that is not a number: many
            `Content-Length: -1\\r\\n\\r\\n`                             | a body of -1 bytes
            `Content-Length: 99999999999\\r\\n\\r\\n`                    | a Content-Length that is not a number: 99999999999
            `Transfer-Encoding: chunked\\r\\n\\r\\nzz\\r\\n`               | a chunk size that is not hexadecimal: zz
            `Transfer-Encoding: chunked\\r\\n\\r\\n-5\\r\\nhello\\r\\n`      | a chunk size that is not hexadecimal: -5
            """)
    void aHeadOrBodyThatBreaksHttpIsNoResponseSayingWhatWasWrongNotThatTheConnectionFailed(String rest, String problem)
            throws Exception {
        String response = "HTTP/1.1 200 OK\r\n" + rest.replace("\\r\\n", "\r\n");
        try (RawHttpPeer peer = new RawHttpPeer(respond(response))) {
            assertEquals("not an HTTP response: " + problem, noResponse(peer, PATIENT).ended());
        }
        assertNoResponseRecorded("not an HTTP response: " + problem);
    }

    @Test
    void aLongGarbageStatusLineIsQuotedByItsFirst80Characters() throws Exception {
        String garbage = "x".repeat(200);
        try (RawHttpPeer peer = new RawHttpPeer(respond(garbage + "\r\n"))) {
            assertEquals("not an HTTP response: " + "x".repeat(80), noResponse(peer, PATIENT).ended());
        }
    }

    @Test
    void aPeerThatSaysNothingIsNoResponseOnceTheReadTimeoutPasses() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(stall())) {
            HttpExchanges.NoResponse e = noResponse(peer, Duration.ofMillis(300));
            assertEquals("no response within 300 ms", e.ended());
            assertEquals("server: no HTTP response: no response within 300 ms", e.getMessage());
        }
        assertNoResponseRecorded("no response within 300 ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\"",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n"})
    void aPeerThatStallsInTheMiddleOfAResponseIsNoResponseOnceTheReadTimeoutPasses(String partial) throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(partial))) {
            assertEquals("no response within 300 ms", noResponse(peer, Duration.ofMillis(300)).ended());
        }
        assertNoResponseRecorded("no response within 300 ms");
    }

    @Test
    void aPortNobodyListensOnIsNoResponseSayingTheConnectionFailed() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        try (Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(URI.create("http://127.0.0.1:" + port + "/mcp"), transcript, PATIENT, Map.of(), "server");
            HttpExchanges.NoResponse e = assertThrows(HttpExchanges.NoResponse.class,
                    () -> client.exchange("POST", List.of(), REQUEST_BODY.getBytes(StandardCharsets.UTF_8)));
            assertTrue(e.ended().startsWith("connection failed: "), e.ended());
        }
        assertEquals(Kind.NO_RESPONSE, transcript().get(2).kind());
    }

    @Test
    void aKnownTokenIsNamedByItsPrincipalAnUnknownOneByItsLengthAndNeitherIsInTheTranscript() throws Exception {
        String stranger = "s".repeat(40);
        try (RawHttpPeer peer = new RawHttpPeer(respond("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n\r\n"));
                Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(peer.endpoint(), transcript, PATIENT, Map.of(TOKEN, "alice"), "server");
            client.exchange("POST", List.of(new Header("Authorization", "Bearer " + TOKEN)), new byte[0]);
            client.exchange("POST", List.of(new Header("authorization", "Bearer " + stranger)), new byte[0]);
            client.exchange("POST", List.of(new Header("Authorization", TOKEN)), new byte[0]);
            assertTrue(peer.nextRequestText().contains("Authorization: Bearer " + TOKEN + "\r\n"), "the server gets the real token");
            assertTrue(peer.nextRequestText().contains("authorization: Bearer " + stranger + "\r\n"));
        }
        List<HttpHead> requests = transcript().stream().filter(l -> l.kind() == Kind.HEAD && l.direction() == Transcript.Direction.SENT)
                .map(l -> parse(l.text())).toList();
        assertEquals("Bearer [token of alice]", requests.get(0).header("Authorization"));
        assertEquals("Bearer [redacted, 40 characters]", requests.get(1).header("Authorization"));
        assertEquals("[token of alice]", requests.get(2).header("Authorization"), "a credential without a scheme is named too");
        String file = Files.readString(transcriptFile());
        assertFalse(file.contains(TOKEN), file);
        assertFalse(file.contains(stranger), file);
    }

    private static HttpHead parse(String json) {
        try {
            return HttpHead.parse(json, "head");
        } catch (lab.continuationreplay.history.FormatException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyExchangeHasAConnectionOfItsOwnAndTheNextNumbers() throws Exception {
        String reply = ok("Content-Length: 2\r\n", "{}");
        try (RawHttpPeer peer = new RawHttpPeer(respond(reply));
                Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(peer.endpoint(), transcript, PATIENT, Map.of(), "server");
            client.exchange("POST", List.of(), "{}".getBytes(StandardCharsets.UTF_8));
            client.exchange("GET", List.of(), new byte[0]);
            assertEquals(2, peer.connections());
            peer.nextRequest();
            assertEquals("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + peer.port() + "\r\nConnection: close\r\n\r\n", peer.nextRequestText(),
                    "a GET without a body has no Content-Length");
        }
        List<HttpHead> heads = transcript().stream().filter(l -> l.kind() == Kind.HEAD).map(l -> parse(l.text())).toList();
        assertEquals(List.of(1, 1, 2, 2), heads.stream().map(HttpHead::exchange).toList());
        assertEquals(List.of(1, 1, 2, 2), heads.stream().map(HttpHead::connection).toList());
    }

    @Test
    void exchangeAsIsSendsExactlyTheRequestLineAndHeadersGiven() throws Exception {
        try (RawHttpPeer peer = new RawHttpPeer(respond(ok("Content-Length: 0\r\n", "")));
                Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(peer.endpoint(), transcript, PATIENT, Map.of(), "server");
            client.exchangeAsIs("POST /elsewhere HTTP/1.1", List.of(new Header("Host", "evil.example"), new Header("Content-Length", "2")),
                    "{}".getBytes(StandardCharsets.UTF_8));
            assertEquals("POST /elsewhere HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 2\r\n\r\n{}", peer.nextRequestText());
        }
        assertEquals("POST /elsewhere HTTP/1.1", parse(transcript().get(0).text()).requestLine());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1:8080/mcp", "http://example.com:80/mcp", "https://127.0.0.1:8443/mcp",
        "http://0.0.0.0:8080/mcp", "http://192.168.1.1:80/mcp", "ftp://127.0.0.1:21/mcp"})
    void anEndpointThatIsNotLoopbackHttpIsRefusedAtConstruction(String endpoint) throws Exception {
        try (Transcript transcript = new Transcript(transcriptFile())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new HttpExchanges(URI.create(endpoint), transcript, PATIENT, Map.of(), "server"));
            assertEquals("the lab talks HTTP to loopback servers only, not " + endpoint, e.getMessage());
        }
        assertEquals(List.of(), transcript(), "nothing was sent");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http:///mcp", "http:/mcp", "http://127.0.0.1/mcp", "http://localhost/mcp", "http://127.0.0.1:0/mcp",
        "http://127.0.0.1:70000/mcp"})
    void anEndpointWithoutAHostOrAPortIsRefusedAtConstruction(String endpoint) throws Exception {
        try (Transcript transcript = new Transcript(transcriptFile())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new HttpExchanges(URI.create(endpoint), transcript, PATIENT, Map.of(), "server"));
            assertTrue(e.getMessage().endsWith(endpoint), e.getMessage());
        }
        assertEquals(List.of(), transcript(), "nothing was sent");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:1/mcp", "http://localhost:1/mcp", "http://[::1]:1/mcp"})
    void aLoopbackEndpointIsAccepted(String endpoint) throws Exception {
        try (Transcript transcript = new Transcript(transcriptFile())) {
            HttpExchanges client = new HttpExchanges(URI.create(endpoint), transcript, PATIENT, Map.of(), "server");
            assertEquals(URI.create(endpoint), client.endpoint());
        }
    }
}
