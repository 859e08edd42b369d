package lab.continuationreplay.probe.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;
import lab.continuationreplay.history.JsonRpcFrames;

/**
 * Which server frame the proxy keeps from the client: the reply that completes the {@code nth} tool call, counted
 * over the whole run (a session started after another goes on counting where it stopped), and only once. The
 * proxy sees the reply before deciding, since only the reply tells whether a round completed the call. Thread-safe:
 * the stdio proxy calls it from its two pumps, the HTTP proxy from every client connection.
 */
final class LossRule {
    /** What to do with one server frame: lose it or not, its completing number when it completes a call, and whether the run is over. */
    record Decision(boolean lose, Integer completing, boolean stop) {}

    private final int nth;
    private final Integer calls;
    private final Set<String> awaited = new HashSet<>();
    private int completed;
    private boolean lost;

    LossRule(int nth, Integer calls, int completedBefore, boolean lostBefore) {
        this.nth = nth;
        this.calls = calls;
        this.completed = completedBefore;
        this.lost = lostBefore;
    }

    /** A frame from the client, seen before it reaches the server, so the reply's request is known when it comes. */
    synchronized void clientFrame(String scope, JsonNode frame) {
        if (JsonRpcFrames.isToolCall(frame)) {
            awaited.add(scope + " " + JsonRpcFrames.idKey(frame));
        }
    }

    /**
     * A frame from the server, before it goes on. {@code scope} is where request ids are unique: a stdio session, or
     * one HTTP exchange (whose response answers its own request).
     */
    synchronized Decision serverFrame(String scope, JsonNode frame) {
        if (!JsonRpcFrames.isResponse(frame) || !awaited.remove(scope + " " + JsonRpcFrames.idKey(frame)) || !JsonRpcFrames.completes(frame)) {
            return new Decision(false, null, false);
        }
        completed++;
        boolean lose = !lost && completed == nth;
        lost |= lose;
        return new Decision(lose, completed, calls != null && completed >= calls);
    }
}
