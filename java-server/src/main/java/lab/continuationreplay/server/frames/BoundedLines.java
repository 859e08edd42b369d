package lab.continuationreplay.server.frames;

import java.io.IOException;
import java.io.InputStream;

/**
 * stdin as lines of bytes, split where the SDK splits them ({@code \n} or {@code \r}; {@code \r\n} is a line and a
 * blank one). A line longer than the limit is read to its end but not kept: only its length counts. A last line
 * without a terminator is still a line, as the SDK reads it.
 */
public final class BoundedLines {
    private static final int CHUNK = 8192;
    /** A buffer grown past this for one large line is dropped afterwards, so it is not held for the session. */
    private static final int KEEP = 64 * 1024;

    private final InputStream in;
    private final int maxContent;
    private final byte[] chunk = new byte[CHUNK];
    private int chunkPos;
    private int chunkEnd;
    private boolean endOfInput;

    private byte[] line = new byte[CHUNK];
    private int content;
    private boolean terminated;
    private boolean tooLong;
    private long seen;

    public BoundedLines(InputStream in, int maxContent) {
        this.in = in;
        this.maxContent = maxContent;
    }

    /** Reads the next line; false at end of input with nothing left. Blocks only until that line is complete. */
    public boolean next() throws IOException {
        if (line.length > KEEP) {
            line = new byte[CHUNK];
        }
        content = 0;
        terminated = false;
        tooLong = false;
        seen = 0;
        while (true) {
            if (chunkPos == chunkEnd) {
                if (endOfInput || !fill()) {
                    return seen > 0;
                }
                continue;
            }
            int end = chunkPos;
            while (end < chunkEnd && chunk[end] != '\n' && chunk[end] != '\r') {
                end++;
            }
            keep(chunkPos, end - chunkPos);
            if (end < chunkEnd) {
                terminated = true;
                seen++;
                ensure(content + 1);
                line[content] = chunk[end];
                chunkPos = end + 1;
                return true;
            }
            chunkPos = chunkEnd;
        }
    }

    /** The line's bytes: {@link #contentLength()} of content, then its terminator if it had one. */
    public byte[] bytes() {
        return line;
    }

    public int contentLength() {
        return content;
    }

    /** Content plus terminator: the bytes to pass on unchanged. */
    public int frameLength() {
        return content + (terminated ? 1 : 0);
    }

    /** True if the content exceeded the limit; then {@link #bytes()} holds nothing of it. */
    public boolean tooLong() {
        return tooLong;
    }

    /** Bytes the line had on the wire, terminator included (for a line too long to keep, too). */
    public long wireLength() {
        return seen;
    }

    private boolean fill() throws IOException {
        int n = in.read(chunk, 0, CHUNK);
        if (n < 0) {
            endOfInput = true;
            return false;
        }
        chunkPos = 0;
        chunkEnd = n;
        return true;
    }

    private void keep(int from, int length) {
        seen += length;
        if (tooLong || length == 0) {
            return;
        }
        if ((long) content + length > maxContent) {
            tooLong = true;
            content = 0;
            line = new byte[CHUNK];
            return;
        }
        ensure(content + length);
        System.arraycopy(chunk, from, line, content, length);
        content += length;
    }

    private void ensure(int capacity) {
        if (capacity > line.length) {
            long grown = Math.max(capacity, Math.min((long) maxContent + 1, 2L * line.length));
            line = java.util.Arrays.copyOf(line, (int) grown);
        }
    }
}
