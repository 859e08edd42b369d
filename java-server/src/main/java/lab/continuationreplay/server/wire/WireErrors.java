package lab.continuationreplay.server.wire;

import io.modelcontextprotocol.modern.McpException;
import java.sql.SQLException;
import java.util.Map;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import lab.continuationreplay.store.ledger.OperationRejected;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How guard outcomes reach the wire on the Java SDK: every refusal is a JSON-RPC error (the TypeScript SDK turns a
 * handler's error into an {@code isError} result instead; that difference is kept and documented). No exception text
 * from below the guard ever reaches the wire.
 */
public final class WireErrors {
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    public static final String INVALID_REQUEST_STATE = "Invalid or expired requestState";
    private static final Logger LOG = LoggerFactory.getLogger(WireErrors.class);

    private WireErrors() {}

    /** The one error for every requestState that does not open, the same in Java and TypeScript. */
    public static McpException invalidRequestState() {
        return new McpException(INVALID_PARAMS, INVALID_REQUEST_STATE, Map.of("reason", "invalid_request_state"));
    }

    /** Maps what the guard threw; anything unexpected is logged and becomes {@code -32603 Internal error}. */
    public static McpException toWire(Exception failure) {
        if (failure instanceof McpException mcp) {
            return mcp;
        }
        if (failure instanceof OperationRejected rejected) {
            return new McpException(INVALID_PARAMS, rejected.wireCode());
        }
        if (failure instanceof InvalidApplicationRequest invalid) {
            return new McpException(INVALID_PARAMS, invalid.getMessage());
        }
        if (failure instanceof SQLException storage) {
            LOG.warn("ledger failure: {}", storage.getMessage());
            return new McpException(INTERNAL_ERROR, "ledger unavailable");
        }
        LOG.error("unexpected failure in a tool call", failure);
        return new McpException(INTERNAL_ERROR, "Internal error");
    }
}
