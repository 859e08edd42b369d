package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * Bends a valid POST of {@code create_guarded_issue} into one request of a given {@link HttpFuzzClass}. Pure apart
 * from the seeded {@link Random} it is given: the same seed and bases make the same requests, byte for byte.
 */
public final class HttpRequestMutator {
    /** The body larger than this must be refused with 413, by both servers. */
    public static final int MAX_BODY = 4 * 1024 * 1024;
    private static final String TOOL = "create_guarded_issue";
    private static final String PLACEHOLDER = "\u00a7fuzz-bytes\u00a7";

    /**
     * The valid request a case starts from: the {@code Host} value, the {@code Authorization} value (a bearer token;
     * it goes on the wire, never into a file), whether it is a continuation, its operation id and its JSON-RPC frame.
     */
    public record Base(String host, String authorization, boolean continuation, String operationId, ObjectNode frame) {}

    private final Random random;

    public HttpRequestMutator(Random random) {
        this.random = random;
    }

    /** A class drawn uniformly. */
    public HttpFuzzClass nextClass() {
        HttpFuzzClass[] all = HttpFuzzClass.values();
        return all[random.nextInt(all.length)];
    }

    /** The headers and request line of the valid request, {@code Content-Length} included. */
    public static List<Header> validHeaders(Base base, int contentLength) {
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Host", base.host()));
        headers.add(new Header("Authorization", base.authorization()));
        headers.add(new Header("Content-Type", "application/json"));
        headers.add(new Header("Accept", "application/json, text/event-stream"));
        headers.add(new Header("MCP-Protocol-Version", WireEnvelope.PROTOCOL_VERSION));
        headers.add(new Header("Mcp-Method", "tools/call"));
        headers.add(new Header("Mcp-Name", TOOL));
        headers.add(new Header("Content-Length", Integer.toString(contentLength)));
        headers.add(new Header("Connection", "close"));
        return headers;
    }

    public HttpFuzzCase mutate(HttpFuzzClass kind, Base base) {
        byte[] body = bytes(base.frame());
        List<Header> headers = validHeaders(base, body.length);
        String line = "POST /mcp HTTP/1.1";
        return switch (kind) {
            case PROTOCOL_VERSION_MISSING -> of(kind, "no header", base, line, HttpCall.without(headers, "MCP-Protocol-Version"), body);
            case PROTOCOL_VERSION_DUPLICATED -> protocolVersionDuplicated(kind, base, line, headers, body);
            case PROTOCOL_VERSION_GARBAGE -> protocolVersionGarbage(kind, base, line, headers, body);
            case MCP_METHOD_MISSING -> of(kind, "no header", base, line, HttpCall.without(headers, "Mcp-Method"), body);
            case MCP_METHOD_DUPLICATED -> mcpMethodDuplicated(kind, base, line, headers, body);
            case MCP_METHOD_GARBAGE -> mcpMethodGarbage(kind, base, line, headers, body);
            case MCP_NAME_MISSING -> of(kind, "no header", base, line, HttpCall.without(headers, "Mcp-Name"), body);
            case MCP_NAME_DUPLICATED -> mcpNameDuplicated(kind, base, line, headers, body);
            case MCP_NAME_OTHER_TOOL -> mcpNameOtherTool(kind, base, line, headers, body);
            case CONTENT_TYPE_MISSING -> of(kind, "no header", base, line, HttpCall.without(headers, "Content-Type"), body);
            case CONTENT_TYPE_WRONG -> contentTypeWrong(kind, base, line, headers, body);
            case CONTENT_TYPE_PARAMETERS -> contentTypeParameters(kind, base, line, headers, body);
            case HTTP_METHOD -> httpMethod(base, headers, body);
            case OTHER_PATH -> otherPath(base, headers, body);
            case CHUNKED_VALID -> chunkedValid(kind, base, line, headers, body);
            case CHUNKED_TRUNCATED -> chunkedTruncated(kind, base, line, headers, body);
            case CHUNKED_BAD_SIZE -> badChunkSize(base, line, headers, body);
            case CONTENT_LENGTH_SHORTER -> contentLengthShorter(kind, base, line, headers, body);
            case CONTENT_LENGTH_LONGER -> contentLengthLonger(kind, base, line, headers, body);
            case CONTENT_LENGTH_INVALID -> contentLengthInvalid(base, line, headers, body);
            case OVERSIZE_BODY -> oversize(base, line, headers);
            case INVALID_UTF8 -> invalidUtf8(base, line);
            case NOT_JSON -> notJson(kind, base, line, headers, body);
            case BATCH -> batch(kind, base, line, headers, body);
            case HEADER_INJECTION -> headerInjection(base, line, headers, body);
            case HUGE_HEADER -> hugeHeader(base, line, headers, body);
        };
    }

