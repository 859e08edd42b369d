package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the transcript writer writes, the reader gives back: exact bytes either way, and nothing else accepted. */
class TranscriptReadTest {
    @TempDir
    Path dir;

    @Test
    void everyKindOfLineReadsBackAsItWasWritten() throws Exception {
        Path file = dir.resolve("p.transcript.log");
        byte[] notUtf8 = {'{', (byte) 0xC3, '}'};
        byte[] bareCr = "{\"a\":1}\r".getBytes(StandardCharsets.UTF_8);
        try (Transcript t = new Transcript(file)) {
            t.sent("{\"jsonrpc\":\"2.0\",\"id\":1}");
            t.sentBytes(notUtf8);
            t.sentBytes(new byte[Transcript.VERBATIM_LIMIT + 1]);
            t.receivedBytes("{\"ok\":\"é\"}".getBytes(StandardCharsets.UTF_8));
            t.receivedBytes(bareCr);
            t.receivedBytes(notUtf8);
        }
        List<Transcript.Line> lines = Transcript.read(file);
        assertEquals(6, lines.size());
        assertEquals(new Transcript.Line(Transcript.Direction.SENT, "{\"jsonrpc\":\"2.0\",\"id\":1}", "{\"jsonrpc\":\"2.0\",\"id\":1}", false),
                lines.get(0));
        assertNull(lines.get(1).text(), "bytes that are not UTF-8 have no text");
        assertTrue(lines.get(2).abridged());
        assertEquals("{\"ok\":\"é\"}", lines.get(3).text());
        assertEquals("{\"a\":1}\r", lines.get(4).text(), "a bare carriage return stays inside its line");
        assertEquals(Transcript.Direction.RECEIVED, lines.get(5).direction());
        assertNull(lines.get(5).text());
    }

    @Test
    void aLineOfNoKnownKindIsRefusedWithItsNumber() throws Exception {
        Path file = dir.resolve("q.transcript.log");
        Files.writeString(file, "> {}\nsomething else\n");
        FormatException e = assertThrows(FormatException.class, () -> Transcript.read(file));
        assertEquals("q.transcript.log: line 2 is neither sent nor received: something else", e.getMessage());
    }

    @Test
    void anEmptyLineInsideATranscriptIsRefusedButTheFinalLineEndIsNot() throws Exception {
        Path file = dir.resolve("r.transcript.log");
        Files.writeString(file, "> {}\n< {}");
        assertEquals(2, Transcript.read(file).size(), "a last line without its 0x0A still counts");
        Files.writeString(file, "> {}\n\n< {}\n");
        assertThrows(FormatException.class, () -> Transcript.read(file));
        Files.writeString(file, "");
        assertEquals(List.of(), Transcript.read(file));
    }
}
