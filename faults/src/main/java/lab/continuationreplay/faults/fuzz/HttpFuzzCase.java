package lab.continuationreplay.faults.fuzz;

import java.util.List;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * One bent HTTP request: its class and variant, whether it is a round one or a continuation (only a continuation
 * can have an effect), exactly what goes on the wire (request line, headers in order, body bytes), whether it may
 * end without a response ({@code mayGoUnanswered}: the request never completes, so the server can only time it out
 * or cut it), and the status it must get when one is required (413 for an oversize body), else 0.
 */
public record HttpFuzzCase(HttpFuzzClass kind, String variant, boolean continuation, String operationId, String requestLine,
        List<Header> headers, byte[] body, boolean mayGoUnanswered, int requiredStatus) {
    public HttpFuzzCase {
        headers = List.copyOf(headers);
    }
}
