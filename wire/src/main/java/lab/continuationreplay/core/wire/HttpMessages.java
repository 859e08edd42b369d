package lab.continuationreplay.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * Reading HTTP/1.1 messages off a socket as bytes, for the lab's client ({@link HttpExchanges}) and its relay: lines,
 * headers, bodies by length or chunked encoding; and how a bearer token is shown in a transcript (by its principal,
 * or only by its length when the lab did not issue it).
 */
public final class HttpMessages {
    /** The longest head line or head the lab reads; more is a broken peer. */
    public static final int MAX_HEAD = 64 * 1024;
    /** The largest body the lab reads (4x the servers' limit, so their 413 is what a test sees, not the lab's). */
    public static final int MAX_BODY = 16 * 1024 * 1024;

    private HttpMessages() {}

    /** A line ended by CRLF (or a bare LF), without it. @throws EOFException when the stream ends first */
    public static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException(line.size() == 0 ? "closed" : "closed mid-line");
            }
            line.write(b);
            if (line.size() > MAX_HEAD) {
                throw new IOException("a line over " + MAX_HEAD + " bytes");
            }
        }
        byte[] bytes = line.toByteArray();
        int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
    }

    /** Header lines up to the empty line that ends a head. */
    public static List<Header> headers(InputStream in) throws IOException {
        List<Header> headers = new ArrayList<>();
        int size = 0;
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            size += line.length();
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("a header without a name: " + (line.length() > 80 ? line.substring(0, 80) : line));
            }
            if (size > MAX_HEAD) {
                throw new IOException("a head over " + MAX_HEAD + " bytes");
            }
            headers.add(new Header(line.substring(0, colon).trim(), line.substring(colon + 1).trim()));
        }
        return headers;
    }

    /** The first value of {@code name} (any case), or null. */
    public static String value(List<Header> headers, String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
    }

    /**
     * A body by its chunked encoding or its length, as delivered (chunking removed). Without either, a response's
     * body runs to the end of its connection ({@code toEnd}) and a request has none.
     */
    public static byte[] body(InputStream in, List<Header> headers, boolean toEnd) throws IOException {
        String encoding = value(headers, "Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = line(in);
                int semicolon = size.indexOf(';');
                String digits = (semicolon < 0 ? size : size.substring(0, semicolon)).trim();
                int length;
                try {
                    // HEXDIG only: parseInt alone would also take a sign ("-5" as a negative size)
                    if (!digits.matches("[0-9A-Fa-f]+")) {
                        throw new NumberFormatException(digits);
                    }
                    length = Integer.parseInt(digits, 16);
                } catch (NumberFormatException e) {
                    throw new IOException("a chunk size that is not hexadecimal: " + size);
                }
                if (length == 0) {
                    while (!line(in).isEmpty()) {
                        // trailers: none expected, none kept
                    }
                    return body.toByteArray();
                }
                if (length < 0 || body.size() + (long) length > MAX_BODY) {
                    throw new IOException("a body over " + MAX_BODY + " bytes");
                }
                body.write(exactly(in, length));
                line(in);
            }
        }
        String length = value(headers, "Content-Length");
        if (length != null) {
            int n;
            try {
                n = Integer.parseInt(length.trim());
            } catch (NumberFormatException e) {
                throw new IOException("a Content-Length that is not a number: " + length);
            }
            if (n < 0 || n > MAX_BODY) {
                throw new IOException("a body of " + n + " bytes");
            }
            return exactly(in, n);
        }
        return toEnd ? in.readNBytes(MAX_BODY) : new byte[0];
    }

    private static byte[] exactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw new EOFException("closed in the middle of a body");
        }
        return bytes;
    }

    /** The headers as a transcript shows them: an {@code Authorization} value by its principal, never the token. */
    public static List<Header> redacted(List<Header> headers, Map<String, String> principalsByToken) {
        return headers.stream()
                .map(h -> h.name().equalsIgnoreCase("Authorization") ? new Header(h.name(), redact(h.value(), principalsByToken)) : h)
                .toList();
    }

    /** {@code Bearer [token of alice]}, or only the shape of a credential the lab did not issue. */
    public static String redact(String value, Map<String, String> principalsByToken) {
        int space = value.indexOf(' ');
        String scheme = space < 0 ? "" : value.substring(0, space);
        String credential = space < 0 ? value : value.substring(space + 1);
        String principal = principalsByToken.get(credential);
        String shown = principal != null ? "[token of " + principal + "]" : "[redacted, " + credential.length() + " characters]";
        return scheme.isEmpty() ? shown : scheme + " " + shown;
    }
}
