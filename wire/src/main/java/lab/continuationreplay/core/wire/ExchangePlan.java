package lab.continuationreplay.core.wire;

import java.time.Duration;
import lab.continuationreplay.history.HttpHead;

/**
 * What {@link HttpRelay} does with one exchange, decided when the request has arrived whole and before it goes on.
 * The relay's only seam: the recording relay of {@code lab clients} forwards everything or drops one reply; the fault
 * lab's cutting proxy draws from a seeded plan.
 */
@FunctionalInterface
public interface ExchangePlan {
    /** The action for exchange {@code exchange} (from 1 within the relay), given the request as the client sent it. */
    Action decide(int exchange, HttpHead request, byte[] body);

    /** What happens to one exchange. */
    sealed interface Action permits Forward, DropResponse, ResetMidResponse, Delay, Duplicate, Inspect, InspectEvents, HoldResponse {}

    /** Forward the request and the response unchanged. */
    record Forward() implements Action {}

    /** Forward the request; the server answers, but the relay closes the client's connection without the response. */
    record DropResponse() implements Action {}

    /** Forward the request; send the client the first half of the response's bytes, then reset the connection. */
    record ResetMidResponse() implements Action {}

    /** Hold the request for {@code delay} before forwarding it (a slow network); the response is unchanged. */
    record Delay(Duration delay) implements Action {}

    /** Send the request to the server twice, one after the other (a retrying middlebox); the client gets the second response. */
    record Duplicate() implements Action {}

    /**
     * Forward the request, then let {@code rule} decide on the response as the server sent it: lab proxy loses a
     * reply only once it sees that the reply completes a tool call, which the request alone cannot tell.
     */
    record Inspect(ResponseRule rule) implements Action {}

    /**
     * Forward the request; an event-stream response goes to the client event by event as the server writes it, each
     * event judged by {@code events} first ({@link Forward}, or {@link DropResponse} or {@link HoldResponse} from that
     * event on), so a client sees a priming event before its reply is lost and may resume the stream; any other
     * response is judged whole by {@code whole}, as {@link Inspect} does.
     */
    record InspectEvents(ResponseRule whole, EventRule events) implements Action {}

    /** The decisions on an event stream's events, and word of its end. */
    interface EventRule {
        /** The action from this event on (its bytes, blank line included). */
        Action event(int exchange, int status, byte[] event);

        /** The stream ended; {@code clientClosed}: the client closed its connection (or the relay did, dropping it). */
        void ended(int exchange, int status, boolean clientClosed);
    }

    /**
     * Forward the request; the server answers, but the client hears nothing: its connection stays open and silent
     * until the client closes it or the relay does (a reply lost on the way, met by the client's own timeout).
     * {@code clientLeft} is told whether the client closed it (true) or the relay did (false): under the
     * 2026-07-28 rules a client that closes the stream of a request cancels it.
     */
    record HoldResponse(java.util.function.Consumer<Boolean> clientLeft) implements Action {}

    /** The decision on a response for {@link Inspect}: {@link Forward}, {@link DropResponse} or {@link HoldResponse}. */
    @FunctionalInterface
    interface ResponseRule {
        Action decide(int exchange, int status, byte[] body);
    }

    Action FORWARD = new Forward();

    /** Forwards every exchange unchanged. */
    static ExchangePlan forwardAll() {
        return (exchange, request, body) -> FORWARD;
    }
}
