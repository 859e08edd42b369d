package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;

/**
 * What a step threw, as the record's {@code threw}. {@code code} and {@code data} come from a JSON-RPC error; an HTTP
 * status refusal has no JSON-RPC error, so its {@code data} is what the exception itself carries (status and body).
 */
public record Thrown(String type, Integer code, String message, JsonNode data, String cause) {

    public static Thrown of(Throwable thrown) {
        Integer code = null;
        JsonNode data = null;
        if (thrown instanceof McpException mcp && mcp.error() != null) {
            JsonRpc.JSONRPCResponse.JSONRPCError error = mcp.error();
            code = error.code();
            data = error.data() == null ? null : SdkJson.tree(error.data());
        } else if (thrown instanceof McpHttpStatusException http) {
            // The status is only in the message otherwise; a reader should not have to parse prose for a 401.
            ObjectNode status = JsonNodeFactory.instance.objectNode();
            status.put("statusCode", http.statusCode());
            status.put("body", http.body());
            data = status;
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
