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
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.vectors.FingerprintLines;

/**
 * A fingerprint CLI of another language (TypeScript, Python, Go) run as a real process: started once per run with
 * {@code --keep-going}, every line written to its stdin, one output line per input line read from its stdout.
 */
public final class FingerprintCli implements FingerprintImplementation {
    // Pipes need a thread each: the common pool has a single worker on a 2-core machine and would deadlock.
    private static final Executor OWN_THREAD = task -> {
        Thread thread = new Thread(task, "fingerprint-cli-pipe");
        thread.setDaemon(true);
        thread.start();
    };

    private final FingerprintLanguage language;
    private final List<String> command;
    private final Duration timeout;

    private FingerprintCli(FingerprintLanguage language, List<String> command, Duration timeout) {
        this.language = language;
        this.command = List.copyOf(command);
        this.timeout = timeout;
    }

    /** {@code node SCRIPT}; the script must exist. */
    public static FingerprintCli typeScript(Path script, Duration timeout) {
        LabHome.requireFile(script, "build it with `mvn -pl ts-fixture package` (./lab does this for you)");
        return new FingerprintCli(FingerprintLanguage.TYPESCRIPT, List.of(LabHome.node(), script.toString()), timeout);
    }

    /** {@code py-fixture/.venv/bin/python SCRIPT}; the virtual environment and the script must exist. */
    public static FingerprintCli python(Path home, Path script, Duration timeout) {
        Path interpreter = LabHome.requireFile(home.resolve("py-fixture/.venv/bin/python"),
                "build it with `mvn -pl py-fixture package` (it creates the virtual environment; ./lab does this for you)");
        LabHome.requireFile(script, "it is part of py-fixture's sources");
        return new FingerprintCli(FingerprintLanguage.PYTHON, List.of(interpreter.toString(), script.toString()), timeout);
    }

    /** The Go binary; it must exist. */
    public static FingerprintCli go(Path binary, Duration timeout) {
        LabHome.requireFile(binary, "build it with `mvn -pl go-fixture package` (go build; ./lab does this for you)");
        return new FingerprintCli(FingerprintLanguage.GO, List.of(binary.toString()), timeout);
    }

    /** The Rust binary; it must exist. */
    public static FingerprintCli rust(Path binary, Duration timeout) {
        LabHome.requireFile(binary, "build it with `mvn -pl rust-fixture package` (cargo build; ./lab does this for you)");
        return new FingerprintCli(FingerprintLanguage.RUST, List.of(binary.toString()), timeout);
    }

    /** Where each language's CLI is in a built repository (Java has none: it runs in the lab's JVM). */
    public static Path defaultPath(FingerprintLanguage language, Path home) {
        return switch (language) {
            case JAVA -> throw new IllegalArgumentException("the Java fingerprint runs in the lab's own JVM");
            case TYPESCRIPT -> LabHome.typeScriptFingerprintCli(home);
            case PYTHON -> home.resolve("py-fixture/src/fingerprint-cli.py");
            case GO -> home.resolve("go-fixture/target/bin/fingerprint-cli");
            case RUST -> home.resolve("rust-fixture/target/release/fingerprint-cli");
        };
    }

    /** The CLI of {@code language} at {@code path}, checked to exist. */
    public static FingerprintCli of(FingerprintLanguage language, Path home, Path path, Duration timeout) {
        return switch (language) {
            case JAVA -> throw new IllegalArgumentException("the Java fingerprint runs in the lab's own JVM");
            case TYPESCRIPT -> typeScript(path, timeout);
            case PYTHON -> python(home, path, timeout);
            case GO -> go(path, timeout);
            case RUST -> rust(path, timeout);
        };
    }

    @Override
    public FingerprintLanguage language() {
        return language;
    }

    /** One run of the CLI over {@code inputLines}, with {@code --keep-going}: a bad line gives its {@code !reason}. */
    @Override
    public Outputs fingerprint(String keyHex, List<String> inputLines) {
        List<String> argv = new ArrayList<>(command);
        argv.add("--keep-going");
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        if (keyHex != null) {
            environment.put(FingerprintLines.KEY_VARIABLE, keyHex);
        }
        Exec.Spec spec = Exec.command(argv).onlyEnvironment(environment).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.PIPE);
        try {
            Process process = spec.start();
            CompletableFuture<byte[]> stdout = drain(process.getInputStream());
            CompletableFuture<byte[]> stderr = drain(process.getErrorStream());
            CompletableFuture<Void> stdin = CompletableFuture.runAsync(() -> feed(process.getOutputStream(), inputLines), OWN_THREAD);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("the " + language.label() + " fingerprint CLI (" + String.join(" ", command)
                        + ") did not finish within " + timeout.toSeconds() + " s");
            }
            stdin.exceptionally(e -> null).join();
            String out = new String(stdout.join(), StandardCharsets.UTF_8);
            return new Outputs(lines(out), process.exitValue(), new String(stderr.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the " + language.label() + " fingerprint CLI: " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running the " + language.label() + " fingerprint CLI", e);
        }
    }

    private static void feed(OutputStream stdin, List<String> lines) {
        try (OutputStream out = stdin) {
            for (String line : lines) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // A CLI that ended early closed the pipe; its exit status and stderr say why.
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

    @Override
    public String toString() {
        return language.label() + ": " + String.join(" ", command);
    }
}
