package lab.continuationreplay.core.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * One MCP server as a real process, driven with raw newline-delimited JSON-RPC over its stdin/stdout. Every line
 * either way goes to the transcript exactly as on the pipe. The environment is an allowlist: only what the caller
 * passes plus a few locale and path variables, so no secret of the parent process leaks into a server or its evidence.
 * stdout carries frames only: a line that is not a JSON-RPC 2.0 object stops the caller waiting for a reply with a
 * {@link ServerDefect}, unless the process was started {@link #toleratingDamagedLines() tolerating damaged lines} (a proxy that truncates frames
 * on purpose).
 */
public final class ServerProcess implements ServerWire {
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(8);
    private static final List<String> INHERITED = List.of("PATH", "LANG", "LC_ALL", "TMPDIR", "HOME", "JAVA_HOME");
    /** One line the server wrote, decoded; {@code utf8} false when it was not UTF-8 (then decoded leniently). */
    private record Line(String text, boolean utf8) {}

    private static final Line END_OF_STREAM = new Line("", true);

    private final Process process;
    private final OutputStream stdin;
    private final Transcript transcript;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Duration readTimeout;
    private final String name;
    private volatile boolean damagedLinesExpected;
    private long nextId = 1;

    private ServerProcess(Process process, Transcript transcript, Duration readTimeout, String name) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.transcript = transcript;
        this.readTimeout = readTimeout;
        this.name = name;
        Thread reader = new Thread(this::pump, "server-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code command}; stderr goes to {@code stderrLog} (diagnostics, never part of the wire). The process is
     * named after its transcript ({@code server case-01/first}) in what this class reports.
     */
    public static ServerProcess start(List<String> command, Map<String, String> environment, Path transcriptFile,
            Path stderrLog, Duration readTimeout) throws IOException {
        Path folder = transcriptFile.toAbsolutePath().getParent();
        String file = transcriptFile.getFileName().toString().replace(".transcript.log", "");
        return start("server " + (folder.getFileName() == null ? "" : folder.getFileName() + "/") + file, command, environment,
                transcriptFile, stderrLog, readTimeout);
    }

    /** As above, named {@code name} in what this class reports ({@code java server case-01/first}, say). */
    public static ServerProcess start(String name, List<String> command, Map<String, String> environment, Path transcriptFile,
            Path stderrLog, Duration readTimeout) throws IOException {
        Map<String, String> env = allowlisted(environment);
        Process process = Exec.command(command).onlyEnvironment(env).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.appendTo(stderrLog))
                .start();
        return new ServerProcess(process, new Transcript(transcriptFile), readTimeout, name);
    }

    /**
     * A server's whole environment: {@code environment} plus the locale and path variables of this process, nothing
     * else, so no secret of the parent leaks into a server or its evidence. Both transports start servers with it.
     */
    static Map<String, String> allowlisted(Map<String, String> environment) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String variable : INHERITED) {
            String value = System.getenv(variable);
            if (value != null) {
                env.put(variable, value);
            }
        }
        env.putAll(environment);
        return env;
    }

    /**
     * For a process that damages frames on purpose (the fault lab's stdio proxy): a line that is not a frame is
     * skipped while waiting for a reply (it stays in the transcript), not a {@link ServerDefect}.
     */
    public ServerProcess toleratingDamagedLines() {
        damagedLinesExpected = true;
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode request(String method, ObjectNode params) throws TransportFailure {
        long id = nextId++;
        sendRaw(WireEnvelope.request(id, method, params).toString());
        return awaitReply(id);
    }

    /** Writes one line as is (a malformed frame, say); a dead server is a transport failure. */
    public void sendRaw(String line) throws TransportFailure {
        transcript.sent(line);
        try {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new TransportFailure("cannot write to the server: " + e.getMessage());
        }
    }

    /**
     * Writes {@code line} and a newline as raw bytes, for frames a String cannot carry (invalid UTF-8, lone bytes).
     * The transcript shows it as {@link Transcript#sentBytes} does.
     */
    public void sendBytes(byte[] line) throws TransportFailure {
        transcript.sentBytes(line);
        try {
            byte[] frame = java.util.Arrays.copyOf(line, line.length + 1);
            frame[line.length] = '\n';
            stdin.write(frame);
            stdin.flush();
        } catch (IOException e) {
            throw new TransportFailure("cannot write to the server: " + e.getMessage());
        }
    }

    /** The next line the server writes, or empty if none arrives within the timeout (or it closed stdout). */
    public Optional<String> nextLine(Duration timeout) throws InterruptedException {
        Line line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            return Optional.empty();
        }
        if (line == END_OF_STREAM) {
            lines.add(END_OF_STREAM);
            return Optional.empty();
        }
        return Optional.of(line.text());
    }

    private ObjectNode awaitReply(long id) throws TransportFailure {
        long deadline = System.nanoTime() + readTimeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                Line line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new TransportFailure("no reply to request " + id + " within " + readTimeout.toSeconds() + " s");
                }
                if (line == END_OF_STREAM) {
                    lines.add(END_OF_STREAM);
                    throw new TransportFailure("server closed stdout" + exitNote());
                }
                JsonNode reply = line.utf8() ? frame(line.text()) : null;
                if (reply == null) {
                    if (damagedLinesExpected) {
                        continue; // recorded in the transcript; not a reply
                    }
                    throw ServerDefect.nonFrame(name, line.utf8() ? line.text() : "(not UTF-8) " + line.text());
                }
                if (reply.path("id").isIntegralNumber() && reply.get("id").longValue() == id) {
                    return (ObjectNode) reply;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportFailure("interrupted while waiting for request " + id);
        }
    }

    /** The line as a JSON-RPC 2.0 object, or null when it is not one. */
    static JsonNode frame(String line) {
        try {
            JsonNode node = ExactJson.parse(line);
            return node.isObject() && "2.0".equals(node.path("jsonrpc").textValue()) ? node : null;
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }

    private String exitNote() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return " (exit " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    /**
     * Reads stdout as bytes and splits it on 0x0A only, as the servers' transports do: a carriage return stays in its
     * line, invalid UTF-8 stays exact in the transcript ({@link Transcript#receivedBytes}), and such a line can never
     * pass for a frame.
     */
    private void pump() {
        try (InputStream out = new BufferedInputStream(process.getInputStream())) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = out.read()) >= 0) {
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                deliver(line.toByteArray());
                line.reset();
            }
            if (line.size() > 0) {
                deliver(line.toByteArray()); // the last line, cut off without its newline
            }
        } catch (IOException | UncheckedIOException e) {
            // the process went away; end of stream below
        }
        lines.add(END_OF_STREAM);
    }

    private void deliver(byte[] line) {
        transcript.receivedBytes(line);
        try {
            lines.add(new Line(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(line)).toString(), true));
        } catch (CharacterCodingException notUtf8) {
            lines.add(new Line(new String(line, StandardCharsets.UTF_8), false));
        }
    }

    /** Closes the server's stdin (end of input) but keeps reading what it still writes. */
    public void closeInput() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public int awaitExit(Duration timeout) throws InterruptedException, TransportFailure {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TransportFailure("server still running after " + timeout.toSeconds() + " s");
        }
        return process.exitValue();
    }

    @Override
    public Integer exitStatus() {
        return process.isAlive() ? null : process.exitValue();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** Closes stdin (a stdio server's signal to stop), waits briefly, then kills what is left. */
    @Override
    public void close() {
        try {
            Exec.endAfterInput(process, Duration.ofSeconds(5));
        } finally {
            transcript.close();
        }
    }
}