    private HttpFuzzCase protocolVersionDuplicated(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String second = pick("2026-07-28", "2025-06-18", "2025-11-25", "garbage");
        return of(kind, "then " + second, base, line, HttpCall.plus(headers, "MCP-Protocol-Version",
                new Header("MCP-Protocol-Version", second)), body);
    }

    private HttpFuzzCase protocolVersionGarbage(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String value = pick("", "garbage", "2026-07-29", "9999-99-99", "2026-07-28x", "2026_07_28", "2026-07-28, 2025-06-18");
        return of(kind, quoted(value), base, line, HttpCall.with(headers, "MCP-Protocol-Version", value), body);
    }

    private HttpFuzzCase mcpMethodDuplicated(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String second = pick("tools/call", "tools/list", "resources/read");
        return of(kind, "then " + second, base, line, HttpCall.plus(headers, "Mcp-Method", new Header("Mcp-Method", second)), body);
    }

    private HttpFuzzCase mcpMethodGarbage(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String value = pick("", "tools/list", "resources/read", "TOOLS/CALL", "tools/call/x", "garbage");
        return of(kind, quoted(value), base, line, HttpCall.with(headers, "Mcp-Method", value), body);
    }

    private HttpFuzzCase mcpNameDuplicated(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String second = pick(TOOL, "get_operation_status");
        return of(kind, "then " + second, base, line, HttpCall.plus(headers, "Mcp-Name", new Header("Mcp-Name", second)), body);
    }

    private HttpFuzzCase mcpNameOtherTool(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String value = pick("get_operation_status", "create_issue", "", "CREATE_GUARDED_ISSUE", "create_guarded_issue2");
        return of(kind, quoted(value), base, line, HttpCall.with(headers, "Mcp-Name", value), body);
    }

    private HttpFuzzCase contentTypeWrong(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String value = pick("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/jsonx", "text/json", "application/xml", "");
        return of(kind, quoted(value), base, line, HttpCall.with(headers, "Content-Type", value), body);
    }

    private HttpFuzzCase contentTypeParameters(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String value = pick("application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON",
                "application/json; charset=iso-8859-1", "application/json ; x=y");
        return of(kind, quoted(value), base, line, HttpCall.with(headers, "Content-Type", value), body);
    }

    private HttpFuzzCase chunkedValid(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String extension = random.nextBoolean() ? "" : ";x=y";
        boolean upper = random.nextBoolean();
        byte[] chunked = chunked(body, extension, upper, true);
        return of(kind, "chunks" + extension + (upper ? ", upper-case sizes" : ""), base, line, chunkedHeaders(headers), chunked);
    }

    private HttpFuzzCase chunkedTruncated(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        byte[] chunked = chunked(body, "", false, true);
        boolean midChunk = random.nextBoolean();
        int cut = midChunk ? 1 + random.nextInt(Math.max(1, chunked.length - 6)) : chunked.length - 5;
        return unanswerable(kind, midChunk ? "cut inside a chunk" : "no last chunk", base, line, chunkedHeaders(headers),
                Arrays.copyOf(chunked, cut));
    }

    private HttpFuzzCase contentLengthShorter(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        int declared = random.nextInt(body.length);
        return of(kind, "declared " + declared + " of " + body.length, base, line,
                HttpCall.with(headers, "Content-Length", Integer.toString(declared)), body);
    }

