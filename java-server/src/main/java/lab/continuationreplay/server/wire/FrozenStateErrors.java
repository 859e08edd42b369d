package lab.continuationreplay.server.wire;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Puts every SDK-side requestState rejection into the frozen shape {@code -32602 "Invalid or expired requestState"}
 * with {@code data.reason = "invalid_request_state"}: the SDK answers a non-string state with a message of its own
 * and without {@code data}, which would let a client tell the checks apart.
 */
public final class FrozenStateErrors implements McpRequestManager {
    private final McpRequestManager server;

    public FrozenStateErrors(McpRequestManager server) {
        this.server = server;
    }

    @Override
    public Mono<McpTransportResponse> handle(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        return server.handle(context, request).map(FrozenStateErrors::freeze);
    }

    @Override
    public Mono<McpTransportResponse> handleBlocking(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        return server.handleBlocking(context, request).map(FrozenStateErrors::freeze);
    }

    @Override
    public Mono<Void> handleNotification(McpTransportContext context, JsonRpc.JSONRPCNotification notification) {
        return server.handleNotification(context, notification);
    }

    static McpTransportResponse freeze(McpTransportResponse response) {
        if (!(response instanceof McpTransportResponse.Error error) || error.response().error() == null) {
            return response;
        }
        JsonRpc.JSONRPCResponse.JSONRPCError rpcError = error.response().error();
        String message = rpcError.message() == null ? "" : rpcError.message();
        boolean aboutState = message.startsWith("requestState must be") || message.equals(WireErrors.INVALID_REQUEST_STATE);
        if (!aboutState || rpcError.data() != null) {
            return response;
        }
        return McpTransportResponse.error(JsonRpc.JSONRPCResponse.error(error.response().id(),
                new JsonRpc.JSONRPCResponse.JSONRPCError(WireErrors.INVALID_PARAMS, WireErrors.INVALID_REQUEST_STATE,
                        Map.of("reason", "invalid_request_state"))));
    }
}
