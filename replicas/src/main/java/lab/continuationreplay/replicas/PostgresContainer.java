package lab.continuationreplay.replicas;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * The run's PostgreSQL: Debian's own package in a container of its own ({@code containers/postgres/}), at
 * {@link ReplicaNetwork#DATABASE} on the replicas' network, its role's password in a file of the run's secrets folder
 * (mounted read-only, never in the container's environment or command line). The lab reaches it through a
 * {@link DockerExecTunnel}; the replicas over the network.
 */
final class PostgresContainer implements AutoCloseable {
    static final String READY = "crlab-postgres: ready on port 5432";
    static final String ROLE = "crlab";
    static final String DATABASE = "crlab";
    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private final String name;
    private final DockerExecTunnel tunnel;
    private final byte[] password;
    private int starts = 1;

    private PostgresContainer(String name, DockerExecTunnel tunnel, byte[] password) {
        this.name = name;
        this.tunnel = tunnel;
        this.password = password;
    }

    /** Starts the container and returns once the server answers. */
    static PostgresContainer start(String image, String name, ReplicaNetwork network, Secrets secrets)
            throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("run", "-d", "--name", name, "--pull", "never",
                "--label", "lab.continuationreplay=replicas"));
        command.addAll(network.runOptions(ReplicaNetwork.DATABASE));
        command.addAll(secrets.mountOptions());
        command.add(image);
        Docker.run(command.toArray(String[]::new));
        PostgresContainer started = new PostgresContainer(name, DockerExecTunnel.to(name, 5432), secrets.ledgerPassword());
        try {
            started.awaitReady();
        } catch (IOException | RuntimeException | InterruptedException e) {
            started.close();
            throw e;
        }
        return started;
    }

    String name() {
        return name;
    }

    /** The database as the lab reaches it: through the tunnel on this host's loopback. */
    LedgerLocation.Postgres labSide() {
        return new LedgerLocation.Postgres("jdbc:postgresql://127.0.0.1:" + tunnel.port() + "/" + DATABASE, ROLE, password);
    }

    /** The database as a replica reaches it, with the driver's timeouts that turn a silent network into an error. */
    static String serversUrl() {
        return "jdbc:postgresql://" + ReplicaNetwork.DATABASE + ":5432/" + DATABASE + "?connectTimeout=5&socketTimeout=3";
    }

    /** SIGKILL to the server (no shutdown, no checkpoint), then the same container started on its data again. */
    void killAndRestart() throws IOException, InterruptedException {
        Docker.run("kill", "--signal", "KILL", name);
        Docker.run("start", name);
        starts++;
        awaitReady();
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        String log = "";
        while (System.nanoTime() < deadline) {
            log = Docker.run("logs", name);
            if (log.split(java.util.regex.Pattern.quote(READY), -1).length - 1 >= starts) {
                return;
            }
            String running = Docker.run("inspect", "--format", "{{.State.Running}}", name).strip();
            if (!running.equals("true")) {
                throw new IllegalStateException("the PostgreSQL container " + name + " stopped while starting: " + tail(log));
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the PostgreSQL container " + name + " was not ready in " + START_LIMIT.toSeconds()
                + " s: " + tail(log));
    }

    private static String tail(String log) {
        String trimmed = log.strip();
        return trimmed.length() > 600 ? "..." + trimmed.substring(trimmed.length() - 600) : trimmed;
    }

    /** The server's own log, kept beside the run's evidence (it never holds the password: the server has only a verifier). */
    void saveLog(Path file) throws IOException, InterruptedException {
        Files.writeString(file, Docker.run("logs", name), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        tunnel.close();
        Docker.quietly("rm", "-f", "-v", name);
    }
}