    private HttpFuzzCase contentLengthLonger(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        int more = 1 + random.nextInt(100);
        return unanswerable(kind, "declared " + more + " more", base, line,
                HttpCall.with(headers, "Content-Length", Integer.toString(body.length + more)), body);
    }

    private HttpFuzzCase notJson(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        String text = pick("", "not json", "{", "null", "42", "\"text\"", "<xml/>", "{\"jsonrpc\":\"2.0\"} trailing",
                new String(body, StandardCharsets.UTF_8) + " {}");
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return of(kind, quoted(text.length() > 30 ? text.substring(0, 12) + "…" + text.substring(text.length() - 5) : text), base,
                line, HttpCall.with(headers, "Content-Length", Integer.toString(bytes.length)), bytes);
    }

    private HttpFuzzCase batch(HttpFuzzClass kind, Base base, String line, List<Header> headers, byte[] body) {
        ArrayNode batch = JsonNodeFactory.instance.arrayNode();
        int size = random.nextInt(3);
        for (int i = 0; i < size; i++) {
            batch.add(base.frame().deepCopy().put("id", base.frame().path("id").asLong() + i * 1_000_000L));
        }
        byte[] bytes = batch.toString().getBytes(StandardCharsets.UTF_8);
        return of(kind, size + " request(s) in an array", base, line,
                HttpCall.with(headers, "Content-Length", Integer.toString(bytes.length)), bytes);
    }

    private HttpFuzzCase httpMethod(Base base, List<Header> headers, byte[] body) {
        String method = pick("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD");
        boolean withBody = method.equals("PUT") || method.equals("PATCH");
        List<Header> sent = withBody ? headers : HttpCall.without(headers, "Content-Length");
        return of(HttpFuzzClass.HTTP_METHOD, method, base, method + " /mcp HTTP/1.1", sent, withBody ? body : new byte[0]);
    }

    private HttpFuzzCase otherPath(Base base, List<Header> headers, byte[] body) {
        String path = pick("/", "/mcp/", "/MCP", "/mcp/extra", "/mcpx", "/api/mcp", "//mcp", "/mcp?x=1", "/%6dcp", "/./mcp",
                "/mcp/../mcp", "http://" + base.host() + "/mcp", "*");
        return of(HttpFuzzClass.OTHER_PATH, path, base, "POST " + path + " HTTP/1.1", headers, body);
    }

    private HttpFuzzCase badChunkSize(Base base, String line, List<Header> headers, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String variant;
        switch (random.nextInt(5)) {
            case 0 -> {
                variant = "size 'zz'";
                write(out, "zz\r\n");
                out.writeBytes(body);
                write(out, "\r\n0\r\n\r\n");
            }
            case 1 -> {
                variant = "negative size";
                write(out, "-" + Integer.toHexString(body.length) + "\r\n");
                out.writeBytes(body);
                write(out, "\r\n0\r\n\r\n");
            }
            case 2 -> {
                variant = "size beyond 2^64";
                write(out, "1ffffffffffffffff0\r\n");
                out.writeBytes(body);
                write(out, "\r\n0\r\n\r\n");
            }
            case 3 -> {
                variant = "size larger than the chunk";
                write(out, Integer.toHexString(body.length + 1 + random.nextInt(64)) + "\r\n");
                out.writeBytes(body);
                write(out, "\r\n0\r\n\r\n");
            }
            default -> {
                variant = "size smaller than the chunk";
                write(out, Integer.toHexString(Math.max(1, body.length / 2)) + "\r\n");
                out.writeBytes(body);
                write(out, "\r\n0\r\n\r\n");
            }
        }
        return unanswerable(HttpFuzzClass.CHUNKED_BAD_SIZE, variant, base, line, chunkedHeaders(headers), out.toByteArray());
    }

