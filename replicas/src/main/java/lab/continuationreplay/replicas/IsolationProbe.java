package lab.continuationreplay.replicas;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import lab.continuationreplay.history.Format;

/**
 * What a container on the replicas' network can reach, tried from one such container: the database (a {@code peer});
 * the bridge's would-be {@code gateway} address; and this {@code host} at each of its own IPv4 addresses, on a port
 * where the lab listens just for the probe (it accepts and closes, so "reached" is a completed TCP handshake). Only
 * the peer may answer; that judgement is the checker's ({@code NetworkCheck}).
 */
final class IsolationProbe {
    /** One address the probe tried, what it is ({@code peer}, {@code gateway} or {@code host}), and whether it answered. */
    record Attempt(String target, String role, boolean reached) {}

    private IsolationProbe() {}

    static List<Attempt> run(String image, ReplicaNetwork network, String runId) throws IOException, InterruptedException {
        List<InetAddress> own = ownAddresses();
        List<ServerSocket> listeners = new ArrayList<>();
        try {
            List<String[]> targets = new ArrayList<>();
            targets.add(new String[] {ReplicaNetwork.DATABASE, "5432", "peer"});
            targets.add(new String[] {"10.231.7.1", "5432", "gateway"});
            for (InetAddress address : own) {
                ServerSocket listener = new ServerSocket();
                listener.bind(new InetSocketAddress(address, 0));
                listeners.add(listener);
                Thread accepting = new Thread(() -> {
                    while (!listener.isClosed()) {
                        try (Socket ignored = listener.accept()) {
                            // a completed handshake is all the probe asks for
                        } catch (IOException closed) {
                            return;
                        }
                    }
                }, "isolation-probe-listener");
                accepting.setDaemon(true);
                accepting.start();
                targets.add(new String[] {address.getHostAddress(), Integer.toString(listener.getLocalPort()), "host"});
            }
            StringBuilder script = new StringBuilder();
            for (String[] target : targets) {
                script.append("if timeout 3 bash -c 'exec 3<>/dev/tcp/").append(target[0]).append('/').append(target[1])
                        .append("' 2>/dev/null; then echo 'reached ").append(target[0]).append("'; else echo 'unreached ")
                        .append(target[0]).append("'; fi; ");
            }
            List<String> command = new ArrayList<>(List.of("run", "--rm", "--name", "crlab-" + runId + "-probe", "--pull", "never",
                    "--label", "lab.continuationreplay=replicas"));
            command.addAll(network.runOptions(ReplicaNetwork.PROBE));
            command.addAll(List.of("--entrypoint", "bash", image, "-c", script.toString()));
            String output = Docker.run(command.toArray(String[]::new));
            List<Attempt> attempts = new ArrayList<>();
            for (String[] target : targets) {
                boolean reached = output.lines().anyMatch(line -> line.equals("reached " + target[0]));
                boolean unreached = output.lines().anyMatch(line -> line.equals("unreached " + target[0]));
                if (reached == unreached) {
                    throw new IllegalStateException("the isolation probe said nothing clear about " + target[0] + ": " + output.strip());
                }
                attempts.add(new Attempt(target[0] + ":" + target[1], target[2], reached));
            }
            return attempts;
        } finally {
            for (ServerSocket listener : listeners) {
                listener.close();
            }
        }
    }

    /** This host's IPv4 addresses other than loopback. */
    static List<InetAddress> ownAddresses() throws IOException {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface face : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!face.isUp() || face.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(face.getInetAddresses())) {
                if (address instanceof Inet4Address) {
                    addresses.add(address);
                }
            }
        }
        return addresses;
    }

    /** The probe as history ({@code network.json}): what was tried and what answered; the checker judges it. */
    static ObjectNode record(List<Attempt> attempts, String subnet) {
        ObjectNode record = Format.NETWORK.document();
        record.put("subnet", subnet);
        var tried = record.putArray("attempts");
        attempts.forEach(a -> tried.addObject().put("target", a.target()).put("role", a.role()).put("reached", a.reached()));
        return record;
    }
}
