package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript.Direction;
import lab.continuationreplay.history.Transcript.Kind;
import lab.continuationreplay.history.Transcript.Line;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP records in a transcript: what {@link Transcript#request}, {@link Transcript#response} and {@link Transcript#noResponse} write, read back. */
class TranscriptHttpTest {
    @TempDir
    Path dir;

    private static final HttpHead REQUEST = HttpHead.request(1, 1, "POST /mcp HTTP/1.1",
            List.of(new Header("Host", "127.0.0.1:4000"), new Header("Content-Type", "application/json")));
    private static final HttpHead RESPONSE = HttpHead.response(1, 1, 200, List.of(new Header("Content-Type", "application/json")));

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> rawLines(Path file) throws Exception {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    @Test
    void aRequestAResponseAndANoResponseAreWrittenAsTheirOwnLinesAndReadBack() throws Exception {
        Path file = dir.resolve("server.transcript.log");
        HttpHead second = HttpHead.request(2, 2, "POST /mcp HTTP/1.1", List.of());
        HttpHead ended = HttpHead.noResponse(2, 2, "closed before a response");
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, utf8("{\"jsonrpc\":\"2.0\",\"id\":1}"));
            t.response(RESPONSE, utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
            t.request(second, utf8("{}"));
            t.noResponse(ended);
        }
        assertEquals(List.of(
                ">h " + REQUEST.json(),
                "> {\"jsonrpc\":\"2.0\",\"id\":1}",
                "<h " + RESPONSE.json(),
                "< {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
                ">h " + second.json(),
                "> {}",
                "<x " + ended.json()), rawLines(file));

        List<Line> lines = Transcript.read(file);
        assertEquals(List.of(Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.HEAD, Kind.BODY, Kind.NO_RESPONSE),
                lines.stream().map(Line::kind).toList());
        assertEquals(List.of(Direction.SENT, Direction.SENT, Direction.RECEIVED, Direction.RECEIVED, Direction.SENT,
                Direction.SENT, Direction.RECEIVED), lines.stream().map(Line::direction).toList());
        assertEquals(REQUEST, HttpHead.parse(lines.get(0).text(), "line 1"));
        assertEquals(RESPONSE, HttpHead.parse(lines.get(2).text(), "line 3"));
        assertEquals(ended, HttpHead.parse(lines.get(6).text(), "line 7"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", lines.get(3).text());
        assertEquals(lines.get(0).text(), lines.get(0).recorded(), "a head is recorded as its JSON");
        assertFalse(lines.get(0).abridged());
    }

    @Test
    void aBodyWithALineFeedIsBase64AndDecodesToExactlyItsBytes() throws Exception {
        Path file = dir.resolve("sse.transcript.log");
        String stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        String sentWithLineFeed = "{\n\"jsonrpc\":\"2.0\"}\n";
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, utf8(sentWithLineFeed));
            t.response(HttpHead.response(1, 1, 200, List.of(new Header("Content-Type", "text/event-stream"))), utf8(stream));
        }
        List<String> raw = rawLines(file);
        assertEquals(4, raw.size(), "every body is one line, whatever it holds");
        assertEquals(">b " + Base64.getEncoder().encodeToString(utf8(sentWithLineFeed)), raw.get(1));
        assertEquals("<b " + Base64.getEncoder().encodeToString(utf8(stream)), raw.get(3));

        List<Line> lines = Transcript.read(file);
        assertEquals(sentWithLineFeed, lines.get(1).text());
        assertEquals(Kind.BODY, lines.get(1).kind());
        assertEquals(stream, lines.get(3).text());
        assertArrayEquals(utf8(stream), Base64.getDecoder().decode(lines.get(3).recorded()));
    }

    @Test
    void aBodyWithACarriageReturnIsBase64AndDecodesToExactlyItsBytes() throws Exception {
        Path file = dir.resolve("cr.transcript.log");
        byte[] crlf = utf8("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n");
        byte[] bareCr = utf8("{}\r");
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, bareCr);
            t.response(RESPONSE, crlf);
        }
        List<String> raw = rawLines(file);
        assertTrue(raw.get(1).startsWith(">b "), raw.get(1));
        assertTrue(raw.get(3).startsWith("<b "), raw.get(3));
        List<Line> lines = Transcript.read(file);
        assertEquals("{}\r", lines.get(1).text());
        assertArrayEquals(crlf, lines.get(3).text().getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(crlf, Base64.getDecoder().decode(lines.get(3).recorded()));
    }

    @Test
    void aBodyThatIsNotUtf8IsBase64WithoutText() throws Exception {
        Path file = dir.resolve("bytes.transcript.log");
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9};
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, latin1);
            t.response(RESPONSE, latin1);
        }
        List<Line> lines = Transcript.read(file);
        for (Line body : List.of(lines.get(1), lines.get(3))) {
            assertNull(body.text());
            assertArrayEquals(latin1, Base64.getDecoder().decode(body.recorded()));
            assertEquals(Kind.BODY, body.kind());
        }
    }

    @Test
    void anEmptyBodyIsAnEmptyPlainLine() throws Exception {
        Path file = dir.resolve("empty.transcript.log");
        try (Transcript t = new Transcript(file)) {
            t.request(HttpHead.request(1, 1, "GET /mcp HTTP/1.1", List.of()), new byte[0]);
            t.response(HttpHead.response(1, 1, 202, List.of()), new byte[0]);
        }
        assertEquals(List.of("> ", "< "), List.of(rawLines(file).get(1), rawLines(file).get(3)));
        List<Line> lines = Transcript.read(file);
        assertEquals("", lines.get(1).text());
        assertEquals("", lines.get(3).text());
    }

    @Test
    void aSentBodyOverTheVerbatimLimitIsAbridgedToItsLengthHashAndFirstKilobyte() throws Exception {
        Path file = dir.resolve("big.transcript.log");
        byte[] big = new byte[Transcript.VERBATIM_LIMIT + 1];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, big);
            t.noResponse(HttpHead.noResponse(1, 1, "closed before a response"));
        }
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(big));
        assertEquals(">~ " + big.length + " bytes sha256 " + sha256 + " first-1024-base64 "
                + Base64.getEncoder().encodeToString(Arrays.copyOf(big, 1024)), rawLines(file).get(1));
        List<Line> lines = Transcript.read(file);
        assertEquals(3, lines.size());
        Line body = lines.get(1);
        assertTrue(body.abridged());
        assertNull(body.text());
        assertEquals(Direction.SENT, body.direction());
        assertEquals(Kind.NO_RESPONSE, lines.get(2).kind());
    }

    @Test
    void aSentBodyOfExactlyTheVerbatimLimitIsKeptWhole() throws Exception {
        Path file = dir.resolve("limit.transcript.log");
        byte[] atLimit = new byte[Transcript.VERBATIM_LIMIT];
        Arrays.fill(atLimit, (byte) 'x');
        try (Transcript t = new Transcript(file)) {
            t.request(REQUEST, atLimit);
        }
        Line body = Transcript.read(file).get(1);
        assertFalse(body.abridged());
        assertEquals(new String(atLimit, StandardCharsets.US_ASCII), body.text());
    }

    @Test
    void aReceivedBodyOverTheVerbatimLimitIsKeptWholeBecauseTheCheckerReadsIt() throws Exception {
        Path file = dir.resolve("bigreply.transcript.log");
        byte[] big = new byte[Transcript.VERBATIM_LIMIT * 2];
        Arrays.fill(big, (byte) 'y');
        big[big.length - 1] = '\n';
        try (Transcript t = new Transcript(file)) {
            t.response(RESPONSE, big);
        }
        Line body = Transcript.read(file).get(1);
        assertFalse(body.abridged());
        assertArrayEquals(big, body.text().getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aNoResponseLineSaysHowTheExchangeEnded() throws Exception {
        Path file = dir.resolve("x.transcript.log");
        HttpHead ended = HttpHead.noResponse(7, 3, "no response within 300 ms");
        try (Transcript t = new Transcript(file)) {
            t.noResponse(ended);
        }
        assertEquals(List.of("<x {\"exchange\":7,\"connection\":3,\"ended\":\"no response within 300 ms\",\"headers\":[]}"),
                rawLines(file));
        Line line = Transcript.read(file).get(0);
        assertEquals(Kind.NO_RESPONSE, line.kind());
        assertEquals(Direction.RECEIVED, line.direction());
        HttpHead read = HttpHead.parse(line.text(), "x");
        assertEquals(ended, read);
        assertEquals("no response within 300 ms", read.ended());
        assertEquals(0, read.status());
    }

    @Test
    void handWrittenHeadLinesAreReadAsHeadsOfTheirDirection() throws Exception {
        Path file = dir.resolve("hand.transcript.log");
        Files.writeString(file, ">h {\"exchange\":1,\"connection\":1,\"headers\":[]}\n"
                + "<h {\"exchange\":1,\"connection\":1,\"status\":500,\"headers\":[]}\n"
                + "<x {\"exchange\":2,\"connection\":2,\"ended\":\"e\",\"headers\":[]}\n");
        List<Line> lines = Transcript.read(file);
        assertEquals(new Line(Direction.SENT, "{\"exchange\":1,\"connection\":1,\"headers\":[]}",
                "{\"exchange\":1,\"connection\":1,\"headers\":[]}", false, Kind.HEAD), lines.get(0));
        assertEquals(Kind.HEAD, lines.get(1).kind());
        assertEquals(Direction.RECEIVED, lines.get(1).direction());
        assertEquals(Kind.NO_RESPONSE, lines.get(2).kind());
    }

    @Test
    void recordsWrittenAtOnceFromManyThreadsNeverInterleaveWithinARecord() throws Exception {
        Path file = dir.resolve("busy.transcript.log");
        int threads = 8;
        int perThread = 50;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        try (Transcript t = new Transcript(file)) {
            for (int w = 0; w < threads; w++) {
                int worker = w;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        int exchange = worker * perThread + i + 1;
                        t.request(HttpHead.request(exchange, exchange, "POST /mcp HTTP/1.1", List.of()), utf8("{\"n\":" + exchange + "}"));
                        t.response(HttpHead.response(exchange, exchange, 200, List.of()), utf8("{\"n\":" + exchange + "}\n"));
                    }
                });
                workers.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread thread : workers) {
                thread.join();
            }
        }
        List<Line> lines = Transcript.read(file);
        assertEquals(threads * perThread * 4, lines.size());
        for (int i = 0; i < lines.size(); i += 2) {
            Line head = lines.get(i);
            Line body = lines.get(i + 1);
            assertEquals(Kind.HEAD, head.kind(), "line " + (i + 1));
            assertEquals(Kind.BODY, body.kind(), "line " + (i + 2));
            assertEquals(head.direction(), body.direction(), "line " + (i + 2));
            int exchange = HttpHead.parse(head.text(), "line " + (i + 1)).exchange();
            assertEquals("{\"n\":" + exchange + "}" + (head.direction() == Direction.RECEIVED ? "\n" : ""), body.text());
        }
    }
}