    private HttpFuzzCase contentLengthInvalid(Base base, String line, List<Header> headers, byte[] body) {
        String length = Integer.toString(body.length);
        return switch (random.nextInt(6)) {
            case 0 -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "'abc'", base, line, HttpCall.with(headers, "Content-Length", "abc"), body);
            case 1 -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "'-1'", base, line, HttpCall.with(headers, "Content-Length", "-1"), body);
            case 2 -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "'+" + length + "'", base, line,
                    HttpCall.with(headers, "Content-Length", "+" + length), body);
            case 3 -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "two different lengths", base, line,
                    HttpCall.plus(headers, "Content-Length", new Header("Content-Length", Integer.toString(body.length + 7))), body);
            case 4 -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "the same length twice", base, line,
                    HttpCall.plus(headers, "Content-Length", new Header("Content-Length", length)), body);
            default -> unanswerable(HttpFuzzClass.CONTENT_LENGTH_INVALID, "a length and chunked", base, line,
                    HttpCall.plus(headers, "Content-Length", new Header("Transfer-Encoding", "chunked")), chunked(body, "", false, true));
        };
    }

    private HttpFuzzCase oversize(Base base, String line, List<Header> headers) {
        ObjectNode frame = base.frame().deepCopy();
        int over = 1 + random.nextInt(64 * 1024);
        int overhead = bytes(frame).length + ",\"padding\":\"\"".length();
        ((ObjectNode) frame.path("params").path("arguments")).put("padding", "x".repeat(MAX_BODY + over - overhead));
        byte[] body = bytes(frame);
        boolean chunked = random.nextInt(4) == 0;
        if (chunked) {
            return new HttpFuzzCase(HttpFuzzClass.OVERSIZE_BODY, "chunked, " + body.length + " bytes", base.continuation(),
                    base.operationId(), line, chunkedHeaders(headers), chunked(body, "", false, true), true, 413);
        }
        return new HttpFuzzCase(HttpFuzzClass.OVERSIZE_BODY, body.length + " bytes", base.continuation(), base.operationId(), line,
                HttpCall.with(headers, "Content-Length", Integer.toString(body.length)), body, true, 413);
    }

    /** Invalid UTF-8 inside one string of the body: a title (bound into the state), the answer, or the client's name. */
    private HttpFuzzCase invalidUtf8(Base base, String line) {
        byte[][] sequences = {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF},
            {(byte) 0xE2, (byte) 0x82}};
        String[] names = {"C3 28", "FF", "a surrogate ED A0 80", "overlong C0 AF", "truncated E2 82"};
        int which = random.nextInt(sequences.length);
        ObjectNode frame = base.frame().deepCopy();
        ObjectNode params = (ObjectNode) frame.path("params");
        String where;
        int place = random.nextInt(base.continuation() ? 3 : 2);
        if (place == 0) {
            where = "title";
            ((ObjectNode) params.path("arguments")).put("title", params.path("arguments").path("title").asText() + PLACEHOLDER);
        } else if (place == 1) {
            where = "client name";
            ((ObjectNode) params.path("_meta").path("io.modelcontextprotocol/clientInfo")).put("name", "lab" + PLACEHOLDER);
        } else {
            where = "answer";
            ((ObjectNode) params.path("inputResponses").path("body").path("content")).put("body", "answer" + PLACEHOLDER);
        }
        byte[] body = replace(bytes(frame), PLACEHOLDER.getBytes(StandardCharsets.UTF_8), sequences[which]);
        Base shaped = new Base(base.host(), base.authorization(), base.continuation(), base.operationId(), frame);
        return of(HttpFuzzClass.INVALID_UTF8, names[which] + " in the " + where, shaped, line, validHeaders(shaped, body.length), body);
    }

    private HttpFuzzCase headerInjection(Base base, String line, List<Header> headers, byte[] body) {
        String variant;
        List<Header> sent;
        switch (random.nextInt(6)) {
            case 0 -> {
                variant = "CRLF and another header in Mcp-Name";
                sent = HttpCall.with(headers, "Mcp-Name", TOOL + "\r\nX-Injected: yes");
            }
            case 1 -> {
                variant = "bare LF in Mcp-Name";
                sent = HttpCall.with(headers, "Mcp-Name", TOOL + "\nX-Injected: yes");
            }
            case 2 -> {
                variant = "bare CR in Mcp-Name";
                sent = HttpCall.with(headers, "Mcp-Name", TOOL + "\rX-Injected: yes");
            }
            case 3 -> {
                variant = "NUL in MCP-Protocol-Version";
                sent = HttpCall.with(headers, "MCP-Protocol-Version", WireEnvelope.PROTOCOL_VERSION + "\u0000");
            }
            case 4 -> {
                variant = "obs-fold continuation line";
                sent = HttpCall.with(headers, "Accept", "application/json,\r\n text/event-stream");
            }
            default -> {
                variant = "CRLF CRLF and a second request in Mcp-Name";
                sent = HttpCall.with(headers, "Mcp-Name", TOOL + "\r\n\r\nGET / HTTP/1.1\r\nHost: " + base.host());
            }
        }
        return unanswerable(HttpFuzzClass.HEADER_INJECTION, variant, base, line, sent, body);
    }

    private HttpFuzzCase hugeHeader(Base base, String line, List<Header> headers, byte[] body) {
        return switch (random.nextInt(3)) {
            case 0 -> unanswerable(HttpFuzzClass.HUGE_HEADER, "one header of 64 KiB", base, line,
                    HttpCall.plus(headers, "Accept", new Header("X-Padding", "p".repeat(64 * 1024))), body);
            case 1 -> unanswerable(HttpFuzzClass.HUGE_HEADER, "one header of 1 MiB", base, line,
                    HttpCall.plus(headers, "Accept", new Header("X-Padding", "p".repeat(1024 * 1024))), body);
            default -> {
                List<Header> many = new ArrayList<>(headers);
                for (int i = 0; i < 2000; i++) {
                    many.add(1, new Header("X-Many-" + i, "v"));
                }
                yield unanswerable(HttpFuzzClass.HUGE_HEADER, "2000 headers", base, line, many, body);
            }
        };
    }

    /** The body as chunks of random sizes (1 to 64 bytes, then the rest), optionally with the terminating chunk. */
    byte[] chunked(byte[] body, String extension, boolean upperCase, boolean terminated) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int size = Math.min(body.length - at, 1 + random.nextInt(random.nextBoolean() ? 64 : 4096));
            String hex = Integer.toHexString(size);
            write(out, (upperCase ? hex.toUpperCase(Locale.ROOT) : hex) + extension + "\r\n");
            out.write(body, at, size);
            write(out, "\r\n");
            at += size;
        }
        if (terminated) {
            write(out, "0\r\n\r\n");
        }
        return out.toByteArray();
    }

    /** The chunked body's headers: no {@code Content-Length}, {@code Transfer-Encoding: chunked}. */
    private static List<Header> chunkedHeaders(List<Header> headers) {
        return HttpCall.plus(HttpCall.without(headers, "Content-Length"), "Mcp-Name", new Header("Transfer-Encoding", "chunked"));
    }

    private static HttpFuzzCase of(HttpFuzzClass kind, String variant, Base base, String line, List<Header> headers, byte[] body) {
        return new HttpFuzzCase(kind, variant, base.continuation(), base.operationId(), line, headers, body, false, 0);
    }

    /** A request whose end the server cannot see or may not wait for: the exchange may end without a response. */
    private static HttpFuzzCase unanswerable(HttpFuzzClass kind, String variant, Base base, String line, List<Header> headers,
            byte[] body) {
        return new HttpFuzzCase(kind, variant, base.continuation(), base.operationId(), line, headers, body, true, 0);
    }

    private String pick(String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String quoted(String value) {
        return "'" + value + "'";
    }

    private static byte[] bytes(ObjectNode frame) {
        return frame.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    static byte[] replace(byte[] data, byte[] pattern, byte[] with) {
        for (int i = 0; i + pattern.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + pattern.length, pattern, 0, pattern.length)) {
                byte[] out = new byte[data.length - pattern.length + with.length];
                System.arraycopy(data, 0, out, 0, i);
                System.arraycopy(with, 0, out, i, with.length);
                System.arraycopy(data, i + pattern.length, out, i + with.length, data.length - i - pattern.length);
                return out;
            }
        }
        throw new IllegalArgumentException("placeholder not in the frame");
    }
}
