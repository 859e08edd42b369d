package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One answer as the checks read it: its kind, the HTTP status (0 when there was no response), the JSON-RPC result
 * when there was one, and a short detail for the report (an error's code and message, or what was wrong).
 */
public record Reply(ReplyKind kind, int httpStatus, JsonNode result, String detail) {
    public boolean refused() {
        return kind.refusal();
    }

    /** The answer in a few words: {@code JSON-RPC error -32602 Invalid or expired requestState (HTTP 400)}. */
    public String describe() {
        String rest = detail == null || detail.isEmpty() ? "" : " " + detail;
        return switch (kind) {
            case HTTP_4XX -> "HTTP " + httpStatus + rest;
            // their detail already says what happened, with the status if there was one
            case BROKEN, NO_RESPONSE -> kind.words() + ":" + rest;
            default -> kind.words() + rest + " (HTTP " + httpStatus + ")";
        };
    }

    /** How a refusal is summed up in a check's line: {@code JSON-RPC error (HTTP 200)}, {@code HTTP 400}. */
    String refusalShape() {
        return kind == ReplyKind.HTTP_4XX ? "HTTP " + httpStatus : kind.words() + " (HTTP " + httpStatus + ")";
    }
}
