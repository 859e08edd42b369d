package lab.continuationreplay.server.tools;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Objects;

/**
 * Who a tool call acts for, and what the transport does after a fresh commit. Over stdio both are fixed by the process
 * environment; over HTTP they arrive per request in the SDK's transport context, put there by the HTTP gate after it
 * authenticated the bearer token, so a tool never sees the token itself.
 */
public interface CallContext {
    /** Transport-context key of the authenticated principal (a String). */
    String PRINCIPAL = "lab.principal";
    /** Transport-context key of a {@link Runnable} that drops the call's connection without a reply. */
    String DROP_CONNECTION = "lab.dropConnection";

    String principal(McpRequestContext context);

    /** Called after a commit that was not a replay; {@code close-after-commit} acts here, other transports ignore it. */
    default void afterFreshCommit(McpRequestContext context) {}

    static CallContext fixed(String principal) {
        Objects.requireNonNull(principal, "principal");
        return context -> principal;
    }

    /** The principal the HTTP gate bound; no principal is a programming error, never a default. */
    static CallContext fromTransport(boolean dropConnectionAfterCommit) {
        return new CallContext() {
            @Override
            public String principal(McpRequestContext context) {
                Object principal = transport(context).get(PRINCIPAL);
                if (!(principal instanceof String name)) {
                    throw new IllegalStateException("a request without an authenticated principal reached a tool");
                }
                return name;
            }

            @Override
            public void afterFreshCommit(McpRequestContext context) {
                if (dropConnectionAfterCommit && transport(context).get(DROP_CONNECTION) instanceof Runnable drop) {
                    drop.run();
                }
            }
        };
    }

    private static McpTransportContext transport(McpRequestContext context) {
        McpTransportContext transport = context.transportContext();
        return transport == null ? McpTransportContext.EMPTY : transport;
    }
}
