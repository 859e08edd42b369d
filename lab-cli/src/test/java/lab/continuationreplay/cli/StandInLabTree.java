package lab.continuationreplay.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for a built clone, for the launcher's tests: the real {@code lab} script copied into a small tree holding
 * the files its stale check reads, one source newer than the build, and a fake {@code mvn} (prints to its stdout,
 * reads its stdin, counts its runs, sleeps two seconds, writes a fresh jar, fails once when asked) and a fake
 * {@code java} (answers the first line of its stdin after {@link #JAVA_SAID}) first on the PATH. Each launcher gets
 * {@link #REQUEST} on stdin, as {@code lab server} gets an MCP client's first request.
 */
final class StandInLabTree {
    static final String JAVA_SAID = "java ran";
    private static final List<String> BUILT = List.of("lab-cli/target/lab.jar", "ts-fixture/dist/fingerprint-cli.js",
            "go-fixture/target/bin/go-fixture", "go-client/target/bin/go-client", "rust-fixture/target/release/rust-fixture",
            "rust-client/target/release/rust-client", "py-fixture/.venv/bin/python");

    /** The toolchains' stand-ins: each says a version the launcher's check accepts. */
    private static final Map<String, String> TOOLS = Map.of(
            "javac", "#!/bin/sh\necho 'javac 17.0.15'\n",
            "node", "#!/bin/sh\necho v20.20.2\n",
            "npm", "#!/bin/sh\necho 11.0.0\n",
            "python3", "#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.11.7'\nexit 0\n",
            "go", "#!/bin/sh\necho 'go version go1.26.8 linux/amd64'\n",
            "cargo", "#!/bin/sh\necho 'cargo 1.95.0 (f2d3ce0bd 2026-03-21)'\n");

    record Run(int status, String stdout, String stderr) {}

    final Path root;
    final Path failOnce;
    private final Path bin;
    private final Path count;

    private StandInLabTree(Path root, Path bin, Path count, Path failOnce) {
        this.root = root;
        this.bin = bin;
        this.count = count;
        this.failOnce = failOnce;
    }

    /** A tree built an hour ago whose one source is newer; {@code flock} on the PATH or not. */
    static StandInLabTree stale(Path dir, boolean withFlock) throws IOException {
        Path root = Files.createDirectories(dir.resolve("tree"));
        Files.copy(LabProcess.home().resolve("lab"), root.resolve("lab"));
        executable(root.resolve("lab"));
        // the launcher's toolchain check runs before a build: the stand-in's tools must say their versions
        Files.copy(LabProcess.home().resolve("doctor.sh"), root.resolve("doctor.sh"));
        Instant old = Instant.now().minusSeconds(3600);
        List<String> files = new ArrayList<>(BUILT);
        files.addAll(List.of("lab-cli/target/lab.built", "pom.xml", "py-fixture/src/pkg/mod.py"));
        for (String built : files) {
            Path file = root.resolve(built);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "");
            executable(file);
            Files.setLastModifiedTime(file, FileTime.from(old));
        }
        Path source = root.resolve("lab-core/src/main/java/A.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class A {}\n");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path count = dir.resolve("mvn-runs");
        Path failOnce = dir.resolve("mvn-fails-once");
        // The fake build writes a fresh jar first, as a real one that fails in a later module would.
        // The fake build reads its stdin as npm and the exec plugin may; the fake java answers the first line it
        // reads, so a request eaten by the build shows as a missing answer.
        write(bin.resolve("mvn"), """
                #!/bin/sh
                if [ "$1" = "-v" ]; then echo "Apache Maven 3.9.9"; exit 0; fi
                echo "mvn's own stdout"
                echo "$*" >> '%s'
                cat > /dev/null
                sleep 2
                touch '%s'
                if [ -e '%s' ]; then rm -f '%s'; exit 1; fi
                exit 0
                """.formatted(count, root.resolve("lab-cli/target/lab.jar"), failOnce, failOnce));
        write(bin.resolve("java"), "#!/bin/sh\nif [ \"$1\" = -version ]; then echo 'openjdk version \"17.0.15\"' >&2; exit 0; fi\n"
                + "read -r line\necho '" + JAVA_SAID + "'\" $line\"\n");
        for (Map.Entry<String, String> tool : TOOLS.entrySet()) {
            write(bin.resolve(tool.getKey()), tool.getValue());
        }
        if (!withFlock) {
            // Only the programs the launcher uses, flock left out.
            for (String program : List.of("bash", "sh", "env", "find", "dirname", "mkdir", "rm", "touch", "mv", "cat",
                    "sleep", "echo", "sort", "cksum", "head", "tail", "grep", "sed", "awk", "df", "mktemp")) {
                Path real = Path.of("/usr/bin", program);
                Files.createSymbolicLink(bin.resolve(program), Files.isExecutable(real) ? real : Path.of("/bin", program));
            }
        }
        return new StandInLabTree(root, bin, count, failOnce);
    }

    /**
     * The real Python sources of the fixture and the client driver copied in, and the real virtual environment linked
     * in place of the stand-in interpreter.
     */
    void withRealPython(Path home) throws IOException {
        for (String folder : List.of("py-fixture/src", "py-client/src")) {
            Path from = home.resolve(folder);
            try (var files = Files.walk(from)) {
                for (Path file : (Iterable<Path>) files.filter(f -> !f.toString().contains("__pycache__") && !f.toString().endsWith(".pyc"))::iterator) {
                    Path to = root.resolve(folder).resolve(from.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(to);
                    } else {
                        Files.createDirectories(to.getParent());
                        Files.copy(file, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        Path venv = root.resolve("py-fixture/.venv");
        try (var files = Files.walk(venv)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
        Files.createSymbolicLink(venv, home.resolve("py-fixture/.venv").toRealPath());
    }

    /** Takes {@code tool} off the stand-in's PATH (for a tree without flock, whose PATH is its own folder alone). */
    void without(String tool) throws IOException {
        Files.delete(bin.resolve(tool));
    }

    /** Puts {@code tool}'s stand-in back on the PATH, as if it had been installed. */
    void restore(String tool) throws IOException {
        write(bin.resolve(tool), TOOLS.get(tool));
    }

    /** How many times the fake mvn ran. */
    int builds() throws IOException {
        return buildArguments().size();
    }

    /** The fake mvn's arguments, a line per run. */
    List<String> buildArguments() throws IOException {
        return Files.exists(count) ? Files.readAllLines(count) : List.of();
    }

    /** {@code lab server java} in the tree, its stdin {@link #REQUEST}, to its end. */
    Run launch() throws Exception {
        return finish(start("server", "java"));
    }

    /** {@code lab ARGS} in the tree, its stdin {@link #REQUEST}, to its end. */
    Run launch(String... args) throws Exception {
        return finish(start(args));
    }

    /** {@code launchers} launchers started one right after the other, then each awaited. */
    List<Run> launchTogether(int launchers) throws Exception {
        List<Process> started = new ArrayList<>();
        for (int i = 0; i < launchers; i++) {
            started.add(start("server", "java"));
        }
        List<Run> runs = new ArrayList<>();
        for (Process process : started) {
            runs.add(finish(process));
        }
        return runs;
    }

    /** The line each launcher gets on stdin, as an MCP client's first request; {@link #answer} is java's reply to it. */
    static final String REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";

    /** What a launcher's stdout holds when java got {@link #REQUEST}: nothing of the build, the wait or the lock. */
    static String answer() {
        return JAVA_SAID + " " + REQUEST + "\n";
    }

    Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(root.resolve("lab").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("PATH", bin + (Files.exists(bin.resolve("bash")) ? "" : ":/usr/bin:/bin"));
        Process process = builder.start();
        process.getOutputStream().write((REQUEST + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        return process;
    }

    static Run finish(Process process) throws Exception {
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("a launcher did not end within 60 s");
        }
        return new Run(process.exitValue(), out, err.get(10, TimeUnit.SECONDS));
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text);
        executable(file);
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
