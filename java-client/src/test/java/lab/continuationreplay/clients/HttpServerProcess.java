package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the lab's guarded servers serving Streamable HTTP ({@code --http 0}) as a real process on 127.0.0.1. Over
 * HTTP the driver only connects; whoever runs it (here the test, for {@code lab clients --transport http} the lab)
 * starts and stops the server.
 * The tokens are test values, not anyone's secrets.
 */
final class HttpServerProcess implements AutoCloseable {
    static final String ALICE_TOKEN = "alice-token-0123456789abcdef0123456789abcdef";
    /** Long enough for the driver, known to no server. */
    static final String UNKNOWN_TOKEN = "mallory-token-0123456789abcdef0123456789ab";

    private static final Pattern SERVING = Pattern.compile("serving (http://127\\.0\\.0\\.1:\\d+/mcp)");
    private static final long START_LIMIT_MS = 60_000;

    private final Process process;
    private final URI url;
    private final Path stderr;

    private HttpServerProcess(Process process, URI url, Path stderr) {
        this.process = process;
        this.url = url;
        this.stderr = stderr;
    }

    static HttpServerProcess start(GuardedServer kind, Path dir, Path database, String fault)
            throws IOException, InterruptedException {
        Path tokens = dir.resolve("tokens.json");
        Files.writeString(tokens, "{\"alice\": \"" + ALICE_TOKEN + "\"}", StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(kind.command());
        command.addAll(List.of("--http", "0"));
        Map<String, String> env = kind.env(database, fault);
        // Over HTTP the principal is the token's; a WIRE_PRINCIPAL would only suggest otherwise.
        env.remove("WIRE_PRINCIPAL");
        env.put("WIRE_BEARER_TOKENS_FILE", tokens.toString());
        Path stderr = dir.resolve("http-server.stderr");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("http-server.stdout").toFile())
                .redirectError(stderr.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        long deadline = System.currentTimeMillis() + START_LIMIT_MS;
        while (System.currentTimeMillis() < deadline) {
            Matcher serving = SERVING.matcher(Files.readString(stderr, StandardCharsets.UTF_8));
            if (serving.find()) {
                return new HttpServerProcess(process, URI.create(serving.group(1)), stderr);
            }
            if (!process.isAlive()) {
                fail("the " + kind + " server ended with " + process.exitValue() + " before serving:\n" + Files.readString(stderr));
            }
            Thread.sleep(50);
        }
        stop(process);
        fail("the " + kind + " server did not print its URL within " + START_LIMIT_MS + " ms:\n" + Files.readString(stderr));
        throw new AssertionError("unreachable");
    }

    URI url() {
        return url;
    }

    boolean alive() {
        return process.isAlive();
    }

    String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
    }

    /** SIGTERM first (both servers close their listener and bridges on it), then the whole tree by force. */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }
}
