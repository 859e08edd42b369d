package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.InputResponses;

/**
 * The bridge ({@code bridge/target/bridge.jar}) as a child process spoken to directly with its JSON line protocol,
 * without MCP or the TypeScript fixture: what the fixture's bridge client does, minus the fixture. Its environment is
 * the allowlist the fixture passes (no state key, no TTLs).
 */
final class RawBridge implements AutoCloseable {
    private static final List<String> INHERITED = List.of("PATH", "LANG", "LC_ALL", "TMPDIR", "HOME", "JAVA_HOME");
    private static final List<String> PASSED = List.of("WIRE_SERVER_DB", "WIRE_BACKEND_ID", "WIRE_PRINCIPAL",
            "WIRE_CLOCK_EPOCH", "WIRE_FINGERPRINT_KEY_HEX");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Process process;
    private final OutputStream in;
    private final BufferedReader out;

    private RawBridge(Process process) {
        this.process = process;
        this.in = process.getOutputStream();
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static List<String> command(Path home) {
        Path jar = LabHome.requireFile(home.resolve("bridge/target/bridge.jar"), "build the lab first (./lab builds it)");
        return JavaCommand.of(List.of(), "-jar", jar.toString());
    }

    static RawBridge start(Path home, WireSettings settings, Path stderrLog) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : INHERITED) {
            String value = System.getenv(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        Map<String, String> wire = settings.environment();
        PASSED.forEach(name -> env.put(name, wire.get(name)));
        return new RawBridge(Exec.command(command(home)).onlyEnvironment(env).withStdout(Exec.Io.PIPE)
                .withStderr(Exec.Io.appendTo(stderrLog)).start());
    }

    /** One request line, one answer line; an answer that is not {@code "ok":true} is an error. */
    String call(String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        String answer = out.readLine();
        if (answer == null) {
            throw new IOException("the bridge closed its stdout" + exitNote());
        }
        if (!answer.startsWith("{\"ok\":true")) {
            throw new IOException("the bridge refused: " + answer);
        }
        return answer;
    }

    long pid() {
        return process.pid();
    }

    /** An {@code apply} line as the fixture writes it: a fresh verified state at the configured clock. */
    static String apply(WireSettings settings, String operationId, String title, String body) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("op", "apply");
        request.put("operation_id", operationId);
        request.put("title", title);
        request.put("mode", "atomic");
        request.put("body", body);
        request.set("state", ContinuationState.mint(operationId, settings.clockEpoch(), settings.authorityTtl(),
                settings.retentionTtl(), RANDOM).toJson());
        request.set("responses", InputResponses.normalised(body));
        return request.toString();
    }

    private String exitNote() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " (exit " + process.exitValue() + ")" : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Closes stdin (the bridge's end of input) and waits for it; kills it if it lingers. Returns the exit status. */
    @Override
    public void close() {
        Exec.endAfterInput(process, Duration.ofSeconds(10));
    }

    int exitStatus() {
        return process.isAlive() ? -1 : process.exitValue();
    }
}
