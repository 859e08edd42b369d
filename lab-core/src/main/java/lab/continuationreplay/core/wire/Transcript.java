package lab.continuationreplay.core.wire;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A wire transcript: {@code > line} for every line sent, {@code < line} for every line received, byte for byte as
 * on the pipe (without the 0x0A that ends it). A line that is not strict UTF-8, or that holds a carriage return (which
 * a line reader of the transcript would take for a line end), is written as {@code >b } / {@code <b } and the base64
 * of its exact bytes. Lines are flushed as they happen, so a crash leaves everything up to the crash.
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

    /** A line sent as text: the transcript holds the UTF-8 bytes that went out, as {@link #sentBytes} does. */
    public synchronized void sent(String line) {
        sentBytes(line.getBytes(StandardCharsets.UTF_8));
    }

    /** A line received as bytes, exactly: {@code < text} when it is plain text, else {@code <b <base64>}. */
    public synchronized void receivedBytes(byte[] line) {
        String text = plainText(line);
        if (text != null) {
            write("< ", text);
        } else {
            write("<b ", java.util.Base64.getEncoder().encodeToString(line));
        }
    }

    /** The line as text when it is strict UTF-8 without a carriage return, else null. */
    public static String plainText(byte[] line) {
        for (byte b : line) {
            if (b == '\r') {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(line)).toString();
        } catch (java.nio.charset.CharacterCodingException notUtf8) {
            return null;
        }
    }

    /**
     * A line sent as raw bytes. Plain text ({@link #plainText}) up to {@link #VERBATIM_LIMIT} bytes is written as
     * {@code > line}, like {@link #sent}; anything else as {@code >b <base64 of the bytes>} (exact), and a longer line
     * as {@code >~ <length> bytes sha256 <hex>} plus its first kilobyte in base64, so a fuzz run of thousands of
     * megabyte lines keeps a transcript of reasonable size. The bytes themselves are reproducible from the seed.
     */
    public synchronized void sentBytes(byte[] line) {
        if (line.length > VERBATIM_LIMIT) {
            write(">~ ", line.length + " bytes sha256 " + sha256(line) + " first-1024-base64 "
                    + java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(line, 1024)));
            return;
        }
        String text = plainText(line);
        if (text != null) {
            write("> ", text);
        } else {
            write(">b ", java.util.Base64.getEncoder().encodeToString(line));
        }
    }

    /** Lines up to this many bytes are transcribed whole by {@link #sentBytes}. */
    public static final int VERBATIM_LIMIT = 64 * 1024;

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
