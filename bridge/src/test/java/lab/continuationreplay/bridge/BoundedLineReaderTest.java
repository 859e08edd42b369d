package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BoundedLineReaderTest {
    private static List<BoundedLineReader.Line> readAll(InputStream in, int max) throws IOException {
        BoundedLineReader reader = new BoundedLineReader(in, max);
        List<BoundedLineReader.Line> lines = new ArrayList<>();
        Optional<BoundedLineReader.Line> line;
        while ((line = reader.next()).isPresent()) {
            lines.add(line.get());
        }
        return lines;
    }

    private static List<BoundedLineReader.Line> readAll(String text, int max) throws IOException {
        return readAll(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), max);
    }

    private static String text(BoundedLineReader.Line line) {
        return new String(line.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void splitsAtNewlinesAndKeepsALastLineWithoutOne() throws IOException {
        List<BoundedLineReader.Line> lines = readAll("a\n\nbc\r\nd", 100);
        assertEquals(List.of("a", "", "bc\r", "d"), lines.stream().map(BoundedLineReader.Line::bytes)
                .map(b -> new String(b, StandardCharsets.UTF_8)).toList());
        assertTrue(lines.stream().noneMatch(BoundedLineReader.Line::tooLong));
    }

    @Test
    void emptyInputHasNoLines() throws IOException {
        assertEquals(List.of(), readAll("", 10));
        assertEquals(1, readAll("\n", 10).size());
    }

    @Test
    void aLineOfExactlyTheCapFitsAndOneByteMoreDoesNot() throws IOException {
        List<BoundedLineReader.Line> lines = readAll("x".repeat(10) + "\n" + "y".repeat(11) + "\nz\n", 10);
        assertEquals(3, lines.size());
        assertEquals("x".repeat(10), text(lines.get(0)));
        assertFalse(lines.get(0).tooLong());
        assertTrue(lines.get(1).tooLong());
        assertArrayEquals(new byte[0], lines.get(1).bytes());
        assertEquals("z", text(lines.get(2)));
    }

    @Test
    void anOversizeLineAcrossManyChunksIsSkippedUpToItsNewline() throws IOException {
        String huge = "q".repeat(100_000);
        List<BoundedLineReader.Line> lines = readAll("ok\n" + huge + "\nafter", 1000);
        assertEquals(3, lines.size());
        assertEquals("ok", text(lines.get(0)));
        assertTrue(lines.get(1).tooLong());
        assertEquals("after", text(lines.get(2)));
    }

    @Test
    void anEndlessLineIsNeverBuffered() throws IOException {
        // 64 MiB without a newline, produced on the fly: the reader must stream past it.
        long total = 64L << 20;
        InputStream endless = new InputStream() {
            long sent;

            @Override
            public int read() {
                return sent++ < total ? 'a' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (sent >= total) {
                    return -1;
                }
                int n = (int) Math.min(len, total - sent);
                java.util.Arrays.fill(b, off, off + n, (byte) 'a');
                sent += n;
                return n;
            }
        };
        List<BoundedLineReader.Line> lines = readAll(endless, 256 * 1024);
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).tooLong());
    }
}
