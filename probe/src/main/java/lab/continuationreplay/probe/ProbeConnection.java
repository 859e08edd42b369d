package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The probe's way to one server: stdio lines to a process it started, or HTTP exchanges with a URL. Every byte either
 * way is in the transcript; a request either gets the reply with its id or an {@link Exchange} that says why not.
 */
public interface ProbeConnection extends AutoCloseable {
    /** Sends one request frame (it carries its id) and waits for its reply. */
    Exchange send(ObjectNode frame);

    /** Sends every frame at once (one line after another, or one connection each) and waits for every reply. */
    List<Exchange> sendTogether(List<ObjectNode> frames);

    @Override
    void close();
}
