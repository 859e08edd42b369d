package lab.continuationreplay.core.relay;

import lab.continuationreplay.core.wire.Lines;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.store.stdio.WireStdout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The server command the lab gives an SDK client: {@code RecordingRelay --dir DIR --name NAME
 * [--drop-reply-to-continuation N] -- SERVER_COMMAND...}. A client's SDK starts its server itself, so the lab cannot
 * hold the pipes; the relay sits on them instead. It starts the server (environment passed through, stderr to
 * {@code DIR/<name>.stderr.log}), forwards every byte both ways unchanged, line by line on 0x0A, and writes each line to
 * {@code DIR/<name>.transcript.log} ({@link Transcript}). Its stdout carries the server's bytes only; its own
 * diagnostics go to stderr.
 *
 * <p>It ends when the client closes its stdin (the server's stdin is closed, the server given
 * {@link #END_OF_INPUT_GRACE}), when the server exits by itself, or on SIGTERM; each time it writes
 * {@code DIR/<name>.exit.json} ({@link Format#EXIT}) and, unless terminated, exits with the server's status. A SIGTERM
 * that arrives while the server still runs makes it {@code relay_terminated} even when the client closed the relay's
 * stdin a moment before (the TypeScript client's probe teardown does both at once). With
 * {@code --drop-reply-to-continuation N} the reply to the Nth continuation is transcribed but never forwarded, and
 * {@code DIR/<name>.relay.jsonl} ({@link Format#RELAY}) says so. Bad arguments: one line on stderr, exit 2, no file.
 */
public final class RecordingRelay {
    public static final int USAGE = 2;
    public static final String END_OF_INPUT = "end_of_input";
    public static final String SERVER_EXIT = "server_exit";
    public static final String RELAY_TERMINATED = "relay_terminated";
    /** A stdio server ends once its input does; one that does not within this is killed with its children. */
    static final Duration END_OF_INPUT_GRACE = Duration.ofSeconds(10);
    /**
     * After SIGTERM: short, because the TypeScript client's probe teardown follows SIGTERM with SIGKILL one second
     * later, and by then the server must be gone and the exit file written.
     */
    static final Duration TERMINATION_GRACE = Duration.ofMillis(500);
    /** How long the rest of the server's output may take once it has ended; only a descendant can hold it open longer. */
    static final Duration DRAIN = Duration.ofSeconds(2);
    /** The relay only moves bytes: C1 and the serial collector start fastest and suffice. */
    static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    private static final String PROGRAM = "recording-relay";
    private static final String USAGE_LINE = "(--dir DIR --name NAME [--drop-reply-to-continuation N] -- SERVER_COMMAND...)";

    private RecordingRelay() {}

    /** The parsed command line. */
    record Arguments(RelayOptions options, List<String> serverCommand) {}

    /**
     * The relay's full command line, to give a client as its server command: a JVM on the lab's own class path
     * ({@link JavaCommand#labMain}, so stdout stays the wire), the options, {@code --}, then {@code serverCommand}.
     */
    public static List<String> command(Path home, RelayOptions options, List<String> serverCommand) {
        return withArguments(JavaCommand.labMain(home, JVM_OPTIONS, RecordingRelay.class), options, serverCommand);
    }

    /** As {@link #command(Path, RelayOptions, List)}, on another class path that holds lab-core (a test's own). */
    public static List<String> command(String classPath, RelayOptions options, List<String> serverCommand) {
        return withArguments(JavaCommand.onClassPath(classPath, JVM_OPTIONS, RecordingRelay.class), options, serverCommand);
    }

    private static List<String> withArguments(List<String> java, RelayOptions options, List<String> serverCommand) {
        if (serverCommand.isEmpty()) {
            throw new IllegalArgumentException("an empty server command");
        }
        List<String> command = new ArrayList<>(java);
        command.addAll(options.arguments());
        command.add("--");
        command.addAll(serverCommand);
        return command;
    }

    public static void main(String[] args) {
        Arguments parsed;
        try {
            parsed = parse(args);
        } catch (IllegalArgumentException bad) {
            System.err.println(PROGRAM + ": " + bad.getMessage());
            System.exit(USAGE);
            return;
        }
        OutputStream wire = WireStdout.claim(PROGRAM);
        int status;
        try {
            status = new Session(parsed, System.in, wire).run();
        } catch (IOException | UncheckedIOException | InterruptedException e) {
            System.err.println(PROGRAM + ": " + e.getMessage());
            status = 1;
        }
        System.exit(status);
    }

    static Arguments parse(String[] args) {
        Path dir = null;
        String name = null;
        OptionalInt drop = OptionalInt.empty();
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            String option = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (option) {
                case "--dir" -> {
                    once(dir == null, option);
                    dir = Path.of(require(value, option));
                }
                case "--name" -> {
                    once(name == null, option);
                    name = require(value, option);
                }
                case "--drop-reply-to-continuation" -> {
                    once(drop.isEmpty(), option);
                    try {
                        drop = OptionalInt.of(Integer.parseInt(require(value, option)));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(option + " '" + value + "' is not a whole number");
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + option + "' " + USAGE_LINE);
            }
            i++;
        }
        if (dir == null || name == null) {
            throw new IllegalArgumentException("--dir and --name are required " + USAGE_LINE);
        }
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing the server command after -- " + USAGE_LINE);
        }
        return new Arguments(new RelayOptions(dir, name, drop), List.of(Arrays.copyOfRange(args, i + 1, args.length)));
    }

    private static void once(boolean first, String option) {
        if (!first) {
            throw new IllegalArgumentException(option + " is given twice");
        }
    }

    private static String require(String value, String option) {
        if (value == null || value.equals("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** One run: the server, the two directions, and exactly one ending. */
    static final class Session {
        private final Arguments arguments;
        private final InputStream fromClient;
        private final OutputStream toClient;
        private final ReplyDrop drop;
        /** Completed once, by whatever ends the run first: the client's end of input, the server's exit, SIGTERM. */
        private final CompletableFuture<String> ending = new CompletableFuture<>();
        private final CountDownLatch finished = new CountDownLatch(1);
        private String name;
        private Transcript transcript;
        private volatile Process server;
        private volatile Thread down;
        private volatile boolean clientReading = true;
        /** SIGTERM came while the server still ran: the relay, not the server or the client's input, ended it. */
        private volatile boolean terminatedFirst;
        private volatile int exitStatus;

        Session(Arguments arguments, InputStream fromClient, OutputStream toClient) {
            this.arguments = arguments;
            this.fromClient = fromClient;
            this.toClient = toClient;
            this.drop = new ReplyDrop(arguments.options().dropReplyToContinuation().orElse(0));
        }

        int run() throws IOException, InterruptedException {
            try {
                name = ProcessName.claim(arguments.options().dir(), arguments.options().name());
            } catch (IOException e) {
                System.err.println(PROGRAM + ": cannot claim a name in " + arguments.options().dir() + ": " + e);
                return USAGE;
            }
            Path stderrLog = file(".stderr.log");
            transcript = new Transcript(file(ProcessName.TRANSCRIPT));
            // before the server exists, so that no SIGTERM can leave it behind
            Runtime.getRuntime().addShutdownHook(new Thread(this::terminated, "relay-terminated"));
            try {
                server = Exec.command(arguments.serverCommand()).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.file(stderrLog))
                        .start();
            } catch (IOException e) {
                // nothing ran, so nothing is evidence: the name is given back
                transcript.close();
                Files.deleteIfExists(file(ProcessName.TRANSCRIPT));
                Files.deleteIfExists(stderrLog);
                System.err.println(PROGRAM + ": " + e.getMessage());
                return USAGE;
            }
            down = new Thread(this::serverToClient, "relay-down");
            down.setDaemon(true);
            down.start();
            // a daemon: when the server ends first, this thread may still wait on the client's input, and must not
            // keep the relay alive
            Thread up = new Thread(this::clientToServer, "relay-up");
            up.setDaemon(true);
            up.start();
            server.onExit().thenRun(() -> ending.complete(SERVER_EXIT));
            String endedBy = ending.join();
            if (endedBy.equals(RELAY_TERMINATED)) {
                finished.await(); // the shutdown hook ends this run; the JVM exits when it is done
                return exitStatus;
            }
            return finish(endedBy, END_OF_INPUT_GRACE);
        }

        private Path file(String suffix) {
            return arguments.options().dir().resolve(name + suffix);
        }

        /**
         * Each client line is transcribed before it goes to the server, so a reply can never stand above its request
         * in the transcript, and the drop knows a continuation's id before its reply can arrive.
         */
        private void clientToServer() {
            OutputStream toServer = server.getOutputStream();
            boolean[] serverReading = {true};
            try {
                Lines.split(fromClient, (line, ended) -> {
                    transcript.sentBytes(line);
                    drop.clientLine(line);
                    if (serverReading[0]) {
                        try {
                            Lines.write(toServer, line, ended);
                        } catch (IOException gone) {
                            // the server has stopped reading (it is exiting); its exit ends the run
                            serverReading[0] = false;
                            System.err.println(PROGRAM + " " + name + ": the server no longer reads its input (" + gone.getMessage() + ")");
                        }
                    }
                });
            } catch (IOException | UncheckedIOException e) {
                // the client's input failed, or the run is over and the transcript closed: either way input has ended
            }
            // first, then close: the server's exit that closing causes must not count as its own ending
            ending.complete(END_OF_INPUT);
            closeQuietly(toServer);
        }

        private void serverToClient() {
            try (InputStream fromServer = server.getInputStream()) {
                Lines.split(fromServer, (line, ended) -> {
                    transcript.receivedBytes(line);
                    if (drop.keepsFromClient(line)) {
                        recordDrop();
                        return;
                    }
                    if (clientReading) {
                        try {
                            Lines.write(toClient, line, ended);
                        } catch (IOException gone) {
                            // the client stopped reading: keep transcribing, the server's lines are still evidence
                            clientReading = false;
                            System.err.println(PROGRAM + " " + name + ": the client no longer reads (" + gone.getMessage() + ")");
                        }
                    }
                });
            } catch (IOException | UncheckedIOException e) {
                System.err.println(PROGRAM + " " + name + ": stopped reading the server: " + e.getMessage());
            }
        }

        private void recordDrop() throws IOException {
            ObjectNode record = Format.RELAY.document();
            record.set("dropped_reply_to", drop.droppedId());
            record.put("continuation", drop.continuation());
            Files.writeString(file(".relay.jsonl"), ExactJson.mapper().writeValueAsString(record) + "\n", StandardCharsets.UTF_8);
            System.err.println(PROGRAM + " " + name + ": kept the reply to request " + drop.droppedId() + " (continuation "
                    + drop.continuation() + ") from the client");
        }

        /**
         * Ends the server (its stdin closed, {@code grace}, then its tree killed), lets the rest of its output through,
         * and writes the exit file. Runs once: on the main thread, or in the shutdown hook after SIGTERM.
         */
        private int finish(String endedBy, Duration grace) {
            closeQuietly(server.getOutputStream());
            // once a terminated server is gone its pipe ends at once; only an escaped descendant could hold it longer
            Duration drain = grace.compareTo(DRAIN) < 0 ? grace : DRAIN;
            int status;
            try {
                if (!Exec.awaitOrKill(server, grace)) {
                    System.err.println(PROGRAM + " " + name + ": the server was still running " + grace.toMillis()
                            + " ms after " + endedBy + "; killed it and its children");
                }
                status = server.waitFor();
                if (down != null) {
                    down.join(drain.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = server.isAlive() ? -1 : server.exitValue();
            }
            if (down != null && down.isAlive()) {
                System.err.println(PROGRAM + " " + name + ": the server's output was still open " + drain.toMillis()
                        + " ms after it ended (a child of it holds it); the transcript ends here");
            }
            transcript.close();
            try {
                writeExit(terminatedFirst ? RELAY_TERMINATED : endedBy, status);
            } catch (IOException e) {
                System.err.println(PROGRAM + " " + name + ": cannot write the exit file: " + e.getMessage());
            }
            exitStatus = status;
            finished.countDown();
            return status;
        }

        private void writeExit(String endedBy, int status) throws IOException {
            ObjectNode record = Format.EXIT.document();
            record.put("name", name);
            record.put("exit_status", status);
            record.put("ended_by", endedBy);
            Path exit = file(".exit.json");
            Path partial = file(".exit.json.partial");
            // whoever waits for the exit file reads it whole or not at all
            Files.writeString(partial, ExactJson.mapper().writeValueAsString(record) + "\n", StandardCharsets.UTF_8);
            Files.move(partial, exit, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }

        /** The shutdown hook: after SIGTERM it ends the run itself; after a normal end it finds nothing left to do. */
        private void terminated() {
            if (server == null) {
                return;
            }
            terminatedFirst = server.isAlive();
            if (ending.complete(RELAY_TERMINATED)) {
                finish(RELAY_TERMINATED, TERMINATION_GRACE);
                return;
            }
            // already ending (input ended, or the server exited): hurry a server that is slow to go, and let the main
            // thread write the exit file before the JVM is gone
            try {
                Exec.awaitOrKill(server, TERMINATION_GRACE);
                finished.await(DRAIN.toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static void closeQuietly(OutputStream out) {
            try {
                out.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
