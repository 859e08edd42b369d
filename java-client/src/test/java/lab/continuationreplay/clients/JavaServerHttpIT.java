package lab.continuationreplay.clients;

/** The driver over Streamable HTTP against the guarded Java server (the SDK's servlet transport in Tomcat). */
class JavaServerHttpIT extends HttpFlows {
    @Override
    GuardedServer server() {
        return GuardedServer.JAVA;
    }
}
