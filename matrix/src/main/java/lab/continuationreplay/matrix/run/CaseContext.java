package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.CaseSteps;
import lab.continuationreplay.cases.ServerChoice;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.ledger.RunLedger;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Where one case runs: its folder (one SQLite file, one transcript per process), the SDK under test, the transport
 * (stdio, or HTTP with a bearer token per principal), and the processes it started. Closing the context closes every process and writes {@code processes.json}.
 */
public final class CaseContext implements CaseStage.Opened {
    private final Path folder;
    private final ServerKind sdk;
    private final Path home;
    private final Transport transport;
    private final BearerCredentials credentials;
    private final RunLedger ledger;
    private final List<ToolClient> processes = new ArrayList<>();

    public CaseContext(Path folder, CaseSetting setting) throws IOException {
        this.ledger = setting.ledger();
        this.folder = Files.createDirectories(folder);
        this.sdk = setting.sdk();
        this.home = setting.home();
        this.transport = setting.transport();
        this.credentials = setting.credentials();
    }

    public Path folder() {
        return folder;
    }

    /** The real environment for a case's setup, on this case's database, with the lab's synthetic keys. */
    public WireSettings settings(ServerSetup setup) {
        return settings(folder.resolve(Layout.DATABASE), setup);
    }

    /** The real environment for a case's setup on {@code database}, with the lab's synthetic keys. */
    public static WireSettings settings(Path database, ServerSetup setup) {
        return new WireSettings(database, ServerSetup.BACKEND, setup.principal(),
                ServerSetup.T0 + setup.secondsAfterT0(), setup.authorityTtl(), setup.retentionTtl(), setup.requestStateTtl(),
                WireSettings.STATE_KEY_HEX, WireSettings.FINGERPRINT_KEY_HEX, setup.fault().wire());
    }

    /** The server a script's choice names, for this attempt. */
    public ServerKind kind(ServerChoice choice) {
        return kind(choice, sdk);
    }

    /** The server a script's choice names when {@code underTest} is the SDK under test (any stage's runner asks it). */
    public static ServerKind kind(ServerChoice choice, ServerKind underTest) {
        return switch (choice) {
            case UNDER_TEST -> underTest;
            case JAVA -> ServerKind.JAVA;
            case TYPESCRIPT -> ServerKind.TYPESCRIPT;
            case PYTHON -> ServerKind.PYTHON;
            case GO -> ServerKind.GO;
            case RUST -> ServerKind.RUST;
            case UNGUARDED -> ServerKind.UNGUARDED;
        };
    }

    @Override
    public CaseServer spawn(String name, ServerSetup setup, ServerChoice choice) throws Exception {
        return new ScriptedServer(start(name, settings(setup), kind(choice)));
    }

    /**
     * The environment of an HTTP server: the same settings, but the principal comes from the bearer token the lab
     * sends, so {@code WIRE_PRINCIPAL} is left out and the tokens file is added.
     */
    private Map<String, String> httpEnvironment(WireSettings settings) {
        return httpEnvironment(settings, credentials);
    }

    /** As the matrix starts an HTTP server, for another runner that starts one (lab clients over HTTP). */
    public static Map<String, String> httpEnvironment(WireSettings settings, BearerCredentials credentials) {
        Map<String, String> environment = new LinkedHashMap<>(settings.environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor(settings.principal()).toString());
        return environment;
    }

    /** Starts a server process named {@code name} and opens the connection; its transcript and stderr go to the folder. */
    private ToolClient start(String name, WireSettings settings, ServerKind kind) throws Exception {
        long started = System.nanoTime();
        Map<String, String> environment = transport == Transport.HTTP ? httpEnvironment(settings)
                : new LinkedHashMap<>(settings.environment());
        environment.putAll(kind.environment(home));
        // SQLite: nothing to change (the settings name the folder's file); PostgreSQL: the schema's URL, role and
        // password file instead of WIRE_SERVER_DB
        ledger.environment(folder).forEach((variable, value) -> {
            if (value == null) {
                environment.remove(variable);
            } else {
                environment.put(variable, value);
            }
        });
        String label = kind.label() + " server " + folder.getFileName() + "/" + name;
        ServerWire server = transport == Transport.HTTP
                ? HttpServerProcess.start(label, kind.command(home), environment, folder.resolve(Layout.transcript(name)),
                        folder.resolve(Layout.stdout(name)), folder.resolve(Layout.stderr(name)), ServerProcess.READ_TIMEOUT,
                        credentials.token(settings.principal()), credentials.principalsByToken())
                : ServerProcess.start(label, kind.command(home), environment, folder.resolve(Layout.transcript(name)),
                        folder.resolve(Layout.stderr(name)), ServerProcess.READ_TIMEOUT);
        ToolClient process = new ToolClient(name, server);
        processes.add(process);
        process.open();
        PhaseTimes.add(PhaseTimes.PROCESS_STARTS, System.nanoTime() - started);
        return process;
    }

    @Override
    public void close(CaseServer server) {
        long started = System.nanoTime();
        ((ScriptedServer) server).client().close();
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
        Files.writeString(folder.resolve(Layout.PROCESSES), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(record) + "\n");
    }
}
