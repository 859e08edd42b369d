package lab.continuationreplay.bridge;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Splits a byte stream at {@code \n} with a hard cap per line. A line over the cap is reported as too long and the
 * rest of it is skipped as it streams past, so a client that never sends a newline cannot make the bridge buffer
 * more than the cap.
 */
final class BoundedLineReader {
    /** One line without its {@code \n}; {@code bytes} is empty when the line was too long. */
    record Line(byte[] bytes, boolean tooLong) {}

    private final InputStream in;
    private final int maxBytes;
    private final byte[] chunk = new byte[8192];
    private int position;
    private int limit;
    private boolean endOfStream;

    BoundedLineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or empty at end of stream. A last line without {@code \n} still counts. */
    Optional<Line> next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean tooLong = false;
        boolean sawAnything = false;
        while (true) {
            if (position == limit && !fill()) {
                return sawAnything ? Optional.of(finish(line, tooLong)) : Optional.empty();
            }
            sawAnything = true;
            int newline = indexOfNewline();
            int end = newline >= 0 ? newline : limit;
            int length = end - position;
            if (!tooLong) {
                if (line.size() + length > maxBytes) {
                    tooLong = true;
                    line = new ByteArrayOutputStream();
                } else {
                    line.write(chunk, position, length);
                }
            }
            if (newline >= 0) {
                position = newline + 1;
                return Optional.of(finish(line, tooLong));
            }
            position = limit;
        }
    }

    private static Line finish(ByteArrayOutputStream line, boolean tooLong) {
        return new Line(tooLong ? new byte[0] : line.toByteArray(), tooLong);
    }

    private int indexOfNewline() {
        for (int i = position; i < limit; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private boolean fill() throws IOException {
        if (endOfStream) {
            return false;
        }
        int read = in.read(chunk, 0, chunk.length);
        if (read < 0) {
            endOfStream = true;
            return false;
        }
        position = 0;
        limit = read;
        return true;
    }
}
