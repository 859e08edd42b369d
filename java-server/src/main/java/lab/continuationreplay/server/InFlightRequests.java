package lab.continuationreplay.server;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import reactor.core.publisher.Mono;

/** Reports every request from the moment it is handled until its reply, to {@link Activity}. */
final class InFlightRequests implements McpRequestManager {
    private final McpRequestManager delegate;
    private final Activity activity;

    InFlightRequests(McpRequestManager delegate, Activity activity) {
        this.delegate = delegate;
        this.activity = activity;
    }

    @Override
    public Mono<McpTransportResponse> handle(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        activity.started();
        return delegate.handle(context, request).doFinally(signal -> activity.finished());
    }

    @Override
    public Mono<McpTransportResponse> handleBlocking(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        activity.started();
        return delegate.handleBlocking(context, request).doFinally(signal -> activity.finished());
    }

    @Override
    public Mono<Void> handleNotification(McpTransportContext context, JsonRpc.JSONRPCNotification notification) {
        activity.moved();
        return delegate.handleNotification(context, notification);
    }
}
