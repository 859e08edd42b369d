package lab.continuationreplay.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receive side of the wire driver against a process that writes exact bytes (printf): lines split on 0x0A only,
 * a carriage return kept in its line, invalid UTF-8 kept exactly in the transcript and never taken for a frame.
 */
class ReceiveSideBytesIT {
    @TempDir
    Path dir;

    private ServerProcess writing(String printfFormat) throws Exception {
        // the process writes its bytes only once it has read our request, so the reply is a reply to it
        String script = "read request; printf '" + printfFormat + "'; cat >/dev/null";
        return ServerProcess.start("printf server", List.of("sh", "-c", script), Map.of(), dir.resolve("p.transcript.log"),
                dir.resolve("p.stderr.log"), Duration.ofSeconds(5));
    }

    private List<String> transcript() throws Exception {
        return Files.readAllLines(dir.resolve("p.transcript.log"), StandardCharsets.UTF_8);
    }

    @Test
    void aCarriageReturnStaysInItsLineAndTheTranscriptKeepsTheExactBytes() throws Exception {
        try (ServerProcess server = writing("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"x\"}}\\r\\n")) {
            var reply = server.request("tools/list", JsonNodeFactory.instance.objectNode());
            assertEquals("x", reply.at("/result/a").textValue(), "a frame with CRLF is still a frame (JSON whitespace)");
        }
        List<String> lines = transcript();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("> {"), lines.get(0));
        assertTrue(lines.get(1).startsWith("<b "), lines.get(1));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"x\"}}\r",
                new String(Base64.getDecoder().decode(lines.get(1).substring(3)), StandardCharsets.UTF_8));
    }

    @Test
    void aBareCarriageReturnDoesNotSplitALine() throws Exception {
        try (ServerProcess server = writing("a\\rb\\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\n")) {
            server.sendRaw("go");
            assertEquals("a\rb", server.nextLine(Duration.ofSeconds(5)).orElseThrow());
            assertTrue(server.nextLine(Duration.ofSeconds(5)).orElseThrow().startsWith("{"));
        }
        List<String> lines = transcript();
        assertEquals(List.of("> go", "<b " + Base64.getEncoder().encodeToString("a\rb".getBytes(StandardCharsets.US_ASCII)),
                "< {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"), lines);
    }

    @Test
    void invalidUtf8IsKeptExactlyAndIsNeverAFrame() throws Exception {
        try (ServerProcess server = writing("\\377{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\n")) {
            ServerDefect defect = assertThrows(ServerDefect.class,
                    () -> server.request("tools/list", JsonNodeFactory.instance.objectNode()));
            assertTrue(defect.getMessage().startsWith("printf server wrote a non-frame line to stdout: \"(not UTF-8) "), defect.getMessage());
        }
        byte[] exact = Base64.getDecoder().decode(transcript().get(1).substring(3));
        assertEquals((byte) 0xff, exact[0]);
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", new String(exact, 1, exact.length - 1, StandardCharsets.UTF_8));
    }

    @Test
    void aLastLineWithoutItsNewlineIsStillRecorded() throws Exception {
        try (ServerProcess server = ServerProcess.start("printf server", List.of("sh", "-c", "printf 'cut off'"), Map.of(),
                dir.resolve("p.transcript.log"), dir.resolve("p.stderr.log"), Duration.ofSeconds(5))) {
            assertEquals("cut off", server.nextLine(Duration.ofSeconds(5)).orElseThrow());
            assertTrue(server.nextLine(Duration.ofSeconds(5)).isEmpty(), "then the end of the stream");
        }
        assertEquals(List.of("< cut off"), transcript());
    }
}
