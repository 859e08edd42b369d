package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The two reply shapes: {@code {"ok":true,"result":…}} and {@code {"ok":false,"error":KIND,"detail":…}}. */
final class BridgeReply {
    static final String INVALID = "invalid_application_request";
    static final String STORAGE_FAILURE = "storage_failure";
    /** Anything the bridge did not foresee; answered rather than crashing, so the next request is still served. */
    static final String INTERNAL_ERROR = "internal_error";

    // Details can quote request content (field names); a bound keeps every reply line small.
    static final int MAX_DETAIL_CHARS = 512;

    private BridgeReply() {}

    static ObjectNode ok(JsonNode result) {
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.put("ok", true);
        reply.set("result", result);
        return reply;
    }

    static ObjectNode error(String kind, String detail) {
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.put("ok", false);
        reply.put("error", kind);
        String text = detail == null ? "" : detail;
        reply.put("detail", text.length() > MAX_DETAIL_CHARS ? text.substring(0, MAX_DETAIL_CHARS) + "…" : text);
        return reply;
    }

    static ObjectNode invalid(String detail) {
        return error(INVALID, detail);
    }
}
