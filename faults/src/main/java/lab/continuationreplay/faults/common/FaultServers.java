package lab.continuationreplay.faults.common;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;

/**
 * Starts the servers of the fault experiments: one process of an SDK with a {@code WIRE_*} environment, its
 * transcript and stderr log in the experiment's evidence folder ({@code NAME.transcript.log}, {@code NAME.stderr.log}).
 */
public final class FaultServers {
    private FaultServers() {}

    /** Starts the server and opens the connection with {@code tools/list}, as every client does first. */
    public static ServerProcess start(Path home, ServerKind sdk, WireSettings settings, Path folder, String name,
            Duration readTimeout) throws IOException, TransportFailure {
        return startCommand(sdk.command(home), settings, folder, name, readTimeout);
    }

    /** As {@link #start}, with another command line (the stdio proxy in front of a server, say). */
    public static ServerProcess startCommand(List<String> command, WireSettings settings, Path folder, String name,
            Duration readTimeout) throws IOException, TransportFailure {
        ServerProcess server = ServerProcess.start(command, settings.environment(), folder.resolve(name + ".transcript.log"),
                folder.resolve(name + ".stderr.log"), readTimeout);
        try {
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
        } catch (TransportFailure e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * A client on a new server of {@code kind}, transcript and stderr named after {@code name}, with no request sent
     * yet: the experiments that provoke faults decide what the first call is.
     */
    public static ToolClient client(Path home, ServerKind kind, WireSettings settings, Path folder, String name)
            throws IOException {
        return ToolClient.on(ServerProcess.start(kind.command(home), settings.environment(), folder.resolve(name + ".transcript.log"),
                folder.resolve(name + ".stderr.log"), ServerProcess.READ_TIMEOUT));
    }
}
