package lab.continuationreplay.core.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The per-request {@code _meta} envelope of protocol 2026-07-28. The lab declares form elicitation, because both SDKs
 * refuse to return an elicitation input request to a client that did not declare it.
 */
public final class WireEnvelope {
    public static final String PROTOCOL_VERSION = "2026-07-28";

    private WireEnvelope() {}

    public static ObjectNode meta() {
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        meta.put("io.modelcontextprotocol/protocolVersion", PROTOCOL_VERSION);
        ObjectNode clientInfo = meta.putObject("io.modelcontextprotocol/clientInfo");
        clientInfo.put("name", "continuation-replay-lab");
        clientInfo.put("version", "0.1.0");
        meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation").putObject("form");
        return meta;
    }

    /** A request frame: {@code params} with this envelope as {@code _meta} unless it carries its own. */
    public static ObjectNode request(long id, String method, ObjectNode params) {
        ObjectNode withMeta = params.deepCopy();
        if (!withMeta.has("_meta")) {
            withMeta.set("_meta", meta());
        }
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", id);
        frame.put("method", method);
        frame.set("params", withMeta);
        return frame;
    }

    /** The params of {@code tools/call}; for a continuation, with its input responses and state. */
    public static ObjectNode toolCall(String name, JsonNode arguments, JsonNode inputResponses, String requestState) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", name);
        params.set("arguments", arguments);
        if (inputResponses != null) {
            params.set("inputResponses", inputResponses);
        }
        if (requestState != null) {
            params.put("requestState", requestState);
        }
        return params;
    }
}
