package lab.continuationreplay.core.wire;

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
}
