package lab.continuationreplay.replicas;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import lab.continuationreplay.core.exec.Exec;

/**
 * A port on the lab's loopback that leads to a port on a container's own loopback. The replicas' network has no
 * address on this host (so the containers reach nothing here), which leaves {@code docker exec} as the only way in:
 * each accepted connection becomes one {@code docker exec -i CONTAINER bash} that opens {@code /dev/tcp} to the port
 * inside and copies bytes both ways, untouched. The lab's HTTP exchanges and its PostgreSQL sessions both ride on it.
 */
final class DockerExecTunnel implements AutoCloseable {
    /** How long the far side may take to finish after the lab's side has ended its half. */
    private static final Duration DRAIN = Duration.ofSeconds(30);

    private final String container;
    private final int inside;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Process> execs = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DockerExecTunnel(String container, int inside, ServerSocket listener) {
        this.container = container;
        this.inside = inside;
        this.listener = listener;
    }

    /** A tunnel to {@code insidePort} of {@code container}, listening on a free loopback port of its own. */
    static DockerExecTunnel to(String container, int insidePort) throws IOException {
        return start(container, insidePort, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    /**
     * A tunnel listening on a free loopback port with the same number inside the container: for an HTTP server that
     * checks the port named in {@code Host}. The port is chosen here, then the server is told to listen on it.
     */
    static DockerExecTunnel samePort(String container) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        return start(container, listener.getLocalPort(), listener);
    }

    private static DockerExecTunnel start(String container, int inside, ServerSocket listener) {
        DockerExecTunnel tunnel = new DockerExecTunnel(container, inside, listener);
        Thread accepting = new Thread(tunnel::accept, "tunnel-" + container);
        accepting.setDaemon(true);
        accepting.start();
        return tunnel;
    }

    /** The port on this host's loopback. */
    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread carrying = new Thread(() -> carry(client), "tunnel-" + container + "-" + client.getPort());
            carrying.setDaemon(true);
            carrying.start();
        }
    }

    private void carry(Socket client) {
        open.add(client);
        Process exec = null;
        try (client) {
            // The reader replaces the shell, so it alone holds the exec's stdout: the far side's end of file is the
            // exec's end, which ends the copy here. The writer's stdout is the socket; it ends with the exec's stdin,
            // which it reads as fd 4 (a background command's own stdin is /dev/null in a shell without job control).
            String script = "exec 3<>/dev/tcp/127.0.0.1/" + inside + " || exit 75; exec 4<&0; cat <&4 >&3 & exec cat <&3";
            exec = Exec.command(List.of("docker", "exec", "-i", container, "bash", "-c", script))
                    .withStdin(Exec.Io.PIPE).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.DISCARD).start();
            execs.add(exec);
            Process running = exec;
            Thread upstream = new Thread(() -> {
                copy(streamOf(client), running.getOutputStream(), true);
                // The lab's side ended its half: the far side gets a while to answer and close (PostgreSQL after its
                // Terminate message), then the exec is ended, so a peer that never closes holds nothing.
                Exec.endAfterInput(running, DRAIN);
            }, "tunnel-up");
            upstream.setDaemon(true);
            upstream.start();
            copy(exec.getInputStream(), client.getOutputStream(), false);
            client.shutdownOutput();
            client.close();
            Exec.endAfterInput(exec, DRAIN);
        } catch (IOException e) {
            // the client sees its connection end without a response: what a refused connection looks like
        } finally {
            open.remove(client);
            if (exec != null) {
                execs.remove(exec);
                Exec.endAfterInput(exec, Duration.ofSeconds(1));
            }
        }
    }

    private static InputStream streamOf(Socket socket) {
        try {
            return socket.getInputStream();
        } catch (IOException e) {
            return InputStream.nullInputStream();
        }
    }

    private static void copy(InputStream from, OutputStream to, boolean closeTarget) {
        byte[] buffer = new byte[16 * 1024];
        try {
            for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                to.write(buffer, 0, n);
                to.flush();
            }
        } catch (IOException e) {
            // either side went away: the other copy ends too
        } finally {
            if (closeTarget) {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // already closed
        }
        open.forEach(socket -> {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        });
        execs.forEach(process -> Exec.endAfterInput(process, Duration.ofSeconds(2)));
    }

    @Override
    public String toString() {
        return "127.0.0.1:" + port() + " -> " + container + ":127.0.0.1:" + inside;
    }
}
