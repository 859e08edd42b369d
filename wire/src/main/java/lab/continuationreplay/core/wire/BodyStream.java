package lab.continuationreplay.core.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * A response body read as it arrives, chunking removed: what an event stream needs, whose events must be seen one by
 * one while the server still writes (a priming event, a request from the server in the middle of a call).
 * {@link HttpMessages#body} reads the same framing whole.
 */
final class BodyStream extends InputStream {
    private final InputStream in;
    private final boolean chunked;
    /** Bytes left in this chunk, or in the whole body by its length; -1 when the body runs to the end of the connection. */
    private long left;
    private boolean ended;
    private long total;
    private boolean started;

    private BodyStream(InputStream in, boolean chunked, long left) {
        this.in = in;
        this.chunked = chunked;
        this.left = left;
    }

    static BodyStream of(InputStream in, List<Header> headers) throws IOException {
        String encoding = HttpMessages.value(headers, "Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return new BodyStream(in, true, 0);
        }
        String length = HttpMessages.value(headers, "Content-Length");
        if (length == null) {
            return new BodyStream(in, false, -1);
        }
        try {
            long n = Long.parseLong(length.trim());
            if (n < 0 || n > HttpMessages.MAX_BODY) {
                throw new IOException("a body of " + n + " bytes");
            }
            return new BodyStream(in, false, n);
        } catch (NumberFormatException e) {
            throw new IOException("a Content-Length that is not a number: " + length);
        }
    }

    @Override
    public int read() throws IOException {
        if (ended || !ready()) {
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            if (chunked || left > 0) {
                throw new EOFException("closed in the middle of a body");
            }
            ended = true;
            return -1;
        }
        if (left > 0) {
            left--;
        }
        if (++total > HttpMessages.MAX_BODY) {
            throw new IOException("a body over " + HttpMessages.MAX_BODY + " bytes");
        }
        return b;
    }

    /** Whether a byte of the body is left to read: the next chunk's size read when this one is used up. */
    private boolean ready() throws IOException {
        if (!chunked) {
            if (left == 0) {
                ended = true;
            }
            return !ended;
        }
        if (left > 0) {
            return true;
        }
        if (started) {
            HttpMessages.line(in); // the CRLF after the previous chunk's data
        }
        started = true;
        String size = HttpMessages.line(in);
        int semicolon = size.indexOf(';');
        String digits = (semicolon < 0 ? size : size.substring(0, semicolon)).trim();
        if (!digits.matches("[0-9A-Fa-f]{1,8}")) {
            throw new IOException("a chunk size that is not hexadecimal: " + size);
        }
        left = Long.parseLong(digits, 16);
        if (left == 0) {
            while (!HttpMessages.line(in).isEmpty()) {
                // trailers: none expected, none kept
            }
            ended = true;
            return false;
        }
        return true;
    }
}
