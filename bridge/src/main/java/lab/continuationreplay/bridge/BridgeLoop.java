package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import lab.continuationreplay.vectors.ExactJson;

/** One reply line per request line, in order, each flushed before the next request is read. */
final class BridgeLoop {
    static final int MAX_LINE_BYTES = 256 * 1024;
    static final String LINE_TOO_LONG = "request line longer than " + MAX_LINE_BYTES + " bytes";

    private final BoundedLineReader lines;
    private final OutputStream out;
    private final BridgeService service;

    BridgeLoop(InputStream in, OutputStream out, BridgeService service) {
        this.lines = new BoundedLineReader(in, MAX_LINE_BYTES);
        this.out = out;
        this.service = service;
    }

    /** Serves until end of input. */
    void run() throws IOException {
        Optional<BoundedLineReader.Line> next;
        while ((next = lines.next()).isPresent()) {
            BoundedLineReader.Line line = next.get();
            ObjectNode reply = line.tooLong() ? BridgeReply.invalid(LINE_TOO_LONG) : service.handle(line.bytes());
            out.write(ExactJson.mapper().writeValueAsBytes(reply));
            out.write('\n');
            out.flush();
        }
    }
}
