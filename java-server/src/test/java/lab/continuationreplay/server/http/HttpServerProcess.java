package lab.continuationreplay.server.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code java -jar target/java-server.jar --http 0} as a child process, its URL read from stderr, and a raw client. */
final class HttpServerProcess implements AutoCloseable {
    static final String ALICE = "alice-token-0123456789abcdef0123456789";
    static final String BOB = "bob-token-0123456789abcdef0123456789xyz";
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}";
    private static final Pattern URL = Pattern.compile("serving (http://127\\.0\\.0\\.1:(\\d+)/mcp)");

    final Process process;
    final URI uri;
    final int port;
    final Path database;
    /** Every stderr line so far, kept current by a reader thread. */
    final List<String> stderr;
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final Thread stderrReader;

    private HttpServerProcess(Process process, URI uri, int port, Path database, List<String> stderr, Thread stderrReader) {
        this.process = process;
        this.stderrReader = stderrReader;
        this.stderr = stderr;
        this.uri = uri;
        this.port = port;
        this.database = database;
    }

    static HttpServerProcess start(Path dir, String mainClass, Map<String, String> extraEnv) throws Exception {
        return start(dir, List.of(), mainClass, extraEnv);
    }

    /** {@code prefix} goes before the java command, e.g. {@code env --default-signal=INT}. */
    static HttpServerProcess start(Path dir, List<String> prefix, String mainClass, Map<String, String> extraEnv)
            throws Exception {
        return start(dir, prefix, mainClass, List.of(), true, extraEnv);
    }

    /**
     * {@code args} go after {@code --http 0} (e.g. {@code --conformance}); without {@code tokensFile} the server gets
     * no {@code WIRE_BEARER_TOKENS_FILE} at all.
     */
    static HttpServerProcess start(Path dir, List<String> prefix, String mainClass, List<String> args, boolean tokensFile,
            Map<String, String> extraEnv) throws Exception {
        Files.createDirectories(dir);
        Path tokens = dir.resolve("tokens.json");
        Files.writeString(tokens, "{\"alice\":\"" + ALICE + "\",\"bob\":\"" + BOB + "\"}");
        Path database = dir.resolve("store.sqlite3");
        List<String> command = new ArrayList<>(prefix);
        command.addAll(command(mainClass, "0"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("WIRE_"));
        env.putAll(environment(database, tokens));
        if (!tokensFile) {
            env.remove("WIRE_BEARER_TOKENS_FILE");
        }
        env.putAll(extraEnv);
        builder.redirectOutput(dir.resolve("stdout.txt").toFile());
        Process process = builder.start();
        CompletableFuture<Matcher> url = new CompletableFuture<>();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                    Matcher m = URL.matcher(line);
                    if (m.find()) {
                        url.complete(m);
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            url.completeExceptionally(new IllegalStateException("no URL on stderr: " + lines));
        });
        reader.setDaemon(true);
        reader.start();
        Matcher found = url.get(30, TimeUnit.SECONDS);
        HttpServerProcess server = new HttpServerProcess(process, URI.create(found.group(1)),
                Integer.parseInt(found.group(2)), database, lines, reader);
        return server;
    }

    /**
     * The server's command line, with the JVM options every launcher of the lab uses, and the compilers and collector
     * of a case's server (the lab's JvmLifetime.SHORT): these tests make a few calls each, so C2 and G1 would only
     * spend CPU the rest of the test command needs.
     */
    static List<String> command(String mainClass, String port) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        if (mainClass == null) {
            command.addAll(List.of("-jar", "target/java-server.jar"));
        } else {
            command.addAll(List.of("-cp", "target/java-server.jar", mainClass));
        }
        command.addAll(List.of("--http", port));
        return command;
    }

    static Map<String, String> environment(Path database, Path tokens) {
        Map<String, String> env = new HashMap<>();
        env.put("WIRE_SERVER_DB", database.toString());
        env.put("WIRE_BACKEND_ID", "sqlite:http-it");
        env.put("WIRE_CLOCK_EPOCH", "1790035200");
        env.put("WIRE_AUTHORITY_TTL", "300");
        env.put("WIRE_REPLAY_RETENTION_TTL", "360");
        env.put("WIRE_REQUEST_STATE_TTL", "600");
        env.put("WIRE_STATE_KEY_HEX", "11".repeat(32));
        env.put("WIRE_FINGERPRINT_KEY_HEX", "22".repeat(32));
        env.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        return env;
    }

    /** A POST with every header the SDK's transport requires. */
    HttpRequest.Builder post(String token, String method, String name, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (name != null) {
            request.header("Mcp-Name", name);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String roundOne(int id, String operationId, String title) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                + "\"arguments\":{\"operation_id\":\"" + operationId + "\",\"title\":\"" + title + "\"}," + META + "}}";
    }

    static String continuation(int id, String operationId, String title, String body, String requestState) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                + "\"arguments\":{\"operation_id\":\"" + operationId + "\",\"title\":\"" + title + "\"},"
                + "\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"" + body + "\"}}},"
                + "\"requestState\":\"" + requestState + "\"," + META + "}}";
    }

    static String status(int id, String operationId) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"get_operation_status\","
                + "\"arguments\":{\"operation_id\":\"" + operationId + "\"}," + META + "}}";
    }

    long count(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                ResultSet rows = connection.createStatement().executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : -1;
        }
    }

    String text(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                ResultSet rows = connection.createStatement().executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    /** Waits for the process to exit and for its last stderr line to be read; its exit status, or null if it runs on. */
    Integer awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            return null;
        }
        stderrReader.join(TimeUnit.SECONDS.toMillis(seconds));
        return process.exitValue();
    }

    /**
     * Sends a signal with kill(1). {@code Process.destroy()} sends SIGTERM too, but closes this side of the pipes, so
     * whatever the server writes on stderr while it stops is lost to the test.
     */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " failed");
        }
    }

    /** Every stderr line so far, as one text. */
    String stderrText() {
        synchronized (stderr) {
            return String.join("\n", stderr);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
