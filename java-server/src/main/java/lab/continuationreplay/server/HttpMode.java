package lab.continuationreplay.server;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import lab.continuationreplay.server.http.BearerTokens;
import lab.continuationreplay.server.http.HttpMcpServer;
import lab.continuationreplay.server.http.HttpSettings;
import lab.continuationreplay.server.wire.FrozenStateErrors;
import lab.continuationreplay.store.config.TrustedEnvironment;

/** The command line ({@code [--http PORT]}) and what differs in the environment when a server speaks HTTP. */
final class HttpMode {
    /**
     * Only HTTP can lose a reply while the server lives on, so this fault is the HTTP server's alone: it is taken out of
     * the environment before the shared {@code WIRE_FAULT} parser (which would refuse it) sees it.
     */
    static final String CLOSE_AFTER_COMMIT = "close-after-commit";

    final Optional<HttpSettings> settings;
    final Optional<BearerTokens> tokens;
    final boolean closeAfterCommit;
    final TrustedEnvironment environment;

    private HttpMode(Optional<HttpSettings> settings, Optional<BearerTokens> tokens, boolean closeAfterCommit,
            TrustedEnvironment environment) {
        this.settings = settings;
        this.tokens = tokens;
        this.closeAfterCommit = closeAfterCommit;
        this.environment = environment;
    }

    /** Throws {@link IllegalArgumentException} with a message that names no secret. */
    static HttpMode of(String[] args, Map<String, String> environment) {
        if (args.length == 0) {
            return new HttpMode(Optional.empty(), Optional.empty(), false, new TrustedEnvironment(environment));
        }
        if (args.length != 2 || !args[0].equals("--http")) {
            throw new IllegalArgumentException("usage: java-server [--http PORT]");
        }
        HttpSettings settings = HttpSettings.of(args[1], environment);
        BearerTokens tokens = BearerTokens.fromEnvironment(environment);
        Map<String, String> trusted = new HashMap<>(environment);
        boolean closeAfterCommit = CLOSE_AFTER_COMMIT.equals(environment.get(TrustedEnvironment.FAULT));
        if (closeAfterCommit) {
            trusted.remove(TrustedEnvironment.FAULT);
        }
        // Principals come from bearer tokens only; a leftover WIRE_PRINCIPAL must not become a default.
        trusted.remove(TrustedEnvironment.PRINCIPAL);
        return new HttpMode(Optional.of(settings), Optional.of(tokens), closeAfterCommit, new TrustedEnvironment(trusted));
    }

    boolean http() {
        return settings.isPresent();
    }

    /**
     * Serves {@code tools} over HTTP in HTTP mode, else over stdio on {@code wire}, then closes {@code ledger}. Over stdio
     * it returns once stdin has ended. Over HTTP it serves until SIGTERM or SIGINT, stops gracefully and exits 0: the
     * lab stops its HTTP servers with SIGTERM and records that as a clean end. A fault's exit ({@code Runtime.halt}
     * with 70 and so on) happens before any of this and keeps its status. A server that cannot start (e.g. its port is
     * taken) exits {@code BAD_CONFIGURATION} with one line on stderr.
     */
    void serve(String name, List<McpSyncTool> tools, java.io.OutputStream wire, AutoCloseable ledger) {
        if (!http()) {
            StdioServer.serve(name, tools, wire);
            close(ledger);
            return;
        }
        HttpMcpServer server;
        try {
            server = HttpMcpServer.start(new FrozenStateErrors(StdioServer.server(name, tools)), StdioServer.MAPPER,
                    tokens.orElseThrow(), settings.orElseThrow());
        } catch (Exception e) {
            System.err.println("java-server: cannot serve HTTP: " + e.getMessage());
            System.exit(GuardedServerMain.BAD_CONFIGURATION);
            return;
        }
        server.serveUntilStopped();
        // After Tomcat has stopped, so no request is still using the ledger; closing it checkpoints its WAL.
        close(ledger);
        System.err.println("java-server: stopped");
        System.err.flush();
        // Explicit: a library thread that is not a daemon would otherwise keep a stopped server alive.
        System.exit(0);
    }

    private static void close(AutoCloseable ledger) {
        try {
            ledger.close();
        } catch (Exception e) {
            System.err.println("java-server: closing the ledger: " + e.getMessage());
        }
    }
}
