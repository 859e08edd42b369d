package lab.continuationreplay.bridge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The packaged bridge ({@code target/bridge.jar}) as a real child process, as the TypeScript fixture runs it. */
final class BridgeProcess implements AutoCloseable {
    static final Path JAR = Path.of("target", "bridge.jar").toAbsolutePath();

    private final Process process;
    private final OutputStream stdin;
    private final BufferedReader stdout;
    private final CompletableFuture<String> stderr;

    private BridgeProcess(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }

    /** The lab's environment for principal alice, the matrix backend and clock, with {@code database}. */
    static Map<String, String> environment(Path database) {
        Map<String, String> env = new HashMap<>();
        env.put("WIRE_SERVER_DB", database.toString());
        env.put("WIRE_BACKEND_ID", Requests.BACKEND);
        env.put("WIRE_PRINCIPAL", "alice");
        env.put("WIRE_CLOCK_EPOCH", Long.toString(Requests.NOW));
        env.put("WIRE_FINGERPRINT_KEY_HEX", Requests.FINGERPRINT_KEY_HEX);
        return env;
    }

    static BridgeProcess start(Map<String, String> environment) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing; the package phase builds it");
        }
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(lab.continuationreplay.store.stdio.WireStdout.JVM_OPTIONS);
        command.addAll(List.of("-jar", JAR.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().putAll(environment);
        return new BridgeProcess(builder.start());
    }

    /** Writes raw bytes (one or more lines, or part of one). */
    void write(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    void send(Object request) throws IOException {
        write((request + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The next reply line, or null when the bridge closed stdout. */
    String readLine() throws IOException {
        return stdout.readLine();
    }

    String call(Object request) throws IOException {
        send(request);
        return readLine();
    }

    void closeInput() throws IOException {
        stdin.close();
    }

    int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the bridge did not exit");
        }
        return process.exitValue();
    }

    String stderr() throws Exception {
        return stderr.get(30, TimeUnit.SECONDS);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws Exception {
        try {
            stdin.close();
        } catch (IOException alreadyGone) {
            // the bridge may have halted at a fault
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
