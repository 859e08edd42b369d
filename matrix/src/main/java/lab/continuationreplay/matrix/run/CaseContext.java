package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Where one case runs: its folder (one SQLite file, one transcript per process), the SDK under test, and the
 * processes it started. Closing the context closes every process and writes {@code processes.json}.
 */
public final class CaseContext implements AutoCloseable {
    public static final String DATABASE = "store.sqlite3";
    public static final String PROCESSES = "processes.json";

    private final Path folder;
    private final ServerKind sdk;
    private final Path home;
    private final List<ToolClient> processes = new ArrayList<>();

    public CaseContext(Path folder, ServerKind sdk, Path home) throws IOException {
        this.folder = Files.createDirectories(folder);
        this.sdk = sdk;
        this.home = home;
    }

    public Path folder() {
        return folder;
    }

    public ServerKind sdk() {
        return sdk;
    }

    /** The matrix settings for this case's database: alice at T0, TTLs 300/360/600. */
    public WireSettings alice() {
        return WireSettings.matrix(folder.resolve(DATABASE), "alice");
    }

    /** Starts a server process named {@code name} on this case's database and opens the connection. */
    public ToolClient spawn(String name, WireSettings settings) throws Exception {
        return spawn(name, settings, sdk);
    }

    /** As {@link #spawn(String, WireSettings)}, on another SDK's server (the cross-SDK recovery cells). */
    public ToolClient spawn(String name, WireSettings settings, ServerKind kind) throws Exception {
        long started = System.nanoTime();
        java.util.Map<String, String> environment = new java.util.LinkedHashMap<>(settings.environment());
        environment.putAll(kind.environment(home));
        String label = kind.label() + " server " + folder.getFileName() + "/" + name;
        ServerProcess server = ServerProcess.start(label, kind.command(home), environment, folder.resolve(name + ".transcript.log"),
                folder.resolve(name + ".stderr.log"), ServerProcess.READ_TIMEOUT);
        ToolClient process = new ToolClient(name, server);
        processes.add(process);
        process.open();
        PhaseTimes.add(PhaseTimes.PROCESS_STARTS, System.nanoTime() - started);
        return process;
    }

    /** Ends a process now (the next one may need the file without it). */
    public void close(ToolClient process) {
        long started = System.nanoTime();
        process.close();
        PhaseTimes.add(PhaseTimes.PROCESS_EXITS, System.nanoTime() - started);
    }

    @Override
    public void close() throws IOException {
        ObjectNode record = Format.PROCESSES.document();
        ArrayNode spawned = record.putArray("processes");
        long started = System.nanoTime();
        for (ToolClient process : processes) {
            process.close();
            spawned.addObject().put("name", process.name()).put("exit_status", process.exitStatus());
        }
        PhaseTimes.add(PhaseTimes.PROCESS_EXITS, System.nanoTime() - started);
        Files.writeString(folder.resolve(PROCESSES), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(record) + "\n");
    }
}
