package lab.continuationreplay.server.frames;

import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * stdin as the SDK's transport reads it: only frames that are JSON-RPC 2.0 text get through, as their original bytes.
 * A frame that is not strict UTF-8, not exactly one JSON value, not an object, or whose {@code jsonrpc} is not the
 * string {@code "2.0"}, or that is longer than the limit, is answered here with one error line on stdout and never
 * reaches the SDK (nor a tool). Blank lines pass, and the SDK skips them as before. Reads a line only when the SDK
 * asks for more, on the SDK's reader thread.
 */
public final class FrameGate extends InputStream {
    /** The longest frame, in bytes without its terminator. The wire fuzzer's longest valid frames are ~1.3 MiB. */
    public static final int MAX_FRAME_BYTES = 4 * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(FrameGate.class);

    private final BoundedLines lines;
    private final StrictUtf8 utf8 = new StrictUtf8();
    private final McpJsonMapper mapper;
    private final StdoutLines stdout;
    private final int maxFrameBytes;
    private final Answers answers;
    private byte[] frame = new byte[0];
    private int position;
    private int end;

    public FrameGate(InputStream stdin, McpJsonMapper mapper, StdoutLines stdout) {
        this(stdin, mapper, stdout, MAX_FRAME_BYTES);
    }

    FrameGate(InputStream stdin, McpJsonMapper mapper, StdoutLines stdout, int maxFrameBytes) {
        this(stdin, mapper, stdout, maxFrameBytes, null);
    }

    /** As above, telling {@code answers} the id of every request it passes on. */
    public FrameGate(InputStream stdin, McpJsonMapper mapper, StdoutLines stdout, Answers answers) {
        this(stdin, mapper, stdout, MAX_FRAME_BYTES, answers);
    }

    FrameGate(InputStream stdin, McpJsonMapper mapper, StdoutLines stdout, int maxFrameBytes, Answers answers) {
        this.answers = answers;
        this.lines = new BoundedLines(stdin, maxFrameBytes);
        this.mapper = mapper;
        this.stdout = stdout;
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (position == end) {
            if (!nextFrame()) {
                return -1;
            }
        }
        int n = Math.min(length, end - position);
        System.arraycopy(frame, position, buffer, offset, n);
        position += n;
        return n;
    }

    /** What is left of the current frame: never more, so the SDK's decoder never waits on a line still unchecked. */
    @Override
    public int available() {
        return end - position;
    }

    /** Takes the next line: passes it on, or answers it. False at end of input. */
    private boolean nextFrame() throws IOException {
        if (!lines.next()) {
            return false;
        }
        JsonRpcShape.Inspected inspected = judge();
        Rejection rejection = inspected.rejection();
        if (rejection == null) {
            if (answers != null && inspected.requestId() != null) {
                answers.passed(inspected.requestId());
            }
            frame = lines.bytes();
            position = 0;
            end = lines.frameLength();
        } else {
            log.info("frame refused ({} bytes): {}", lines.wireLength(), rejection.reason());
            stdout.writeLine(rejection.line(mapper));
        }
        return true;
    }

    private JsonRpcShape.Inspected judge() {
        if (lines.tooLong()) {
            return new JsonRpcShape.Inspected(Rejection.invalidMessage(null, "longer than " + maxFrameBytes + " bytes"), null);
        }
        return switch (utf8.classify(lines.bytes(), 0, lines.contentLength())) {
            case INVALID -> new JsonRpcShape.Inspected(Rejection.parseError("not UTF-8"), null);
            case BLANK -> new JsonRpcShape.Inspected(null, null);
            case CONTENT -> JsonRpcShape.inspect(lines.bytes(), 0, lines.contentLength());
        };
    }
}
