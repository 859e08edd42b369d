package lab.continuationreplay.matrix.vectors;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.vectors.FingerprintLines;

/** Runs {@code node ts-fixture/dist/fingerprint-cli.js} as a real process over its stdin and stdout. */
public final class TypeScriptFingerprintCli {
    // Pipes need a thread each: the common pool has a single worker on a 2-core machine and would deadlock.
    private static final Executor OWN_THREAD = task -> {
        Thread thread = new Thread(task, "fingerprint-cli-pipe");
        thread.setDaemon(true);
        thread.start();
    };

    private final String node;
    private final Path script;
    private final Duration timeout;

    public TypeScriptFingerprintCli(String node, Path script, Duration timeout) {
        this.node = node;
        this.script = script;
        this.timeout = timeout;
    }

    /** What one run printed, line by line, and how it ended. */
    public record Run(int exitCode, List<String> stdout, String stderr) {}

    public Run run(String keyHex, List<String> inputLines, boolean keepGoing) {
        List<String> command = new ArrayList<>(List.of(node, script.toString()));
        if (keepGoing) {
            command.add("--keep-going");
        }
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        if (keyHex != null) {
            environment.put(FingerprintLines.KEY_VARIABLE, keyHex);
        }
        Exec.Spec spec = Exec.command(command).onlyEnvironment(environment).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.PIPE);
        try {
            Process process = spec.start();
            CompletableFuture<byte[]> stdout = drain(process.getInputStream());
            CompletableFuture<byte[]> stderr = drain(process.getErrorStream());
            CompletableFuture<Void> stdin = CompletableFuture.runAsync(() -> feed(process.getOutputStream(), inputLines), OWN_THREAD);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(script + " did not finish within " + timeout.toSeconds() + " s");
            }
            stdin.exceptionally(e -> null).join();
            String out = new String(stdout.join(), StandardCharsets.UTF_8);
            return new Run(process.exitValue(), lines(out), new String(stderr.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + node + " " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
    }

    private static void feed(OutputStream stdin, List<String> lines) {
        try (OutputStream out = stdin) {
            for (String line : lines) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // The CLI stops reading at its first bad line (without --keep-going); a closed pipe is expected then.
        }
    }

    static List<String> lines(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return List.of(body.split("\n", -1));
    }

    private static CompletableFuture<byte[]> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream in = stream) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                in.transferTo(bytes);
                return bytes.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, OWN_THREAD);
    }
}
