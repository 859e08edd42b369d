package lab.continuationreplay.replicas;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.cases.ReplicaSteps;
import lab.continuationreplay.cases.ServerChoice;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.matrix.run.CaseStage;
import lab.continuationreplay.matrix.run.ScriptedServer;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.vectors.ExactJson;

/**
 * One cell's replicas: each server process a script starts is a container of its own on the run's network, at its
 * own address ({@code replica-a} at {@code .11}, {@code replica-b} at {@code .12}), running {@code lab server KIND
 * --http PORT} from the runner image, its ledger a fresh schema of the run's PostgreSQL. The lab talks to it over
 * Streamable HTTP through a {@link DockerExecTunnel}; the transcript is written on this side, as for any HTTP case.
 */
final class ReplicaCell implements CaseStage.Opened, ReplicaSteps {
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(30);
    /** How long the database may keep a cut-off replica's session: its idle-in-transaction timeout and keepalives, with room. */
    private static final Duration FORGET_LIMIT = Duration.ofSeconds(90);

    /** What the run gives every cell. */
    record Run(String runId, String image, ReplicaNetwork network, PostgresContainer database, PostgresRunLedger ledger,
            Secrets secrets, BearerCredentials credentials, Map<ServerKind, String> stateKeys) {}

    private record Replica(String container, String address, DockerExecTunnel tunnel, ToolClient client) {}

    private final Run run;
    private final Path folder;
    private final ServerKind sdk;
    private final String cell;
    private final Map<String, Replica> replicas = new LinkedHashMap<>();
    private final List<ToolClient> processes = new ArrayList<>();
    private Connection holding;

    ReplicaCell(Run run, Path folder, ServerKind sdk) throws IOException {
        this.run = run;
        this.folder = Files.createDirectories(folder);
        this.sdk = sdk;
        this.cell = folder.getParent().getFileName() + "-" + folder.getFileName();
    }

