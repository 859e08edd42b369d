package lab.continuationreplay.core.exec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The one place the lab starts child processes. A short command runs to completion with its output as text
 * ({@link #run(List, Duration)}); a long-lived child starts from a {@link Spec} that names its streams, environment
 * and folder. Whatever outlives its limit is killed with its whole process tree, descendants first.
 */
public final class Exec {
    /** How long a killed tree is given to disappear. */
    private static final Duration REAP = Duration.ofSeconds(5);

    private Exec() {}

    /**
     * Where one of a child's standard streams goes. Only {@link #PIPE} connects it to this JVM (through the
     * {@link Process}), and reading it is then the caller's job; output streams are discarded unless asked for, so no
     * unread pipe can fill up and block a child.
     */
    public sealed interface Io {
        /** A pipe to this JVM: written through {@link Process#getOutputStream()} or read through the input streams. */
        Io PIPE = new Pipe();
        /** This JVM's own stream. */
        Io INHERIT = new Inherit();
        /** Thrown away by the operating system (stdout and stderr only). */
        Io DISCARD = new Discard();
        /** stderr only: into whatever stdout goes to. */
        Io INTO_STDOUT = new IntoStdout();

        /** stdin read from {@code file}; stdout or stderr written to it, truncated first. */
        static Io file(Path file) {
            return new ToFile(file, false);
        }

        /** stdout or stderr appended to {@code file}. */
        static Io appendTo(Path file) {
            return new ToFile(file, true);
        }

        record Pipe() implements Io {}

        record Inherit() implements Io {}

        record Discard() implements Io {}

        record IntoStdout() implements Io {}

        record ToFile(Path file, boolean append) implements Io {}
    }

    /** How a command ran to completion: its status ({@code 137} once killed), its output, and whether its limit ran out. */
    public record Result(int exitStatus, String output, boolean timedOut) {
        public boolean succeeded() {
            return !timedOut && exitStatus == 0;
        }
    }

    /**
     * A child to start: its command, folder ({@code null}: this JVM's), environment (this JVM's plus {@code environment},
     * or exactly {@code environment}) and streams. Made by {@link Exec#command}: stdin a pipe, stdout and stderr discarded.
     */
    public record Spec(List<String> command, Path directory, Map<String, String> environment, boolean inheritsEnvironment,
            Io stdin, Io stdout, Io stderr) {
        public Spec {
            command = List.copyOf(command);
            if (command.isEmpty()) {
                throw new IllegalArgumentException("an empty command");
            }
            environment = Map.copyOf(environment);
            if (stdin instanceof Io.Discard || stdin instanceof Io.IntoStdout || stdin instanceof Io.ToFile f && f.append()) {
                throw new IllegalArgumentException("stdin cannot be " + stdin);
            }
            if (stdout instanceof Io.IntoStdout) {
                throw new IllegalArgumentException("stdout cannot go into itself");
            }
        }

        public Spec withDirectory(Path folder) {
            return new Spec(command, folder, environment, inheritsEnvironment, stdin, stdout, stderr);
        }

        /** Adds {@code variables} to the environment (this JVM's, unless {@link #onlyEnvironment}). */
        public Spec addingEnvironment(Map<String, String> variables) {
            Map<String, String> all = new LinkedHashMap<>(environment);
            all.putAll(variables);
            return new Spec(command, directory, all, inheritsEnvironment, stdin, stdout, stderr);
        }

        /** Exactly {@code variables}, nothing of this JVM's environment. */
        public Spec onlyEnvironment(Map<String, String> variables) {
            return new Spec(command, directory, variables, false, stdin, stdout, stderr);
        }

        public Spec withStdin(Io io) {
            return new Spec(command, directory, environment, inheritsEnvironment, io, stdout, stderr);
        }

        public Spec withStdout(Io io) {
            return new Spec(command, directory, environment, inheritsEnvironment, stdin, io, stderr);
        }

        public Spec withStderr(Io io) {
            return new Spec(command, directory, environment, inheritsEnvironment, stdin, stdout, io);
        }

        /** All three streams are this JVM's (a terminal command that hands its terminal over). */
        public Spec inheritIo() {
            return new Spec(command, directory, environment, inheritsEnvironment, Io.INHERIT, Io.INHERIT, Io.INHERIT);
        }

        /** Starts the child; an {@link IOException} names the command when it cannot start. */
        public Process start() throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command);
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            if (!inheritsEnvironment) {
                builder.environment().clear();
            }
            builder.environment().putAll(environment);
            builder.redirectInput(stdin instanceof Io.ToFile f ? ProcessBuilder.Redirect.from(f.file().toFile()) : redirect(stdin));
            builder.redirectOutput(redirect(stdout));
            if (stderr instanceof Io.IntoStdout) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(redirect(stderr));
            }
            try {
                return builder.start();
            } catch (IOException e) {
                throw new IOException("cannot start '" + String.join(" ", command) + "'"
                        + (directory == null ? "" : " in " + directory) + ": " + e.getMessage(), e);
            }
        }

        /**
         * Runs the child to completion within {@code limit}: stdin is closed at once, stdout is the result's output
         * (stderr too when it goes {@link Io#INTO_STDOUT}; a piped stderr is refused, nothing would read it). At the
         * limit, or when this thread is interrupted, the child's process tree is killed.
         */
        public Result run(Duration limit) throws IOException, InterruptedException {
            if (stderr instanceof Io.Pipe) {
                throw new IllegalArgumentException("run reads stdout only; send stderr into stdout, to a file or discard it");
            }
            long deadline = System.nanoTime() + limit.toNanos();
            Process process = withStdin(Io.PIPE).withStdout(Io.PIPE).start();
            Output output = new Output(process.getInputStream(), "exec-output-" + process.pid());
            boolean ended = false;
            try {
                process.getOutputStream().close();
                ended = process.waitFor(remaining(deadline), TimeUnit.NANOSECONDS) && output.awaitEnd(remaining(deadline));
            } finally {
                if (!ended) {
                    killTree(process);
                    process.waitFor(REAP.toMillis(), TimeUnit.MILLISECONDS);
                    output.awaitEnd(REAP.toNanos());
                }
            }
            return new Result(process.isAlive() ? -1 : process.exitValue(), output.text(), !ended);
        }
    }

    /** A command with this JVM's environment and folder; stdin a pipe, stdout and stderr discarded. */
    public static Spec command(List<String> command) {
        return new Spec(command, null, Map.of(), true, Io.PIPE, Io.DISCARD, Io.DISCARD);
    }

    public static Spec command(String... command) {
        return command(List.of(command));
    }

    /** Runs {@code command} to completion within {@code limit}, stdout and stderr together as its output. */
    public static Result run(List<String> command, Duration limit) throws IOException, InterruptedException {
        return command(command).withStderr(Io.INTO_STDOUT).run(limit);
    }

    /** Waits up to {@code limit}; on timeout kills the process and its descendants. True if it ended by itself. */
    public static boolean awaitOrKill(Process process, Duration limit) throws InterruptedException {
        if (process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        killTree(process);
        process.waitFor(REAP.toMillis(), TimeUnit.MILLISECONDS);
        return false;
    }

    /** Closes the child's stdin (a stdio child's signal to stop), then {@link #awaitOrKill} with {@code grace}; never throws. */
    public static void endAfterInput(Process process, Duration grace) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            awaitOrKill(process, grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends SIGTERM (an HTTP server's signal to stop: it has no stdin to end), then {@link #awaitOrKill} with
     * {@code grace}; never throws. Children of the process are left to it, unless the grace runs out.
     */
    public static void endByTerm(Process process, Duration grace) {
        process.destroy();
        try {
            awaitOrKill(process, grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Kills the process, then the descendants it had. The tree is listed first (once the root is gone they can no longer
     * be found from it); the root dies first, so a shell in {@code wait} cannot see its children die and exit 0 itself.
     */
    public static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** An output stream's redirection (stdin from a file is handled by the caller). */
    private static ProcessBuilder.Redirect redirect(Io io) {
        if (io instanceof Io.ToFile f) {
            return f.append() ? ProcessBuilder.Redirect.appendTo(f.file().toFile()) : ProcessBuilder.Redirect.to(f.file().toFile());
        }
        if (io instanceof Io.Inherit) {
            return ProcessBuilder.Redirect.INHERIT;
        }
        return io instanceof Io.Discard ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.PIPE;
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    /** A child's output read to its end on a thread of its own, so a full pipe never blocks the child. */
    private static final class Output {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Thread reader;

        Output(InputStream in, String name) {
            reader = new Thread(() -> {
                try (in) {
                    byte[] buffer = new byte[1 << 16];
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        synchronized (bytes) {
                            bytes.write(buffer, 0, n);
                        }
                    }
                } catch (IOException closed) {
                    // the pipe is gone: the output ends here
                }
            }, name);
            reader.setDaemon(true);
            reader.start();
        }

        /** True once the output has ended (every holder of the pipe closed it). */
        boolean awaitEnd(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.timedJoin(reader, Math.max(nanos, 1));
            return !reader.isAlive();
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
