package lab.continuationreplay.server;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import lab.continuationreplay.server.conformance.ConformanceProfile;
import lab.continuationreplay.server.http.BearerTokens;
import lab.continuationreplay.server.http.HttpMcpServer;
import lab.continuationreplay.server.http.HttpSettings;
import lab.continuationreplay.server.http.Principals;
import lab.continuationreplay.server.wire.FrozenStateErrors;
import lab.continuationreplay.store.config.TrustedEnvironment;

/**
 * The command line ({@code [--http PORT [--conformance]]}) and what differs in the environment when a server speaks
 * HTTP.
 */
final class HttpMode {
    /**
     * Only HTTP can lose a reply while the server lives on, so this fault is the HTTP server's alone: it is taken out of
     * the environment before the shared {@code WIRE_FAULT} parser (which would refuse it) sees it.
     */
    static final String CLOSE_AFTER_COMMIT = "close-after-commit";
    static final String USAGE = "usage: java-server [--http PORT [--conformance]]";

    /** A command line the server cannot run with; its message is the whole stderr line, without the usual prefix. */
    static final class CommandLineError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        CommandLineError(String message) {
            super(message);
        }
    }

    final Optional<HttpSettings> settings;
    final Optional<Principals> principals;
    final Optional<ConformanceProfile> conformance;
    final boolean closeAfterCommit;
    final TrustedEnvironment environment;

    private HttpMode(Optional<HttpSettings> settings, Optional<Principals> principals,
            Optional<ConformanceProfile> conformance, boolean closeAfterCommit, TrustedEnvironment environment) {
        this.settings = settings;
        this.principals = principals;
        this.conformance = conformance;
        this.closeAfterCommit = closeAfterCommit;
        this.environment = environment;
    }

    /** Throws {@link IllegalArgumentException} with a message that names no secret. */
    static HttpMode of(String[] args, Map<String, String> environment) {
        String port = null;
        boolean conformance = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--http") && port == null && i + 1 < args.length) {
                port = args[++i];
            } else if (args[i].equals(ConformanceProfile.SWITCH) && !conformance) {
                conformance = true;
            } else {
                throw new CommandLineError(USAGE);
            }
        }
        if (conformance && port == null) {
            throw new CommandLineError(ConformanceProfile.SWITCH + " needs --http");
        }
        if (port == null) {
            return new HttpMode(Optional.empty(), Optional.empty(), Optional.empty(), false,
                    new TrustedEnvironment(environment));
        }
        HttpSettings settings = HttpSettings.of(port, environment);
        Optional<ConformanceProfile> profile = conformance
                ? Optional.of(ConformanceProfile.fromEnvironment(environment))
                : Optional.empty();
        String tokensFile = environment.get(BearerTokens.FILE);
        // Only the profile may serve without tokens (the official suite cannot send one); given a tokens file, it
        // authenticates exactly like normal HTTP mode, so a strict checker can test principal binding.
        Principals principals = profile.isPresent() && (tokensFile == null || tokensFile.isEmpty())
                ? new Principals.Fixed(ConformanceProfile.PRINCIPAL)
                : new Principals.Bearer(BearerTokens.fromEnvironment(environment));
        Map<String, String> trusted = new HashMap<>(environment);
        boolean closeAfterCommit = CLOSE_AFTER_COMMIT.equals(environment.get(TrustedEnvironment.FAULT));
        if (closeAfterCommit) {
            trusted.remove(TrustedEnvironment.FAULT);
        }
        // Principals come from bearer tokens (or the profile) only; a leftover WIRE_PRINCIPAL must not become a default.
        trusted.remove(TrustedEnvironment.PRINCIPAL);
        return new HttpMode(Optional.of(settings), Optional.of(principals), profile, closeAfterCommit,
                new TrustedEnvironment(trusted));
    }

    boolean http() {
        return settings.isPresent();
    }

    /** The same as {@link #serve(String, List, List, java.io.OutputStream, AutoCloseable)} with tools only. */
    void serve(String name, List<McpSyncTool> tools, java.io.OutputStream wire, AutoCloseable ledger) {
        serve(name, tools, List.of(), wire, ledger);
    }

    /**
     * Serves {@code tools} (and, over HTTP, {@code features} such as the conformance profile's prompts) over HTTP in
     * HTTP mode, else over stdio on {@code wire}, then closes {@code ledger}. Over stdio it returns once stdin has
     * ended. Over HTTP it serves until SIGTERM or SIGINT, stops gracefully and exits 0: the lab stops its HTTP servers
     * with SIGTERM and records that as a clean end. A fault's exit ({@code Runtime.halt} with 70 and so on) happens
     * before any of this and keeps its status. A server that cannot start (e.g. its port is taken) exits
     * {@code BAD_CONFIGURATION} with one line on stderr.
     */
    void serve(String name, List<McpSyncTool> tools, List<McpFeature> features, java.io.OutputStream wire,
            AutoCloseable ledger) {
        if (!http()) {
            StdioServer.serve(name, tools, wire);
            close(ledger);
            return;
        }
        if (principals.orElseThrow() instanceof Principals.Fixed fixed) {
            System.err.println("java-server: conformance profile without " + BearerTokens.FILE
                    + ": no bearer token is required, and every request acts as the fixed principal '"
                    + fixed.principal() + "'");
        }
        HttpMcpServer server;
        try {
            server = HttpMcpServer.start(new FrozenStateErrors(StdioServer.server(name, tools, features)),
                    StdioServer.MAPPER, principals.orElseThrow(), settings.orElseThrow());
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
