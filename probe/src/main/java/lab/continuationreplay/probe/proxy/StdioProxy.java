package lab.continuationreplay.probe.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.wire.Lines;
import lab.continuationreplay.history.JsonRpcFrames;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.probe.ProbeInputException;

/**
 * The stdio proxy: the command a client's configuration starts in place of its server. It starts the server, passes
 * every line both ways, transcribes each with its time, and keeps the chosen completing reply from the client: with
 * {@code final-reply} the client then hears nothing for that request; with {@code connection-after-commit} the
 * proxy also closes its output, so the client sees its server's connection end. Its stdout carries the server's
 * lines only.
 */
final class StdioProxy implements ProxySession {
    private final ProxyOptions.Stdio upstream;
    private final ProxyOptions.Loss loss;
    private final ProxyHistory history;
    private final LossRule rule;
    private final InputStream fromClient;
    private final OutputStream toClient;
    private final CompletableFuture<String> ending = new CompletableFuture<>();
    private final Object order = new Object();
    private Transcript transcript;
    private Process server;
    private Thread down;
    private int lines;
    private volatile boolean clientOpen = true;

    StdioProxy(ProxyOptions options, ProxyHistory history, LossRule rule, InputStream fromClient, OutputStream toClient) {
        this.upstream = (ProxyOptions.Stdio) options.upstream();
        this.loss = options.loss();
        this.history = history;
        this.rule = rule;
        this.fromClient = fromClient;
        this.toClient = toClient;
    }

    @Override
    public void start() throws IOException {
        try {
            server = Exec.command(upstream.command()).withStdout(Exec.Io.PIPE)
                    .withStderr(Exec.Io.file(history.file(ProxyHistory.STDERR))).start();
        } catch (IOException e) {
            throw new ProbeInputException("the server command cannot start: " + e.getMessage() + " (check the command after --)");
        }
        transcript = new Transcript(history.file(ProxyHistory.TRANSCRIPT));
        ObjectNode started = history.event("start", System.currentTimeMillis());
        started.put("pid", server.pid());
        history.append(started);
        down = new Thread(this::serverToClient, "proxy-down");
        down.setDaemon(true);
        down.start();
        Thread up = new Thread(this::clientToServer, "proxy-up");
        // a daemon: once the session has ended this thread may still wait on the client's input
        up.setDaemon(true);
        up.start();
        server.onExit().thenRun(() -> ending.complete("server_exit"));
    }

    @Override
    public CompletableFuture<String> ending() {
        return ending;
    }

    private void clientToServer() {
        OutputStream toServer = server.getOutputStream();
        boolean[] serverReading = {true};
        try {
            Lines.split(fromClient, (line, ended) -> {
                rule.clientFrame(history.session(), JsonRpcFrames.object(line));
                record(line, Transcript.Direction.SENT, "forwarded", null);
                if (serverReading[0]) {
                    try {
                        Lines.write(toServer, line, ended);
                    } catch (IOException gone) {
                        serverReading[0] = false; // the server is exiting; its exit ends the session
                    }
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // the client's input failed, or the session is over: either way its input has ended
        }
        ending.complete("end_of_input");
        closeQuietly(toServer);
    }

    private void serverToClient() {
        try (InputStream fromServer = server.getInputStream()) {
            Lines.split(fromServer, (line, ended) -> {
                LossRule.Decision decision = rule.serverFrame(history.session(), JsonRpcFrames.object(line));
                boolean closing = decision.lose() && loss == ProxyOptions.Loss.CONNECTION_AFTER_COMMIT;
                String action = decision.lose() ? (closing ? "lost-and-closed" : "lost") : clientOpen ? "forwarded" : "unread";
                record(line, Transcript.Direction.RECEIVED, action, decision.completing());
                if (!decision.lose() && clientOpen) {
                    try {
                        Lines.write(toClient, line, ended);
                    } catch (IOException gone) {
                        clientOpen = false; // the client stopped reading; the server's lines are still evidence
                    }
                }
                if (closing) {
                    clientOpen = false;
                    closeQuietly(toClient);
                    ending.complete("connection_closed");
                }
                if (decision.stop()) {
                    ending.complete("calls");
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("lab proxy " + history.session() + ": stopped reading the server: " + e.getMessage());
        }
    }

    /** The transcript line and its event, under one lock, so the n-th event names the n-th line. */
    private void record(byte[] line, Transcript.Direction direction, String action, Integer completing) {
        synchronized (order) {
            if (direction == Transcript.Direction.SENT) {
                transcript.sentBytes(line);
            } else {
                transcript.receivedBytes(line);
            }
            ObjectNode event = history.event("line", System.currentTimeMillis());
            event.put("line", lines++);
            event.put("direction", direction == Transcript.Direction.SENT ? "client" : "server");
            event.put("action", action);
            if (completing != null) {
                event.put("completing", completing);
            }
            history.append(event);
        }
    }

    @Override
    public void hurry() {
        Exec.killTree(server);
    }

    @Override
    public Integer close(long graceMs) throws InterruptedException {
        closeQuietly(server.getOutputStream());
        if (!Exec.awaitOrKill(server, Duration.ofMillis(graceMs))) {
            System.err.println("lab proxy " + history.session() + ": the server still ran " + graceMs + " ms after its input"
                    + " closed; killed it and its children");
        }
        int status = server.waitFor();
        down.join(Math.min(graceMs, 2000));
        synchronized (order) {
            transcript.close();
        }
        if (clientOpen) {
            closeQuietly(toClient);
        }
        return status;
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
