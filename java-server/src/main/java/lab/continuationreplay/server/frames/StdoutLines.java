package lab.continuationreplay.server.frames;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * stdout shared by several writers (the SDK's transport, the frame gate): each writer gets its own view that
 * assembles whole lines, and every whole line goes out in one write, then a flush, under one lock. So no line of one
 * writer can land inside a line of another, however either splits its writes. Only frames go out: a line that is not
 * a JSON object and a newline (a stray print, a half line at close) goes to {@code elsewhere} (stderr), marked.
 */
public final class StdoutLines {
    private final OutputStream out;
    private final OutputStream elsewhere;
    private final Object lock = new Object();
    private final Answers answers;

    public StdoutLines(OutputStream out) {
        this(out, System.err);
    }

    public StdoutLines(OutputStream out, OutputStream elsewhere) {
        this(out, elsewhere, null);
    }

    /** As {@link #StdoutLines(OutputStream)}, telling {@code answers} of every reply a {@link #writer()} writes. */
    public StdoutLines(OutputStream out, Answers answers) {
        this(out, System.err, answers);
    }

    private StdoutLines(OutputStream out, OutputStream elsewhere, Answers answers) {
        this.out = out;
        this.elsewhere = elsewhere;
        this.answers = answers;
    }

    /** Writes one complete line ({@code line} ends with its newline). */
    public void writeLine(byte[] line) throws IOException {
        emit(line, 0, line.length, false);
    }

    /** A writer's own view: bytes up to each newline are held, then written as one line. */
    public OutputStream writer() {
        return new LineView();
    }

    /** {@code reply}: a line of a writer's view, which settles a request in {@link #answers} once it is out. */
    private void emit(byte[] bytes, int offset, int length, boolean reply) throws IOException {
        boolean frame = length >= 3 && bytes[offset] == '{' && bytes[offset + length - 2] == '}'
                && bytes[offset + length - 1] == '\n';
        synchronized (lock) {
            OutputStream target = frame ? out : elsewhere;
            if (!frame) {
                target.write(HELD_BACK);
            }
            target.write(bytes, offset, length);
            if (!frame && (length == 0 || bytes[offset + length - 1] != '\n')) {
                target.write('\n');
            }
            target.flush();
        }
        if (frame && reply && answers != null) {
            Object id = JsonRpcShape.replyId(bytes, offset, length);
            if (id != null) {
                answers.answered(id);
            }
        }
    }

    private static final byte[] HELD_BACK = "java-server: held back from stdout (not a frame): "
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final class LineView extends OutputStream {
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            int start = offset;
            int end = offset + length;
            for (int i = offset; i < end; i++) {
                if (bytes[i] != '\n') {
                    continue;
                }
                if (partial.size() == 0) {
                    emit(bytes, start, i + 1 - start, true);
                } else {
                    partial.write(bytes, start, i + 1 - start);
                    emit(partial.toByteArray(), 0, partial.size(), true);
                    partial.reset();
                }
                start = i + 1;
            }
            partial.write(bytes, start, end - start);
        }

        /** Whole lines are flushed as they complete; a partial line waits for its newline. */
        @Override
        public void flush() {}

        /** Writes what is left of an unfinished line. */
        @Override
        public synchronized void close() throws IOException {
            if (partial.size() > 0) {
                emit(partial.toByteArray(), 0, partial.size(), true);
                partial.reset();
            }
        }
    }
}
