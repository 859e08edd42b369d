package lab.continuationreplay.server.frames;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpStdio;
import java.io.IOException;

/**
 * Why a frame is refused, and the one error line that answers it: the SDK's own codes, messages and encoding for the
 * same class of problem ({@code -32700 "Parse error"} without id; {@code -32600 "Invalid JSON-RPC message"} with the
 * request's id when it is a string or an integer, else without id). {@code reason} is for the log only.
 */
public record Rejection(int code, String message, Object id, String reason) {
    static final String PARSE_ERROR = "Parse error";
    static final String INVALID_MESSAGE = "Invalid JSON-RPC message";

    public static Rejection parseError(String reason) {
        return new Rejection(McpSchema.ErrorCodes.PARSE_ERROR, PARSE_ERROR, null, reason);
    }

    public static Rejection invalidMessage(Object id, String reason) {
        return new Rejection(McpSchema.ErrorCodes.INVALID_REQUEST, INVALID_MESSAGE, id, reason);
    }

    /** The reply as the SDK's transport writes its own: one line, newline included. */
    public byte[] line(McpJsonMapper mapper) throws IOException {
        return McpStdio.encodeLine(mapper,
                JsonRpc.JSONRPCResponse.error(id, new JsonRpc.JSONRPCResponse.JSONRPCError(code, message)));
    }
}
