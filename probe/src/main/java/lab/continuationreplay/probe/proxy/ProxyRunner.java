package lab.continuationreplay.probe.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import lab.continuationreplay.probe.ProbeInputException;

/**
 * Runs one session of {@code lab proxy} to its end and writes its history; judges nothing. The session ends when the
 * client closes its input (stdio), the server exits, the connection is closed after the loss (stdio), {@code --calls}
 * tool calls have completed, or on SIGTERM; each way the session's end is recorded and the folder sealed, then
 * {@code onSealed} (the checker and the report) runs, also after SIGTERM.
 */
public final class ProxyRunner {
    /** What runs once the history is sealed: the checker derives proxy.json, the report is written. */
    @FunctionalInterface
    public interface Sealed {
        void sealed(Path out) throws IOException;
    }

    /** How a session ended: its cause and its server's exit status (null over HTTP). */
    public record Ending(String endedBy, Integer exitStatus, String session) {}

    /**
     * How long the server may take to end after its input closed. Clients wait less before their SIGTERM (the Java
     * client's close, for one), which then ends the server at once ({@link ProxySession#hurry}).
     */
    static final long END_OF_INPUT_GRACE_MS = 5_000;
    static final long TERMINATION_GRACE_MS = 500;

    private ProxyRunner() {}

    /**
     * Runs a session; over stdio it relays {@code fromClient} and {@code toClient}. Blocks until the session has ended
     * and {@code onSealed} has run. {@code listening} is told the HTTP proxy's endpoint once it listens.
     */
    public static Ending run(ProxyOptions options, InputStream fromClient, OutputStream toClient, Sealed onSealed,
            java.util.function.Consumer<java.net.URI> listening) throws IOException, InterruptedException {
        boolean stdio = options.upstream() instanceof ProxyOptions.Stdio;
        boolean fresh = !Files.exists(options.out());
        ProxyHistory history = ProxyHistory.open(options, stdio);
        ProxyHistory.Before before = history.before();
        LossRule rule = new LossRule(options.nth(), options.calls(), before.completed(), before.lost());
        ProxySession session = stdio ? new StdioProxy(options, history, rule, fromClient, toClient)
                : new HttpProxy(options, history, rule);
        try {
            session.start();
        } catch (ProbeInputException | IOException e) {
            giveBack(options.out(), history, fresh);
            throw e;
        }
        if (session instanceof HttpProxy http) {
            listening.accept(http.endpoint());
        }
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean terminated = new AtomicBoolean();
        Ending[] ending = new Ending[1];
        Thread hook = new Thread(() -> {
            if (session.ending().complete("terminated")) {
                terminated.set(true);
            } else {
                session.hurry();
            }
            try {
                finished.await(END_OF_INPUT_GRACE_MS + 5_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "proxy-terminated");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            String endedBy = session.ending().join();
            Integer status = session.close(terminated.get() ? TERMINATION_GRACE_MS : END_OF_INPUT_GRACE_MS);
            ObjectNode end = history.event("end", System.currentTimeMillis());
            end.put("ended_by", endedBy);
            if (status == null) {
                end.putNull("exit_status");
            } else {
                end.put("exit_status", status);
            }
            history.append(end);
            history.seal(null);
            onSealed.sealed(options.out());
            ending[0] = new Ending(endedBy, status, history.session());
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // SIGTERM: the hook is running and returns now that the session is sealed
            }
        }
        return ending[0];
    }

    /** Nothing ran: the session's files go, and so does the run when this session would have been its first. */
    private static void giveBack(Path out, ProxyHistory history, boolean fresh) throws IOException {
        for (String suffix : new String[] {ProxyHistory.EVENTS, ProxyHistory.TRANSCRIPT, ProxyHistory.STDERR}) {
            Files.deleteIfExists(history.file(suffix));
        }
        if (history.session().equals("s1")) {
            Files.deleteIfExists(out.resolve(ProxyHistory.RUN));
            Files.deleteIfExists(out.resolve(ProxyHistory.PLAN));
            Files.deleteIfExists(out.resolve(".proxy.lock"));
            if (fresh) {
                Files.deleteIfExists(out);
            }
        }
    }
}
