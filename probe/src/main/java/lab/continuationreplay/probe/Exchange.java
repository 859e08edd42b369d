package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One request the probe sent and what came back: the reply frame with the request's id, or why none came (a
 * timeout, a closed connection, an HTTP status without a JSON-RPC reply).
 *
 * @param atMs      milliseconds since the probe began, when the request went out
 * @param elapsedMs how long until the reply or the failure
 */
public record Exchange(ObjectNode request, ObjectNode reply, String failure, long atMs, long elapsedMs) {
    public Exchange {
        if ((reply == null) == (failure == null)) {
            throw new IllegalArgumentException("an exchange has a reply or a failure, not both or neither");
        }
    }
}
