package lab.continuationreplay.core.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * One MCP server as a real process serving Streamable HTTP on a free loopback port ({@code --http 0}), driven with
 * plain POSTs ({@link HttpExchanges}): every exchange is in the process's transcript, the token redacted. The URL is
 * read from the line the server prints on stderr when it listens. Stopped with SIGTERM, which both servers answer by
 * finishing in-flight requests and exiting 0; a fault exit keeps its own status.
 */
public final class HttpServerProcess implements ServerWire {
    /** How long a server may take to listen (a cold JVM with Tomcat, or Node with its bridge). */
    static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Pattern SERVING = Pattern.compile("serving (http://127\\.0\\.0\\.1:[0-9]+/mcp)");

    private final Process process;
    private final HttpExchanges exchanges;
    private final Transcript transcript;
    private final String name;
    private final String token;
    private final AtomicLong nextId = new AtomicLong(1);

    private HttpServerProcess(Process process, HttpExchanges exchanges, Transcript transcript, String name, String token) {
        this.process = process;
        this.exchanges = exchanges;
        this.transcript = transcript;
        this.name = name;
        this.token = token;
    }

    /**
     * Starts {@code command --http 0} with exactly {@code environment} (plus locale and path variables), waits for it
     * to listen, and speaks as {@code token}'s principal. stdout carries nothing over HTTP; it goes to
     * {@code stdoutLog} so a stray line there is evidence too.
     *
     * @param principalsByToken the run's tokens, for naming them in the transcript
     */
    public static HttpServerProcess start(String name, List<String> command, Map<String, String> environment,
            Path transcriptFile, Path stdoutLog, Path stderrLog, Duration readTimeout, String token,
            Map<String, String> principalsByToken) throws IOException, TransportFailure {
        return start(name, command, environment, transcriptFile, stdoutLog, stderrLog, readTimeout, token, principalsByToken, 0);
    }

    /**
     * As above with {@code --http port}: for a server whose loopback is not the lab's (one in a container, reached
     * through a forwarder that listens on the same port number on the lab's loopback, so the server's own port
     * check and the {@code Host} the lab sends agree).
     */
    public static HttpServerProcess start(String name, List<String> command, Map<String, String> environment,
            Path transcriptFile, Path stdoutLog, Path stderrLog, Duration readTimeout, String token,
            Map<String, String> principalsByToken, int port) throws IOException, TransportFailure {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(name + ": " + port + " is not a port");
        }
        Map<String, String> env = ServerProcess.allowlisted(environment);
        List<String> argv = new ArrayList<>(command);
        argv.add("--http");
        argv.add(Integer.toString(port));
        Files.createDirectories(stderrLog.toAbsolutePath().getParent());
        long stderrStart = Files.exists(stderrLog) ? Files.size(stderrLog) : 0;
        Process process = Exec.command(argv).onlyEnvironment(env).withStdin(Exec.Io.PIPE).withStdout(Exec.Io.appendTo(stdoutLog))
                .withStderr(Exec.Io.appendTo(stderrLog)).start();
        URI endpoint;
        try {
            endpoint = awaitUrl(process, stderrLog, stderrStart, name);
        } catch (TransportFailure | RuntimeException e) {
            Exec.endByTerm(process, Duration.ofSeconds(5));
            throw e;
        }
        Transcript transcript = new Transcript(transcriptFile);
        return new HttpServerProcess(process, new HttpExchanges(endpoint, transcript, readTimeout, principalsByToken, name),
                transcript, name, token);
    }

    private static URI awaitUrl(Process process, Path stderrLog, long from, String name) throws IOException, TransportFailure {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            String written = written(stderrLog, from);
            Matcher serving = SERVING.matcher(written);
            if (serving.find()) {
                return URI.create(serving.group(1));
            }
            if (!process.isAlive()) {
                throw new TransportFailure(name + " exited " + process.exitValue() + " before serving HTTP: " + tail(written));
            }
            try {
                process.waitFor(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportFailure(name + ": interrupted while it started");
            }
        }
        throw new TransportFailure(name + " printed no serving URL within " + START_LIMIT.toSeconds() + " s");
    }

    private static String written(Path log, long from) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
    }

    private static String tail(String text) {
        String trimmed = text.strip();
        return trimmed.length() > 300 ? "..." + trimmed.substring(trimmed.length() - 300) : trimmed;
    }

    public HttpExchanges exchanges() {
        return exchanges;
    }

    /**
     * The process's transcript, for a relay in front of it to write to: one writer per file, so a relay and this
     * process's own exchanges never interleave partial records. {@link #close()} closes it, so close the relay first.
     */
    public Transcript transcript() {
        return transcript;
    }

    /** The headers of a well-formed request for {@code method} ({@code Mcp-Name} for a tool call), with this bearer. */
    public List<Header> headers(String method, String toolName) {
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Authorization", "Bearer " + token));
        headers.add(new Header("Content-Type", "application/json"));
        headers.add(new Header("Accept", "application/json, text/event-stream"));
        headers.add(new Header("MCP-Protocol-Version", WireEnvelope.PROTOCOL_VERSION));
        headers.add(new Header("Mcp-Method", method));
        if (toolName != null) {
            headers.add(new Header("Mcp-Name", toolName));
        }
        return headers;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode request(String method, ObjectNode params) throws TransportFailure {
        long id = nextId.getAndIncrement();
        ObjectNode frame = WireEnvelope.request(id, method, params);
        String toolName = method.equals("tools/call") ? params.path("name").textValue() : null;
        HttpExchanges.Response response = exchanges.exchange("POST", headers(method, toolName),
                frame.toString().getBytes(StandardCharsets.UTF_8));
        JsonNode reply = reply(response, id);
        if (reply == null) {
            if (response.status() / 100 == 2) {
                throw ServerDefect.nonFrame(name, "HTTP " + response.status() + " body " + abbreviated(response.text()));
            }
            throw new TransportFailure(name + ": HTTP " + response.status() + " without a JSON-RPC reply: " + abbreviated(response.text()));
        }
        return (ObjectNode) reply;
    }

    /** The JSON-RPC reply with {@code id} in a JSON body or an event stream's {@code data:} lines, or null. */
    static JsonNode reply(HttpExchanges.Response response, long id) {
        String type = response.header("Content-Type");
        List<String> candidates = type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("text/event-stream")
                ? lab.continuationreplay.history.EventStream.data(response.text()) : List.of(response.text());
        for (String candidate : candidates) {
            JsonNode frame = ServerProcess.frame(candidate);
            if (frame != null && frame.path("id").isIntegralNumber() && frame.get("id").longValue() == id) {
                return frame;
            }
        }
        return null;
    }

    private static String abbreviated(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    @Override
    public int awaitExit(Duration timeout) throws InterruptedException, TransportFailure {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TransportFailure(name + " still running after " + timeout.toSeconds() + " s");
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

    @Override
    public void close() {
        try {
            Exec.endByTerm(process, Duration.ofSeconds(8));
        } finally {
            transcript.close();
        }
    }
}
