package lab.continuationreplay.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.probe.ProbeInputException;
import lab.continuationreplay.probe.ProbeOptions;
import lab.continuationreplay.probe.cli.ProbeCli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lab probe}: the probe's own command ({@link ProbeCli}), plus {@code --server}, presets of its options for
 * the lab's own servers, and evidence under the checkout's {@code target/attempts/}.
 */
@Command(name = "probe", footer = {
    "",
    "In a checkout of the lab, --server KIND is a preset for the lab's own servers: java, typescript, python, go, rust or"
            + " unguarded over stdio, with their tool, arguments, environment and ledger as the observer. Example:",
    "  lab probe --server java",
    "  lab probe --command 'lab server java' --tool create_guarded_issue \\",
    "      --args '{\"operation_id\":\"op-{{fresh}}\",\"title\":\"probe\"}' --effects-sqlite \"$WIRE_SERVER_DB\" issues"
})
final class ProbeCommand extends ProbeCli {
    @Option(names = "--server", paramLabel = "KIND", description = "A preset for the lab's own servers: java, typescript, python, go, rust or"
            + " unguarded over stdio, with their tool, arguments, environment and ledger as the observer.")
    String server;

    @Option(names = "--servers", description = "Every public server of probe/servers/servers.json, installed by its lock and"
            + " probed with its options; exit 0 when every verdict is the one recorded beside it, 1 otherwise.")
    boolean servers;

    @Option(names = "--server-name", paramLabel = "NAME", description = "One server of probe/servers/servers.json (as --servers).")
    String serverName;

    @Option(names = "--servers-file", paramLabel = "FILE", description = "A list of servers of your own, in the form of"
            + " probe/servers/servers.json, for --servers and --server-name (default: that file).")
    Path serversFile;

    @Override
    public Integer call() throws Exception {
        if (!servers && serverName == null) {
            if (serversFile != null) {
                Streams.stderr().println("lab probe: --servers-file goes with --servers or --server-name");
                return 2;
            }
            return super.call();
        }
        if (command != null || url != null || tool != null || server != null) {
            Streams.stderr().println("lab probe: --servers and --server-name bring their own servers and options; give no --command,"
                    + " --url, --tool or --server with them");
            return 2;
        }
        try {
            return new ProbeServers(LabHome.resolve(), serversFile, Streams.stdout()).run(serverName, folder(out));
        } catch (lab.continuationreplay.probe.ProbeInputException e) {
            Streams.stderr().println("lab probe: " + e.getMessage());
            return 2;
        }
    }

    @Override
    protected Path folder(Path given) {
        return OutputFolder.of(given, LabHome.resolve(), "probe");
    }

    @Override
    protected void configureServer(String value) {
        server = server != null ? server : value;
    }

    @Override
    protected String name() {
        return "lab probe";
    }

    @Override
    protected PrintStream stdout() {
        return Streams.stdout();
    }

    @Override
    protected PrintStream stderr() {
        return Streams.stderr();
    }

    /** The lab's own server over stdio: its command line, a fresh environment, its ledger's issues as the observer. */
    @Override
    protected ProbeOptions preset(Path folder, Map<String, String> environment) {
        if (server == null) {
            return null;
        }
        if (command != null || url != null || tool != null || arguments != null || effectsCommand != null || effectsSqlite != null
                || effectsTool != null) {
            throw new ProbeInputException("--server is a preset of --command, --tool, --args and the observer: give either it or those");
        }
        ServerKind kind;
        try {
            kind = ServerKind.fromLabel(server);
        } catch (IllegalArgumentException e) {
            throw new ProbeInputException("--server: " + e.getMessage());
        }
        String line = kind.command(LabHome.resolve()).stream().map(ProbeCommand::quoted).collect(Collectors.joining(" "));
        Path ledger = folder.toAbsolutePath().resolve("live.sqlite3");
        environment.put("WIRE_SERVER_DB", ledger.toString());
        environment.put("WIRE_BACKEND_ID", "sqlite:probe");
        environment.put("WIRE_PRINCIPAL", "alice");
        environment.put("WIRE_CLOCK_EPOCH", Long.toString(System.currentTimeMillis() / 1000));
        environment.put("WIRE_AUTHORITY_TTL", "300");
        environment.put("WIRE_REPLAY_RETENTION_TTL", "360");
        environment.put("WIRE_REQUEST_STATE_TTL", "600");
        environment.put("WIRE_STATE_KEY_HEX", secret());
        environment.put("WIRE_FINGERPRINT_KEY_HEX", secret());
        boolean guarded = kind != ServerKind.UNGUARDED;
        String toolName = guarded ? "create_guarded_issue" : "create_issue";
        // The title is no fresh value: p4 replays a state with it changed.
        String args = guarded ? "{\"operation_id\":\"op-{{fresh}}\",\"title\":\"probe\"}" : "{\"title\":\"probe\"}";
        Map<String, String> bob = new LinkedHashMap<>(otherEnvironment());
        bob.putIfAbsent("WIRE_PRINCIPAL", "bob");
        return new ProbeOptions(new ProbeOptions.Target.Command(line, bob), toolName, json("--args", args), answers(),
                new ProbeOptions.Observer.SqliteRows(ledger, "issues"), changedArguments == null ? null
                        : json("--changed-args", changedArguments), folder, tuning());
    }

    private static String secret() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
