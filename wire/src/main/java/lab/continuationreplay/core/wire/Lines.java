package lab.continuationreplay.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** A byte stream cut into lines on 0x0A only, as both SDKs' stdio transports cut it; nothing else is touched. */
public final class Lines {
    /** Receives each line without its 0x0A; {@code ended} is false only for a last line the stream cut off. */
    public interface Sink {
        void line(byte[] bytes, boolean ended) throws IOException;
    }

    private Lines() {}

    /** Reads {@code in} to its end; returns when it ends, or throws what reading it or the sink threw. */
    public static void split(InputStream in, Sink sink) throws IOException {
        byte[] buffer = new byte[1 << 16];
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        // read(byte[]) returns what the pipe holds now, so a line is passed on as soon as its 0x0A arrives
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n') {
                    pending.write(buffer, start, i - start);
                    sink.line(pending.toByteArray(), true);
                    pending.reset();
                    start = i + 1;
                }
            }
            pending.write(buffer, start, n - start);
        }
        if (pending.size() > 0) {
            sink.line(pending.toByteArray(), false);
        }
    }

    /**
     * Writes one line as {@link #split} gave it: its bytes, the 0x0A that ended it (a last line without one stays
     * without one), then a flush, since a relay's reader waits for each line.
     */
    public static void write(OutputStream out, byte[] line, boolean ended) throws IOException {
        out.write(line);
        if (ended) {
            out.write('\n');
        }
        out.flush();
    }
}
