package lab.continuationreplay.faults.common;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.FaultSession;

/**
 * Starts the servers of the fault experiments: one process of an SDK with a {@code WIRE_*} environment (its ledger the
 * session's: the settings' SQLite file, or a PostgreSQL schema named after it), its
 * transcript and stderr log in the experiment's evidence folder ({@code NAME.transcript.log}, {@code NAME.stderr.log}),
 * over the session's transport. Over HTTP the process gets {@code --http 0}, no {@code WIRE_PRINCIPAL} and a tokens
 * file naming alice, bob and the settings' principal, and the lab speaks with the settings' principal's token.
 */
public final class FaultServers {
    /** Every HTTP server knows these principals, so a cross-principal attack is always a known token, never a 401. */
    public static final List<String> HTTP_PRINCIPALS = List.of("alice", "bob");

    private FaultServers() {}

    /** Starts the server and opens the connection with {@code tools/list}, as every client does first. */
    public static ServerWire start(FaultSession session, ServerKind sdk, WireSettings settings, Path folder, String name,
            Duration readTimeout) throws IOException, TransportFailure {
        ServerWire server = wire(session, sdk, settings, folder, name, readTimeout, Map.of());
        return opened(server);
    }

    /** A stdio server (the wire fuzzer writes raw bytes to its stdin), opened. */
    public static ServerProcess startStdio(FaultSession session, ServerKind sdk, WireSettings settings, Path folder, String name,
            Duration readTimeout) throws IOException, TransportFailure {
        return startCommand(session, sdk.command(session.home()), settings, folder, name, readTimeout);
    }

    /** A stdio server started from {@code command} (the stdio proxy in front of a server, say), opened. */
    public static ServerProcess startCommand(FaultSession session, List<String> command, WireSettings settings, Path folder,
            String name, Duration readTimeout) throws IOException, TransportFailure {
        ServerProcess server = ServerProcess.start(command, session.ledger().environment(settings), folder.resolve(name + ".transcript.log"),
                folder.resolve(name + ".stderr.log"), readTimeout);
        opened(server);
        return server;
    }

    /**
     * A client on a new server of {@code kind}, transcript and stderr named after {@code name}, with no request sent
     * yet: the experiments that provoke faults decide what the first call is.
     */
    public static ToolClient client(FaultSession session, ServerKind kind, WireSettings settings, Path folder, String name)
            throws IOException, TransportFailure {
        return ToolClient.on(wire(session, kind, settings, folder, name, ServerProcess.READ_TIMEOUT, Map.of()));
    }

    /**
     * A server over the session's transport, not yet spoken to. {@code httpEnvironment} adds variables only an HTTP
     * server reads ({@code WIRE_HTTP_READ_TIMEOUT_MS}, say); over stdio it is ignored.
     */
    public static ServerWire wire(FaultSession session, ServerKind kind, WireSettings settings, Path folder, String name,
            Duration readTimeout, Map<String, String> httpEnvironment) throws IOException, TransportFailure {
        if (session.transport() == Transport.STDIO) {
            return ServerProcess.start(kind.command(session.home()), session.ledger().environment(settings), folder.resolve(name + ".transcript.log"),
                    folder.resolve(name + ".stderr.log"), readTimeout);
        }
        BearerCredentials credentials = session.credentials();
        Map<String, String> environment = session.ledger().environment(settings);
        // Over HTTP the principal is the bearer token's, never the environment's.
        environment.remove("WIRE_PRINCIPAL");
        String[] principals = java.util.stream.Stream.concat(HTTP_PRINCIPALS.stream(), java.util.stream.Stream.of(settings.principal()))
                .distinct().toArray(String[]::new);
        environment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor(principals).toString());
        environment.putAll(httpEnvironment);
        String label = kind.label() + " server " + folder.getFileName() + "/" + name;
        return HttpServerProcess.start(label, kind.command(session.home()), environment, folder.resolve(name + ".transcript.log"),
                folder.resolve(name + ".stdout.log"), folder.resolve(name + ".stderr.log"), readTimeout,
                credentials.token(settings.principal()), credentials.principalsByToken());
    }

    private static ServerWire opened(ServerWire server) throws TransportFailure {
        try {
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
        } catch (TransportFailure | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }
}
