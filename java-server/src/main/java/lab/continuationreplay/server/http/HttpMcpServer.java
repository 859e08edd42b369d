package lab.continuationreplay.server.http;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import lab.continuationreplay.server.tools.CallContext;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Serves a request manager over Streamable HTTP at {@code http://127.0.0.1:PORT/mcp}: the SDK's
 * {@link HttpServletMcpTransport} behind {@link GateServlet}, in embedded Tomcat bound to the loopback address only.
 */
public final class HttpMcpServer {
    public static final String ENDPOINT = "/mcp";

    private HttpMcpServer() {}

    /** Blocks until the process ends. */
    public static void serve(McpRequestManager manager, McpJsonMapper mapper, BearerTokens tokens, HttpSettings settings)
            throws LifecycleException, IOException {
        LoopbackHosts hosts = new LoopbackHosts();
        HttpServletMcpTransport transport = HttpServletMcpTransport.builder(manager)
                .jsonMapper(mapper)
                .endpoint(ENDPOINT)
                .maxRequestSize(settings.maxBodyBytes())
                .httpHeaderValidator(hosts.asSdkValidator())
                .contextExtractor(HttpMcpServer::callContext)
                .build();

        Tomcat tomcat = new Tomcat();
        Path base = Files.createTempDirectory("java-server-http");
        base.toFile().deleteOnExit();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(settings.port());
        connector.setProperty("address", "127.0.0.1");
        // A silent client (half the headers, a stalled body) loses its connection after this; header reads are
        // non-blocking, so while it waits it holds no worker thread and cannot block others.
        connector.setProperty("connectionTimeout", Integer.toString(settings.readTimeoutMillis()));
        connector.setProperty("keepAliveTimeout", Integer.toString(settings.readTimeoutMillis()));
        // More workers than gate slots, so the over-limit request reaches the gate and gets its 503 instead of queueing.
        connector.setProperty("maxThreads", Integer.toString(settings.maxConcurrent() + 16));
        connector.setXpoweredBy(false);
        tomcat.setConnector(connector);

        Context context = tomcat.addContext("", null);
        Wrapper servlet = Tomcat.addServlet(context, "mcp", new GateServlet(transport, tokens, hosts, settings, mapper));
        servlet.setAsyncSupported(true);
        servlet.setLoadOnStartup(1);
        context.addServletMappingDecoded(ENDPOINT, "mcp");
        context.getPipeline().addValve(new DropConnectionValve());

        tomcat.start();
        hosts.bound(connector.getLocalPort());
        System.err.println("java-server: serving http://127.0.0.1:" + connector.getLocalPort() + ENDPOINT);
        tomcat.getServer().await();
    }

    private static McpTransportContext callContext(HttpServletRequest request) {
        Map<String, Object> values = new HashMap<>();
        putIfPresent(values, CallContext.PRINCIPAL, request.getAttribute(CallContext.PRINCIPAL));
        putIfPresent(values, CallContext.DROP_CONNECTION, request.getAttribute(CallContext.DROP_CONNECTION));
        return McpTransportContext.create(values);
    }

    private static void putIfPresent(Map<String, Object> values, String key, Object value) {
        if (value != null) {
            values.put(key, value);
        }
    }
}
