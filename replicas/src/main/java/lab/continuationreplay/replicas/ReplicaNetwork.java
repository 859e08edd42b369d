package lab.continuationreplay.replicas;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The one network of a {@code lab replicas} run: {@code docker network create --internal} on a fixed subnet, the one
 * exception to the engine's {@code --bridge=none} set-up. The engine here runs without iptables, so {@code --internal}
 * alone would leave the bridge's own address on this host reachable from every container; the bridge is therefore
 * made without an IPv4 address ({@code com.docker.network.bridge.inhibit_ipv4}): the containers reach each other and
 * nothing else, and this host reaches them only through {@code docker exec} ({@link DockerExecTunnel}).
 */
final class ReplicaNetwork implements AutoCloseable {
    /** The fixed subnet; the database is {@link #DATABASE}, replica {@code a} {@code .11}, {@code b} {@code .12}. */
    static final String SUBNET = "10.231.7.0/24";
    static final String DATABASE = "10.231.7.2";
    /** Where the isolation probe runs: an address no replica takes. */
    static final String PROBE = "10.231.7.250";
    /** Every name this lab gives a network starts so, so a run can find what an ended run left. */
    static final String PREFIX = "crlab-replicas-";

    private final String name;

    private ReplicaNetwork(String name) {
        this.name = name;
    }

    /**
     * Creates the run's network. A network an ended run left behind (this lab's name, no container on it) is removed
     * first; one with containers on it belongs to a run still going, and is refused by name.
     */
    static ReplicaNetwork create(String runId, List<String> said) throws IOException, InterruptedException {
        for (String line : Docker.run("network", "ls", "--filter", "name=" + PREFIX, "--format", "{{.Name}}").split("\n")) {
            String other = line.strip();
            if (!other.startsWith(PREFIX)) {
                continue;
            }
            String attached = Docker.run("network", "inspect", other, "--format", "{{len .Containers}}").strip();
            if (!attached.equals("0")) {
                throw new IllegalStateException("another lab replicas run holds the network " + other + " (" + attached
                        + " containers on " + SUBNET + "); wait for it to end, or remove its containers and the network");
            }
            Docker.run("network", "rm", other);
            said.add("removed the network " + other + ", left by a run that ended without cleaning up");
        }
        String name = PREFIX + runId;
        try {
            Docker.run("network", "create", "--driver", "bridge", "--internal", "--subnet", SUBNET,
                    "--opt", "com.docker.network.bridge.inhibit_ipv4=true", "--label", "lab.continuationreplay=replicas", name);
        } catch (IllegalStateException e) {
            if (e.getMessage().contains("overlaps")) {
                throw new IllegalStateException("another Docker network uses addresses of " + SUBNET + " (" + holders()
                        + "); lab replicas needs that subnet for itself: remove that network or give it other addresses");
            }
            throw e;
        }
        return new ReplicaNetwork(name);
    }

    /** The networks whose subnets the engine knows, for a message about who holds the lab's. */
    private static String holders() {
        try {
            List<String> found = new ArrayList<>();
            for (String id : Docker.run("network", "ls", "-q").split("\\s+")) {
                if (!id.isBlank()) {
                    String line = Docker.run("network", "inspect", id, "--format",
                            "{{.Name}} {{range .IPAM.Config}}{{.Subnet}} {{end}}").strip();
                    if (line.contains("10.231.")) {
                        found.add(line);
                    }
                }
            }
            return found.isEmpty() ? "none of them says so" : String.join(", ", found);
        } catch (IOException | RuntimeException e) {
            return "docker network ls did not say: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    String name() {
        return name;
    }

    /** The address of replica {@code index} (0 is {@code a}): {@code 10.231.7.11}, {@code .12}, ... */
    static String replicaAddress(int index) {
        if (index < 0 || index > 200) {
            throw new IllegalArgumentException("no replica address for index " + index);
        }
        return "10.231.7." + (11 + index);
    }

    void disconnect(String container) throws IOException, InterruptedException {
        Docker.run("network", "disconnect", name, container);
    }

    void connect(String container, String address) throws IOException, InterruptedException {
        Docker.run("network", "connect", "--ip", address, name, container);
    }

    /** The docker run options that put a container on this network at {@code address}. */
    List<String> runOptions(String address) {
        return new ArrayList<>(List.of("--network", name, "--ip", address));
    }

    @Override
    public void close() {
        Docker.quietly("network", "rm", name);
    }
}
