package lab.continuationreplay.server.http;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import lab.continuationreplay.server.tools.CallContext;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;

/**
 * Serves a request manager over Streamable HTTP at {@code http://127.0.0.1:PORT/mcp}: the SDK's
 * {@link HttpServletMcpTransport} behind {@link GateServlet}, in embedded Tomcat bound to the loopback address only,
 * until a stop signal.
 */
public final class HttpMcpServer {
    public static final String ENDPOINT = "/mcp";
    /** How long a stop waits for requests already inside to be answered before it closes their connections. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Tomcat tomcat;
    private final Connector connector;
    private final GateServlet gate;
    private final StopSignals signals;

    private HttpMcpServer(Tomcat tomcat, Connector connector, GateServlet gate, StopSignals signals) {
        this.tomcat = tomcat;
        this.connector = connector;
        this.gate = gate;
        this.signals = signals;
    }

    /**
     * Listens, then prints the URL on stderr. From then on SIGTERM and SIGINT no longer end the process: they make
     * {@link #serveUntilStopped()} return. Throws if the server cannot listen (the port is taken, say).
     */
    public static HttpMcpServer start(McpRequestManager manager, McpJsonMapper mapper, Principals principals,
            HttpSettings settings) throws LifecycleException, IOException {
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
        Connector connector = connector(settings);
        tomcat.setConnector(connector);

        // Installed on the host before it starts, under the host's own valve class name, so it is the only report.
        StandardHost host = (StandardHost) tomcat.getHost();
        host.setErrorReportValveClass(PlainErrorReport.class.getName());
        host.getPipeline().addValve(new PlainErrorReport());

        StandardContext context = (StandardContext) tomcat.addContext("", null);
        // Tomcat's leak checks on stop are for web applications redeployed in a long-lived container; this process ends
        // with its context, and the checks would only print warnings asking for --add-opens flags on every stop.
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        GateServlet gate = new GateServlet(transport, principals, hosts, settings, mapper);
        Wrapper servlet = Tomcat.addServlet(context, "mcp", gate);
        servlet.setAsyncSupported(true);
        servlet.setLoadOnStartup(1);
        context.addServletMappingDecoded(ENDPOINT, "mcp");
        context.getPipeline().addValve(new DropConnectionValve());

        // Before the URL is out: whoever reads it may send SIGTERM at once, and that must already mean a clean stop.
        StopSignals signals = StopSignals.install();
        tomcat.start();
        int port = connector.getLocalPort();
        if (connector.getState() != LifecycleState.STARTED || port <= 0) {
            tomcat.stop();
            tomcat.destroy();
            throw new IOException("not listening on 127.0.0.1:" + settings.port());
        }
        hosts.bound(port);
        // The lab finds the server by matching `serving (http://127\.0\.0\.1:[0-9]+/mcp)` in this stderr line: keep
        // that form. It is printed once the connector is accepting, and flushed, so the URL is usable when read.
        System.err.println("java-server: serving http://127.0.0.1:" + port + ENDPOINT);
        System.err.flush();
        return new HttpMcpServer(tomcat, connector, gate, signals);
    }

    /** The one HTTP/1.1 connector, on the loopback address only, with the gate's timeouts and worker count. */
    private static Connector connector(HttpSettings settings) {
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
        // No Server header, not even one a servlet sets: the product and its version are nobody's business here.
        connector.setProperty("serverRemoveAppProvidedValues", "true");
        return connector;
    }

    /**
     * Serves until SIGTERM or SIGINT, then stops: accepts no new connection and no new request (those get 503), waits
     * up to {@link #STOP_GRACE} for the requests inside to be answered, and stops Tomcat, which closes every
     * connection left. Problems while stopping are logged, not thrown: the stop was asked for, and it happens.
     */
    public void serveUntilStopped() {
        String signal = signals.await();
        System.err.println("java-server: " + signal + ": stopping (at most " + STOP_GRACE.toSeconds()
                + " s for requests in progress)");
        try {
            connector.pause();
            int left = gate.drain(STOP_GRACE);
            if (left > 0) {
                System.err.println("java-server: " + left + " request(s) still in progress after "
                        + STOP_GRACE.toSeconds() + " s; closing their connections");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            System.err.println("java-server: stopping Tomcat: " + e.getMessage());
        }
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
