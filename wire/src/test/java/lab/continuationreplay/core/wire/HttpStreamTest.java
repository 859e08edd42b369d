package lab.continuationreplay.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HttpExchanges#stream} against a loopback socket that writes an event stream in pieces: each event reaches the
 * sink as its blank line arrives (an id split over two chunks, data over two lines), the sink can close the connection
 * after any event, a quiet stream ends after its quiet time, and a broken chunk size is no response.
 */
class HttpStreamTest {
    @TempDir
    Path dir;

    /** A server answering one request with {@code head} and then each of {@code pieces}, flushed one by one. */
    private static CompletableFuture<Void> serve(ServerSocket server, String head, List<String> pieces, Duration hold) {
        return CompletableFuture.runAsync(() -> {
            try (Socket socket = server.accept()) {
                var in = socket.getInputStream();
                while (!HttpMessages.line(in).isEmpty()) {
                    // the request's head; it has no body
                }
                OutputStream out = socket.getOutputStream();
                out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                for (String piece : pieces) {
                    out.write(piece.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(20);
                }
                Thread.sleep(hold.toMillis());
            } catch (IOException | InterruptedException closedByTheClient) {
                // the client may close first: that is what some tests do
            }
        });
    }

    private static String chunk(String text) {
        return Integer.toHexString(text.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + text + "\r\n";
    }

    private static final String EVENT_STREAM = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

    @Test
    void eachEventReachesTheSinkAsItArrivesAndTheTranscriptKeepsTheBytes() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, EVENT_STREAM, List.of(chunk("id: a_1\ndata: \n\n"), chunk("id: a"), chunk("_2\ndata: {\"x\":1,\ndata: \"y\":2}\n\n"),
                    "0\r\n\r\n"), Duration.ZERO);
            Transcript transcript = new Transcript(dir.resolve("t.log"));
            List<HttpExchanges.Event> seen = new ArrayList<>();
            HttpExchanges.Streamed streamed = exchanges(server, transcript).stream("GET", List.of(new Header("Accept", "text/event-stream")),
                    new byte[0], seen::add, null);
            transcript.close();
            assertEquals(HttpExchanges.End.COMPLETE, streamed.end());
            assertEquals(List.of(new HttpExchanges.Event("a_1", ""), new HttpExchanges.Event("a_2", "{\"x\":1,\n\"y\":2}")), seen);
            assertEquals("id: a_1\ndata: \n\nid: a_2\ndata: {\"x\":1,\ndata: \"y\":2}\n\n", streamed.response().text());
        }
    }

    @Test
    void theSinkClosesTheConnectionAfterAnEventAndTheHeadSaysSo() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, EVENT_STREAM, List.of(chunk("id: p\ndata: \n\n"), chunk("data: {\"late\":true}\n\n")), Duration.ofSeconds(2));
            Transcript transcript = new Transcript(dir.resolve("t.log"));
            HttpExchanges.Streamed streamed = exchanges(server, transcript).stream("POST", List.of(), new byte[0], event -> false, null);
            transcript.close();
            assertEquals(HttpExchanges.End.CLOSED_BY_CLIENT, streamed.end());
            assertEquals("id: p\ndata: \n\n", streamed.response().text(), "nothing after the event is read");
            assertTrue(Files.readString(dir.resolve("t.log")).contains("\"ended\":\"closed by the client after an event\""));
        }
    }

    @Test
    void aStreamThatGoesQuietEndsAfterItsQuietTimeOnlyWhenOneIsGiven() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, EVENT_STREAM, List.of(chunk("data: {}\n\n")), Duration.ofSeconds(3));
            HttpExchanges.Streamed streamed = exchanges(server, new Transcript(dir.resolve("q.log")))
                    .stream("GET", List.of(), new byte[0], event -> true, Duration.ofMillis(300));
            assertEquals(HttpExchanges.End.QUIET, streamed.end());
        }
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, EVENT_STREAM, List.of(chunk("data: {}\n\n")), Duration.ofSeconds(3));
            HttpExchanges exchanges = new HttpExchanges(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/mcp"),
                    new Transcript(dir.resolve("s.log")), Duration.ofMillis(300), Map.of(), "test");
            HttpExchanges.NoResponse stalled = assertThrows(HttpExchanges.NoResponse.class,
                    () -> exchanges.stream("GET", List.of(), new byte[0], event -> true, null));
            assertEquals("no response within 300 ms", stalled.ended());
        }
    }

    @Test
    void aChunkSizeThatIsNotHexadecimalIsNoResponse() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, EVENT_STREAM, List.of("zz\r\ndata: {}\r\n"), Duration.ZERO);
            HttpExchanges.NoResponse broken = assertThrows(HttpExchanges.NoResponse.class, () -> exchanges(server,
                    new Transcript(dir.resolve("b.log"))).stream("GET", List.of(), new byte[0], event -> true, null));
            assertTrue(broken.ended().contains("a chunk size that is not hexadecimal: zz"), broken.ended());
        }
    }

    @Test
    void aJsonBodyIsReadWholeWithoutEvents() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            serve(server, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n", List.of("{}"), Duration.ZERO);
            List<HttpExchanges.Event> seen = new ArrayList<>();
            HttpExchanges.Streamed streamed = exchanges(server, new Transcript(dir.resolve("j.log")))
                    .stream("POST", List.of(), new byte[0], seen::add, null);
            assertEquals("{}", streamed.response().text());
            assertEquals(List.of(), seen);
        }
    }

    private static HttpExchanges exchanges(ServerSocket server, Transcript transcript) {
        return new HttpExchanges(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/mcp"), transcript, Duration.ofSeconds(5),
                Map.of(), "test");
    }
}