    @Override
    public CaseServer spawn(String name, ServerSetup setup, ServerChoice choice) throws Exception {
        ServerKind kind = lab.continuationreplay.matrix.run.CaseContext.kind(choice, sdk);
        String stateKey = run.stateKeys().get(kind);
        if (stateKey == null) {
            throw new IllegalArgumentException("no replicas of " + kind.label() + " in this run");
        }
        if (replicas.containsKey(name)) {
            throw new IllegalArgumentException(name + " runs already in " + cell);
        }
        String address = ReplicaNetwork.replicaAddress(replicas.size());
        String container = "crlab-" + run.runId() + "-" + cell + "-" + name;
        WireSettings settings = new WireSettings(folder.resolve(Layout.DATABASE), ServerSetup.BACKEND, setup.principal(),
                ServerSetup.T0 + setup.secondsAfterT0(), setup.authorityTtl(), setup.retentionTtl(), setup.requestStateTtl(),
                stateKey, WireSettings.FINGERPRINT_KEY_HEX, setup.fault().wire());
        Map<String, String> environment = new LinkedHashMap<>(settings.environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put(BearerCredentials.TOKENS_FILE_VARIABLE,
                run.secrets().addTokens(run.credentials().fileFor(setup.principal()), "tokens-" + setup.principal() + ".json"));
        run.ledger().environment(folder).forEach((variable, value) -> {
            if (value == null) {
                environment.remove(variable);
            } else {
                environment.put(variable, value);
            }
        });
        DockerExecTunnel tunnel = DockerExecTunnel.samePort(container);
        List<String> command = new ArrayList<>(List.of("docker", "run", "--rm", "-i", "--name", container, "--pull", "never",
                "--label", "lab.continuationreplay=replicas"));
        command.addAll(run.network().runOptions(address));
        command.addAll(run.secrets().mountOptions());
        // names only: docker copies each value from its own environment, so no value is on a command line
        environment.keySet().forEach(variable -> command.addAll(List.of("--env", variable)));
        command.addAll(List.of("--entrypoint", "/opt/lab/bin/lab", run.image(), "server", kind.label()));
        HttpServerProcess server;
        try {
            server = HttpServerProcess.start(kind.label() + " replica " + cell + "/" + name, command, environment,
                    folder.resolve(Layout.transcript(name)), folder.resolve(Layout.stdout(name)), folder.resolve(Layout.stderr(name)),
                    ServerProcess.READ_TIMEOUT, run.credentials().token(setup.principal()),
                    run.credentials().principalsByToken(), tunnel.port());
        } catch (IOException | RuntimeException e) {
            tunnel.close();
            Docker.quietly("rm", "-f", container);
            throw e;
        }
        ToolClient client = new ToolClient(name, server);
        replicas.put(name, new Replica(container, address, tunnel, client));
        processes.add(client);
        client.open();
        return new ScriptedServer(client);
    }

    private Replica replica(CaseServer server) {
        Replica replica = replicas.get(server.name());
        if (replica == null) {
            throw new IllegalArgumentException("no replica " + server.name() + " in " + cell);
        }
        return replica;
    }

    @Override
    public void close(CaseServer server) {
        Replica replica = replica(server);
        replica.client().close();
        replica.tunnel().close();
        Docker.quietly("rm", "-f", replica.container());
    }

    private String schema() {
        return run.ledger().schema(folder)
                .orElseThrow(() -> new IllegalStateException("no replica of " + cell + " has its ledger yet"));
    }

    @Override
    public void holdLedger() throws Exception {
        if (holding != null) {
            throw new IllegalStateException("the ledger of " + cell + " is held already");
        }
        String schema = schema();
        // The tables as the ledger itself makes them, so the lock has something to hold before any replica wrote.
        LedgerLocation.Postgres lab = run.database().labSide();
        try (IssueLedger ignored = IssueLedger.open(new LedgerLocation.Postgres(lab.url() + "?currentSchema=" + schema,
                PostgresContainer.ROLE, run.secrets().ledgerPassword()), ServerSetup.BACKEND)) {
            // opened and closed: the schema's tables exist
        }
        Connection connection = run.ledger().database().connect();
        try {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                // the lab's own schema name and the ledger's table names: no input reaches this statement
                statement.execute("LOCK TABLE " + schema + ".operations, " + schema + ".issues IN ACCESS EXCLUSIVE MODE");
            }
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        holding = connection;
    }

    @Override
    public void releaseLedger() throws Exception {
        if (holding == null) {
            return;
        }
        try (Connection connection = holding) {
            holding = null;
            connection.rollback();
        }
    }

    @Override
    public void awaitWaitingOnLedger(CaseServer server) throws Exception {
        Replica replica = replica(server);
        awaitSessions(replica, "SELECT count(*) FROM pg_stat_activity WHERE client_addr = ?::inet AND wait_event_type = 'Lock'",
                count -> count > 0, WAIT_LIMIT, "a session of " + server.name() + " waiting on the held lock");
    }

    @Override
    public void cutFromDatabase(CaseServer server) throws Exception {
        run.network().disconnect(replica(server).container());
    }

    @Override
    public void reconnectToDatabase(CaseServer server) throws Exception {
        Replica replica = replica(server);
        run.network().connect(replica.container(), replica.address());
    }

    @Override
    public void awaitDatabaseForgets(CaseServer server) throws Exception {
        Replica replica = replica(server);
        awaitSessions(replica, "SELECT count(*) FROM pg_stat_activity WHERE client_addr = ?::inet", count -> count == 0,
                FORGET_LIMIT, "no session of " + server.name() + " left in the database");
    }

    private void awaitSessions(Replica replica, String query, java.util.function.LongPredicate done, Duration limit,
            String what) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        try (Connection connection = run.ledger().database().connect(); PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, replica.address());
            while (true) {
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    if (done.test(row.getLong(1))) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("waited " + limit.toSeconds() + " s for " + what);
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public void killAndRestartDatabase() throws Exception {
        run.database().killAndRestart();
    }

    @Override
    public void close() throws IOException {
        try {
            releaseLedger();
        } catch (Exception e) {
            // the connection is gone with the lock it held
        }
        ObjectNode record = Format.PROCESSES.document();
        ArrayNode spawned = record.putArray("processes");
        for (ToolClient process : processes) {
            process.close();
            spawned.addObject().put("name", process.name()).put("exit_status", process.exitStatus());
        }
        for (Replica replica : replicas.values()) {
            replica.tunnel().close();
            Docker.quietly("rm", "-f", replica.container());
        }
        Files.writeString(folder.resolve(Layout.PROCESSES),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(record) + "\n");
    }
}
