package lab.continuationreplay.replicas;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.replicas.ReplicaCases;
import lab.continuationreplay.containers.DockerCli;
import lab.continuationreplay.containers.RunnerImages;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.matrix.run.CaseProgress;
import lab.continuationreplay.matrix.run.MatrixRunner;
import lab.continuationreplay.matrix.run.Provenance;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code lab replicas}: the run's network, its PostgreSQL container, the isolation probe, then each attempt's cells
 * on replica containers: {@code replicas-<sdk>} for each SDK asked for, {@code replicas-cross} across Java and
 * TypeScript. Writes history only ({@code network.json}, the attempts' folders, the database's log); every verdict
 * is the checker's. Removes every container, the network and the secrets when it ends, however it ends.
 */
public final class ReplicasRunner {
    /** The runtime cell whose runner image the replicas run: the lab's default JDK and Node.js. */
    public static final String RUNTIME = "jdk17-node20";
    /** The SDKs with replicas in this lab, and the two the cross cells pair. */
    public static final List<ServerKind> SDKS = List.of(ServerKind.JAVA, ServerKind.TYPESCRIPT, ServerKind.PYTHON, ServerKind.GO,
            ServerKind.RUST);
    public static final String NETWORK_FILE = "network.json";
    public static final String DATABASE_LOG = "postgres.log";

    /** What the run did, beside its history: the attempt folders it wrote, and what it had to clear up first. */
    public record Ran(List<String> attempts, List<String> said) {}

    private ReplicasRunner() {}

    /**
     * Plays the cells into {@code out}: for each of {@code sdks} its {@code r*} cells, and with {@code cross} the
     * {@code x*} cells; {@code only} (null: all) names the cells by id.
     */
    public static Ran run(Path home, Path out, List<ServerKind> sdks, boolean cross, List<String> only, PrintStream progress)
            throws Exception {
        refuseUnplayable(sdks, only);
        Files.createDirectories(out);
        List<String> said = new ArrayList<>();
        progress.println("replicas: building or finding the images (containers/build-images.sh)");
        String image = RunnerImages.build(home, List.of(RuntimeCell.parse(RUNTIME)), line -> progress.println("  " + line))
                .images().get(RuntimeCell.parse(RUNTIME));
        String databaseImage = RunnerImages.postgres(home, line -> progress.println("  " + line));
        String runId = Long.toString(System.currentTimeMillis(), 36);
        Map<ServerKind, String> stateKeys = stateKeys();
        Cleanup cleanup = new Cleanup(runId);
        Thread onSignal = new Thread(cleanup::run, "replicas-cleanup");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try (Secrets secrets = cleanup.add(Secrets.create());
                BearerCredentials credentials = new BearerCredentials()) {
            ReplicaNetwork network = cleanup.add(ReplicaNetwork.create(runId, said));
            progress.println("replicas: network " + network.name() + " (" + ReplicaNetwork.SUBNET + ", internal, no address on this host)");
            PostgresContainer database = cleanup.add(PostgresContainer.start(databaseImage, "crlab-" + runId + "-postgres",
                    network, secrets));
            progress.println("replicas: PostgreSQL ready at " + ReplicaNetwork.DATABASE + " (" + databaseImage + ")");
            probeIsolation(image, network, runId, out, progress);
            PostgresRunLedger ledger = PostgresRunLedger.reachedApart(database.labSide(), PostgresContainer.serversUrl(),
                    Secrets.ledgerPasswordInside(), "PostgreSQL in container " + database.name() + " at " + ReplicaNetwork.DATABASE);
            ReplicaCell.Run run = new ReplicaCell.Run(runId, image, network, database, ledger, secrets, credentials, stateKeys);
            List<String> attempts;
            try {
                attempts = playAttempts(new Asked(home, out, sdks, cross, only, progress), run, databaseImage);
            } finally {
                database.saveLog(out.resolve(DATABASE_LOG));
            }
            return new Ran(attempts, said);
        } finally {
            cleanup.run();
            Runtime.getRuntime().removeShutdownHook(onSignal);
        }
    }

    /** What {@link #run} was asked to play, and where. */
    private record Asked(Path home, Path out, List<ServerKind> sdks, boolean cross, List<String> only, PrintStream progress) {}

