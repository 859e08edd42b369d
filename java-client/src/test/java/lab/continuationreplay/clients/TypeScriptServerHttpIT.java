package lab.continuationreplay.clients;

/** The driver over Streamable HTTP against the TypeScript fixture ({@code createMcpHandler} in node:http). */
class TypeScriptServerHttpIT extends HttpFlows {
    @Override
    GuardedServer server() {
        return GuardedServer.TYPESCRIPT;
    }
}
