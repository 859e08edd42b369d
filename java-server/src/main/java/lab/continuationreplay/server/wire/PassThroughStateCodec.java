package lab.continuationreplay.server.wire;

import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.RequestStateCodec;

/**
 * Hands {@code requestState} to the tool untouched. The tool seals and opens it itself, because the SDK's codec does
 * not see the call's arguments and so cannot bind them (the seed's TypeScript fixture committed a changed title for
 * exactly that reason).
 */
public final class PassThroughStateCodec implements RequestStateCodec {
    @Override
    public String seal(McpRequestContext context, String state) {
        return state;
    }

    @Override
    public String open(McpRequestContext context, String sealed) {
        return sealed;
    }
}
