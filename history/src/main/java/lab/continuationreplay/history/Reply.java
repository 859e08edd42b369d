package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One reply, read the same way for both SDKs: a structured result, or a refusal whose mechanism is taken from a
 * JSON-RPC error (Java) or from the single text of an {@code isError} result (TypeScript).
 */
public record Reply(ObjectNode raw) {
    /** SDK-independent names for the refusals the cases expect. */
    public static final String STATE_REJECTED = "request_state_rejected";
    public static final String UNSUPPORTED_CONTINUATION = "unsupported_continuation";
    /**
     * The application state's own check (seed spec §4, check 4): its {@code issued_at} is later than the server's
     * clock, as a replica whose clock runs behind the one that issued the state sees it.
     */
    public static final String STATE_FROM_THE_FUTURE = "state_issued_in_the_future";
    /** How {@link #mechanismOf} names a refusal no case names: this, then the refusal text as sent. */
    public static final String OTHER_PREFIX = "other: ";

    public JsonNode result() {
        return raw.path("result");
    }

    public boolean inputRequired() {
        return "input_required".equals(result().path("resultType").textValue());
    }

    public String requestState() {
        return result().path("requestState").textValue();
    }

    public JsonNode structured() {
        return result().path("structuredContent");
    }

    public boolean refused() {
        return raw.has("error") || result().path("isError").asBoolean(false);
    }

    /** The refusal text as sent, or null for a success. */
    public String refusalText() {
        if (raw.has("error")) {
            return raw.path("error").path("message").asText("");
        }
        if (result().path("isError").asBoolean(false)) {
            return result().path("content").path(0).path("text").asText("");
        }
        return null;
    }

    /** The refusal as a mechanism name both SDKs share, e.g. {@code operation_conflict}. */
    public String mechanism() {
        return mechanismOf(refusalText());
    }

    public static String mechanismOf(String text) {
        if (text == null) {
            return null;
        }
        if (text.contains("Invalid or expired requestState")) {
            return STATE_REJECTED;
        }
        if (text.startsWith("unsupported continuation")) {
            return UNSUPPORTED_CONTINUATION;
        }
        if (text.equals("requestState issued_at is in the future")) {
            return STATE_FROM_THE_FUTURE;
        }
        for (String code : new String[] {"operation_conflict", "operation_authority_expired", "operation_retention_expired",
            "operation_in_progress"}) {
            if (text.equals(code)) {
                return code;
            }
        }
        return OTHER_PREFIX + text;
    }

    /** The refusal both SDKs give a requestState that does not open: -32602 with data.reason invalid_request_state. */
    public boolean isStateRefusal() {
        JsonNode error = raw().path("error");
        return error.path("code").asInt() == -32602 && "invalid_request_state".equals(error.path("data").path("reason").asText(null));
    }

    /** A success: a result that is not an {@code isError} result. */
    public boolean isSuccess() {
        return raw().has("result") && !result().path("isError").asBoolean(false);
    }
}