    /** Refuses, before anything is made, an SDK without replicas, an unknown cell id, or a missing Docker engine. */
    private static void refuseUnplayable(List<ServerKind> sdks, List<String> only) {
        for (ServerKind sdk : sdks) {
            if (!SDKS.contains(sdk)) {
                throw new IllegalArgumentException("the replicas are of the guarded servers (" + String.join(", ",
                        SDKS.stream().map(ServerKind::label).toList()) + "), not " + sdk.label());
            }
        }
        if (only != null) {
            only.forEach(lab.continuationreplay.cases.ReplicaCaseId::of);
        }
        String problem = DockerCli.engineProblem();
        if (problem != null) {
            throw new IllegalStateException("lab replicas needs a Docker engine: " + problem + " (docs/replicas.md)");
        }
    }

    /** A fresh random state key per SDK with replicas, hex-encoded. */
    private static Map<ServerKind, String> stateKeys() {
        Map<ServerKind, String> stateKeys = new EnumMap<>(ServerKind.class);
        SecureRandom random = new SecureRandom();
        for (ServerKind sdk : SDKS) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            stateKeys.put(sdk, HexFormat.of().formatHex(key));
        }
        return stateKeys;
    }

    /** Runs the isolation probe on the network, records it in {@code network.json} and prints what each attempt reached. */
    private static void probeIsolation(String image, ReplicaNetwork network, String runId, Path out, PrintStream progress)
            throws IOException, InterruptedException {
        List<IsolationProbe.Attempt> probe = IsolationProbe.run(image, network, runId);
        ObjectNode record = IsolationProbe.record(probe, ReplicaNetwork.SUBNET);
        Files.writeString(out.resolve(NETWORK_FILE), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(record) + "\n");
        probe.forEach(a -> progress.printf("replicas: probe %-22s (%s) %s%n", a.target(), a.role(),
                a.reached() ? "reached" : "not reached"));
    }

    /** Plays each SDK's cells, then the cross cells when asked; the names of the attempt folders written. */
    private static List<String> playAttempts(Asked asked, ReplicaCell.Run run, String databaseImage) throws Exception {
        List<String> attempts = new ArrayList<>();
        for (ServerKind sdk : asked.sdks()) {
            List<CaseSpec> cells = chosen(ReplicaCases.cells(true), asked.only());
            if (!cells.isEmpty()) {
                String name = Layout.REPLICAS_PREFIX + sdk.label();
                MatrixRunner.play(cells, name, asked.out(), provenance(sdk, asked.home(), run.image(), databaseImage),
                        CaseProgress.lines(asked.progress()), Runnable::run, run.ledger(), folder -> new ReplicaCell(run, folder, sdk));
                attempts.add(name);
            }
        }
        List<CaseSpec> acrossSdks = asked.cross() ? chosen(ReplicaCases.cells(false), asked.only()) : List.of();
        if (!acrossSdks.isEmpty()) {
            MatrixRunner.play(acrossSdks, Layout.REPLICAS_CROSS, asked.out(),
                    provenance(ServerKind.JAVA, asked.home(), run.image(), databaseImage).put("sdk", "java+typescript"),
                    CaseProgress.lines(asked.progress()), Runnable::run, run.ledger(), folder -> new ReplicaCell(run, folder, ServerKind.JAVA));
            attempts.add(Layout.REPLICAS_CROSS);
        }
        return attempts;
    }

    private static List<CaseSpec> chosen(List<CaseSpec> cells, List<String> only) {
        return cells.stream().filter(c -> only == null || only.contains(c.id().number())).toList();
    }

    private static ObjectNode provenance(ServerKind sdk, Path home, String image, String databaseImage) throws IOException {
        return Provenance.of(sdk, home).put("transport", "http").put("ledger", "postgres").put("topology", "replicas")
                .put("runner_image", image).put("postgres_image", databaseImage);
    }

    /**
     * Everything the run made outside its folder, removed once: on the way out, or from the shutdown hook when the
     * lab is ended from outside. The containers go first (the network cannot be removed while they are on it).
     */
    private static final class Cleanup implements Runnable {
        private final String runId;
        private final List<AutoCloseable> made = new ArrayList<>();
        private boolean done;

        Cleanup(String runId) {
            this.runId = runId;
        }

        synchronized <T extends AutoCloseable> T add(T thing) {
            made.add(thing);
            return thing;
        }

        @Override
        public synchronized void run() {
            if (done) {
                return;
            }
            done = true;
            try {
                String left = Docker.run("ps", "-aq", "--filter", "name=crlab-" + runId + "-");
                for (String id : left.split("\\s+")) {
                    if (!id.isBlank()) {
                        Docker.quietly("rm", "-f", "-v", id);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // each thing below still removes its own
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int i = made.size() - 1; i >= 0; i--) {
                try {
                    made.get(i).close();
                } catch (Exception e) {
                    // the rest is still removed
                }
            }
        }
    }
}
