package lab.continuationreplay.history;

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
 *
 * <p>Over HTTP the same file holds one record per exchange: {@code >h } and the request head as JSON
 * ({@link HttpHead}), then the request body as one body line; {@code <h } and the response head, then the response
 * body (JSON or the whole event stream) as one body line; or {@code <x } when the connection ended without a
 * response. A body is a body line whatever it holds: one with a line feed is written in base64 like any other line
 * that is not plain text. A head and its body are written together, so exchanges running at once never interleave
 * within a record.
 */
public final class Transcript implements AutoCloseable {
    /** The five kinds of line, by their first characters. */
    public static final String SENT = "> ";
    public static final String SENT_BYTES = ">b ";
    public static final String SENT_ABRIDGED = ">~ ";
    public static final String RECEIVED = "< ";
    public static final String RECEIVED_BYTES = "<b ";
    /** HTTP: the request head, the response head, and an exchange that ended without a response. */
    public static final String SENT_HEAD = ">h ";
    public static final String RECEIVED_HEAD = "<h ";
    public static final String NO_RESPONSE = "<x ";

    /** What a line holds: a frame or body, an HTTP head, or the end of an exchange that got no response. */
    public enum Kind { BODY, HEAD, NO_RESPONSE }

    /** Which way a line went. */
    public enum Direction { SENT, RECEIVED }

    /**
     * One transcript line read back: its direction, its text when its bytes are strict UTF-8 ({@code null} when not,
     * or when only an abridged record of a long sent line is kept), and the payload as recorded, for quoting.
     */
    public record Line(Direction direction, String text, String recorded, boolean abridged, Kind kind) {
        public Line(Direction direction, String text, String recorded, boolean abridged) {
            this(direction, text, recorded, abridged, Kind.BODY);
        }
    }

    /**
     * Reads a transcript back, line by line, decoding base64 lines to their exact bytes. A line of any other kind is
     * not a transcript this lab wrote.
     *
     * @throws FormatException naming the file and line when a line is neither sent nor received
     */
    public static java.util.List<Line> read(Path file) throws IOException, FormatException {
        java.util.List<Line> lines = new java.util.ArrayList<>();
        // The transcript itself is UTF-8 text split on 0x0A only: bytes that were not were written as base64.
        String[] all = Files.readString(file, StandardCharsets.UTF_8).split("\n", -1);
        // The last element is what follows the final 0x0A: empty in a transcript that ends where a line ends.
        int count = all[all.length - 1].isEmpty() ? all.length - 1 : all.length;
        for (int number = 1; number <= count; number++) {
            String line = all[number - 1];
            if (line.startsWith(SENT_HEAD)) {
                String head = line.substring(SENT_HEAD.length());
                lines.add(new Line(Direction.SENT, head, head, false, Kind.HEAD));
            } else if (line.startsWith(RECEIVED_HEAD)) {
                String head = line.substring(RECEIVED_HEAD.length());
                lines.add(new Line(Direction.RECEIVED, head, head, false, Kind.HEAD));
            } else if (line.startsWith(NO_RESPONSE)) {
                String head = line.substring(NO_RESPONSE.length());
                lines.add(new Line(Direction.RECEIVED, head, head, false, Kind.NO_RESPONSE));
            } else if (line.startsWith(SENT)) {
                lines.add(new Line(Direction.SENT, line.substring(SENT.length()), line.substring(SENT.length()), false));
            } else if (line.startsWith(SENT_BYTES)) {
                String payload = line.substring(SENT_BYTES.length());
                lines.add(new Line(Direction.SENT, decoded(payload), payload, false));
            } else if (line.startsWith(SENT_ABRIDGED)) {
                lines.add(new Line(Direction.SENT, null, line.substring(SENT_ABRIDGED.length()), true));
            } else if (line.startsWith(RECEIVED)) {
                lines.add(new Line(Direction.RECEIVED, line.substring(RECEIVED.length()), line.substring(RECEIVED.length()), false));
            } else if (line.startsWith(RECEIVED_BYTES)) {
                String payload = line.substring(RECEIVED_BYTES.length());
                lines.add(new Line(Direction.RECEIVED, decoded(payload), payload, false));
            } else {
                String shown = line.length() > 80 ? line.substring(0, 80) + "..." : line;
                throw new FormatException(file.getFileName() + ": line " + number + " is neither sent nor received: " + shown);
            }
        }
        return lines;
    }

    /** The text of a base64 line, or null when its bytes are not strict UTF-8 (or not base64 at all). */
    private static String decoded(String base64) {
        try {
            return utf8OrNull(java.util.Base64.getDecoder().decode(base64));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static String utf8OrNull(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException notUtf8) {
            return null;
        }
    }

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
            write(RECEIVED, text);
        } else {
            write(RECEIVED_BYTES, java.util.Base64.getEncoder().encodeToString(line));
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
            write(SENT_ABRIDGED, line.length + " bytes sha256 " + sha256(line) + " first-1024-base64 "
                    + java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(line, 1024)));
            return;
        }
        String text = plainText(line);
        if (text != null) {
            write(SENT, text);
        } else {
            write(SENT_BYTES, java.util.Base64.getEncoder().encodeToString(line));
        }
    }

    /** HTTP: a request head and its body, as one record. */
    public synchronized void request(HttpHead head, byte[] body) {
        write(SENT_HEAD, head.json());
        body(Direction.SENT, body);
    }

    /** HTTP: a response head and its body (JSON, text, or the whole event stream), as one record. */
    public synchronized void response(HttpHead head, byte[] body) {
        write(RECEIVED_HEAD, head.json());
        body(Direction.RECEIVED, body);
    }

    /** HTTP: the exchange ended without a response (the connection closed, reset, or timed out); {@code head} says how. */
    public synchronized void noResponse(HttpHead head) {
        write(NO_RESPONSE, head.json());
    }

    private void body(Direction direction, byte[] body) {
        boolean lineFeed = false;
        for (byte b : body) {
            lineFeed |= b == '\n';
        }
        if (direction == Direction.SENT && body.length > VERBATIM_LIMIT) {
            sentBytes(body);
            return;
        }
        String text = lineFeed ? null : plainText(body);
        String base64 = java.util.Base64.getEncoder().encodeToString(body);
        if (direction == Direction.SENT) {
            write(text != null ? SENT : SENT_BYTES, text != null ? text : base64);
        } else {
            write(text != null ? RECEIVED : RECEIVED_BYTES, text != null ? text : base64);
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
