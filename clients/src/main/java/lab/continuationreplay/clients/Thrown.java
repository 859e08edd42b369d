package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpException;

/** What a step threw, as the record's {@code threw}; {@code code} and {@code data} only from a JSON-RPC error. */
public record Thrown(String type, Integer code, String message, JsonNode data, String cause) {

    public static Thrown of(Throwable thrown) {
        Integer code = null;
        JsonNode data = null;
        if (thrown instanceof McpException mcp && mcp.error() != null) {
            JsonRpc.JSONRPCResponse.JSONRPCError error = mcp.error();
            code = error.code();
            data = error.data() == null ? null : SdkJson.tree(error.data());
        }
        Throwable cause = thrown.getCause();
        return new Thrown(thrown.getClass().getSimpleName(), code, thrown.getMessage(), data,
                cause == null ? null : cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }

    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("type", type);
        if (code == null) {
            node.putNull("code");
        } else {
            node.put("code", code);
        }
        node.put("message", message);
        node.set("data", data);
        node.put("cause", cause);
        return node;
    }
}
