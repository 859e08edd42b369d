package lab.continuationreplay.core.relay;

import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.core.wire.ExchangePlan;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.history.HttpHead;

/**
 * The HTTP relay's plan for a client case whose server loses one reply: the request that is the {@code n}th
 * continuation (counted as the stdio relay counts them, {@link ReplyDrop#isContinuation}) gets
 * {@link ExchangePlan.DropResponse}, every other exchange is forwarded. The server still answers; the client's
 * connection closes without the response, which is how a reply is lost over HTTP. Thread-safe: a relay decides on
 * each client connection's thread.
 */
public final class ContinuationReplyDrop implements ExchangePlan {
    private final int continuation;
    private int continuationsSeen;
    private int chosenExchange;
    private JsonNode chosenId;

    /** @param continuation counts from 1 */
    public ContinuationReplyDrop(int continuation) {
        if (continuation < 1) {
            throw new IllegalArgumentException("continuations count from 1, not " + continuation);
        }
        this.continuation = continuation;
    }

    @Override
    public synchronized Action decide(int exchange, HttpHead request, byte[] body) {
        if (continuationsSeen >= continuation) {
            return FORWARD;
        }
        JsonNode frame = ReplyDrop.object(body);
        if (!ReplyDrop.isContinuation(frame)) {
            return FORWARD;
        }
        continuationsSeen++;
        if (continuationsSeen < continuation) {
            return FORWARD;
        }
        chosenExchange = exchange;
        chosenId = frame.get("id");
        return new DropResponse();
    }

    public int continuation() {
        return continuation;
    }

    /**
     * The JSON-RPC id of the continuation whose response the relay kept from the client, judged from the relay's own
     * events: the plan only asks for the drop, and a server that closed without answering (a crash) leaves nothing
     * to drop.
     */
    public synchronized Optional<JsonNode> droppedId(List<HttpRelay.Event> events) {
        if (chosenId == null) {
            return Optional.empty();
        }
        boolean dropped = events.stream().anyMatch(e -> e.exchange() == chosenExchange && e.action().equals(HttpRelay.DROP_RESPONSE));
        return dropped ? Optional.of(chosenId) : Optional.empty();
    }
}
