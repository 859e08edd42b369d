package lab.continuationreplay.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinesTest {
    private record Cut(byte[] bytes, boolean ended) {}

    private static List<Cut> cut(InputStream in) throws IOException {
        List<Cut> lines = new ArrayList<>();
        Lines.split(in, (bytes, ended) -> lines.add(new Cut(bytes, ended)));
        return lines;
    }

    private static byte[] joined(List<Cut> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Cut line : lines) {
            out.writeBytes(line.bytes());
            if (line.ended()) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    @Test
    void onlyANewlineEndsALineAndTheLastMayBeCutOff() throws Exception {
        byte[] input = {'a', '\r', 'b', '\n', '\n', (byte) 0xff, (byte) 0xc3, '\n', 'e', 'n', 'd'};
        List<Cut> lines = cut(new ByteArrayInputStream(input));
        assertEquals(4, lines.size());
        assertArrayEquals(new byte[] {'a', '\r', 'b'}, lines.get(0).bytes());
        assertArrayEquals(new byte[0], lines.get(1).bytes(), "an empty line is a line");
        assertArrayEquals(new byte[] {(byte) 0xff, (byte) 0xc3}, lines.get(2).bytes());
        assertEquals(new Cut(lines.get(3).bytes(), false), lines.get(3));
        assertArrayEquals(input, joined(lines), "put back together, the bytes are the input's");
    }

    @Test
    void aLineSpreadOverManyReadsIsOneLine() throws Exception {
        // one byte per read, and a line longer than the read buffer
        byte[] longLine = "x".repeat(200_000).getBytes();
        byte[] input = new byte[longLine.length + 3];
        System.arraycopy(longLine, 0, input, 0, longLine.length);
        input[longLine.length] = '\n';
        input[longLine.length + 1] = 'y';
        input[longLine.length + 2] = '\n';
        InputStream trickle = new ByteArrayInputStream(input) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
        List<Cut> lines = cut(trickle);
        assertEquals(2, lines.size());
        assertEquals(200_000, lines.get(0).bytes().length);
        assertArrayEquals(input, joined(lines));
    }

    @Test
    void nothingIsNoLine() throws Exception {
        assertEquals(List.of(), cut(new ByteArrayInputStream(new byte[0])));
    }
}
