package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedLinesTest {
    /** Hands out one byte per read, so every line crosses reads. */
    static InputStream trickle(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }

    static List<String> frames(InputStream in, int limit) throws IOException {
        BoundedLines lines = new BoundedLines(in, limit);
        List<String> out = new ArrayList<>();
        while (lines.next()) {
            out.add(lines.tooLong() ? "<too long " + lines.wireLength() + ">"
                    : new String(lines.bytes(), 0, lines.frameLength(), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void splitsWhereTheSdkSplits() throws IOException {
        String input = "a\nb\r\nc\rd";
        List<String> expected = List.of("a\n", "b\r", "\n", "c\r", "d");
        assertEquals(expected, frames(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), 100));
        assertEquals(expected, frames(trickle(input), 100));
    }

    @Test
    void noInputIsNoLine() throws IOException {
        assertFalse(new BoundedLines(new ByteArrayInputStream(new byte[0]), 10).next());
        assertEquals(List.of("\n"), frames(trickle("\n"), 10));
    }

    @Test
    void aLineOverTheLimitIsCountedNotKept() throws IOException {
        assertEquals(List.of("12345\n", "<too long 7>", "ok\n", "<too long 6>"),
                frames(trickle("12345\n123456\nok\n123456"), 5));
        String big = "x".repeat(100_000);
        assertEquals(List.of("<too long 100001>", "y\n"), frames(new ByteArrayInputStream((big + "\ny\n").getBytes(StandardCharsets.UTF_8)), 50_000));
    }

    @Test
    void aCompleteLineDoesNotWaitForMoreInput() throws IOException {
        // a stream that fails if read past the first line's terminator before that line is taken
        byte[] first = "{}\n".getBytes(StandardCharsets.UTF_8);
        InputStream oneLineThenStall = new InputStream() {
            int at;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at == first.length) {
                    throw new AssertionError("read past a complete line");
                }
                int n = Math.min(len, first.length - at);
                System.arraycopy(first, at, b, off, n);
                at += n;
                return n;
            }
        };
        BoundedLines lines = new BoundedLines(oneLineThenStall, 100);
        assertTrue(lines.next());
        assertEquals("{}\n", new String(lines.bytes(), 0, lines.frameLength(), StandardCharsets.UTF_8));
    }
}
