package lab.continuationreplay.cli;

import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.MatrixAsProcess;
import lab.continuationreplay.core.exec.Exec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.servers.JavaCommand;

/** Runs the packaged {@code lab.jar} as a real process, the way {@code ./lab} does. */
public final class LabProcess {
    public record Result(int exitCode, String stdout, String stderr) {}

    /**
     * The commands {@code ./lab} starts with full tiering; it gives every other one {@link MatrixAsProcess#LAB_JVM_OPTIONS},
     * so the tests run each with the JVM a user's run has (LauncherOptionsTest holds the launcher to this list).
     */
    static final Set<String> LONG_LIVED = Set.of("bench", "server");

    private LabProcess() {}

    public static Path home() {
        return LabHome.resolve();
    }

    public static Result run(List<String> args, Map<String, String> environment, byte[] stdin) throws IOException, InterruptedException {
        return run(args, environment, stdin, java.time.Duration.ofSeconds(120));
    }

    /** As above with a time limit of the caller's: a whole matrix on a busy two-core machine takes minutes. */
    public static Result run(List<String> args, Map<String, String> environment, byte[] stdin, java.time.Duration limit)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>();
        if (args.isEmpty() || !LONG_LIVED.contains(args.get(0))) {
            options.addAll(MatrixAsProcess.LAB_JVM_OPTIONS);
        }
        options.add("-Dlab.home=" + home());
        List<String> command = JavaCommand.of(options, "-jar", LabHome.labJar(home()).toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()), LabProcess::ownThread);
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()), LabProcess::ownThread);
        try (var in = process.getOutputStream()) {
            in.write(stdin);
        } catch (IOException closedEarly) {
            // the command may stop reading at its first bad line
        }
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            Exec.killTree(process);
            throw new IllegalStateException("lab " + args + " did not finish in " + limit.toSeconds() + " s");
        }
        return new Result(process.exitValue(), new String(out.join(), StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    /** Waits until a server a test started listens on 127.0.0.1:{@code port} (60 s at most: a JVM or node may start slowly). */
    public static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the server did not listen on " + port + " within 60 s");
    }

    public static Result run(List<String> args, Map<String, String> environment, String stdin) throws IOException, InterruptedException {
        return run(args, environment, stdin.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] readAll(java.io.InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void ownThread(Runnable task) {
        Thread thread = new Thread(task, "lab-process-pipe");
        thread.setDaemon(true);
        thread.start();
    }
}
