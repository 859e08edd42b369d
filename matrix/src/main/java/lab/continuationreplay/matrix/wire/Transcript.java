package lab.continuationreplay.matrix.wire;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A wire transcript: {@code > line} for every line sent, {@code < line} for every line received, byte for byte as
 * on the pipe. Lines are flushed as they happen, so a crash leaves everything up to the crash.
 */
public final class Transcript implements AutoCloseable {
    private final BufferedWriter out;

    public Transcript(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void sent(String line) {
        write("> ", line);
    }

    public synchronized void received(String line) {
        write("< ", line);
    }

    private void write(String direction, String line) {
        try {
            out.write(direction);
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
