package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./lab doctor} with each required toolchain hidden from the PATH in turn (a folder of links to every program
 * on this machine's PATH but that one), an old Node.js in front of the real one, and a launcher on a tree
 * that needs a build while Go is missing: each names what is missing and the one command that installs it, exit 2, and
 * nothing is built.
 */
class LabDoctorIT {
    @TempDir
    Path dir;

    private record Run(int status, String stdout, String stderr) {}

    /** A folder of links to every program on the PATH the tests run with, except {@code hidden}. */
    private Path pathWithout(Set<String> hidden) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin-" + String.join("-", hidden)));
        for (String folder : System.getenv("PATH").split(":")) {
            Path path = Path.of(folder);
            if (!Files.isDirectory(path)) {
                continue;
            }
            try (var programs = Files.list(path)) {
                for (Path program : programs.toList()) {
                    String name = program.getFileName().toString();
                    if (!hidden.contains(name) && Files.isExecutable(program) && !Files.exists(bin.resolve(name))) {
                        Files.createSymbolicLink(bin.resolve(name), program);
                    }
                }
            }
        }
        return bin;
    }

    private static Run run(Path launcher, String path, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("PATH", path);
        // The browser is looked for on PATH only, as on a machine that never set LAB_CHROMIUM.
        builder.environment().remove("LAB_CHROMIUM");
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "lab doctor ended");
        return new Run(process.exitValue(), out, err.get(10, TimeUnit.SECONDS));
    }

    private static Path launcher() {
        return LabProcess.home().resolve("lab");
    }

    @Test
    void everythingThereIsExitZeroAndSaysTheMainJobCanRun() throws Exception {
        Run all = run(launcher(), System.getenv("PATH"), "doctor");
        assertEquals(0, all.status(), all.stdout() + all.stderr());
        assertTrue(all.stdout().contains("doctor: the main job can run"), all.stdout());
        assertEquals("", all.stderr(), "the doctor never builds, so says nothing of a build");
    }

    @Test
    void eachRequiredToolHiddenInTurnIsNamedWithItsInstallCommandAndExitTwo() throws Exception {
        // the hidden program, the check that fails, its install command, and the columns that could still run ("": none)
        List<List<String>> cases = List.of(
                List.of("java", "JDK 17 (java)", "openjdk-17-jdk-headless", ""),
                List.of("javac", "javac", "openjdk-17-jdk-headless", ""),
                List.of("mvn", "Maven", "apt-get install -y maven", ""),
                List.of("node", "Node.js 20 (node, npm)", "Node.js 20 or later", "java,python,go,rust"),
                List.of("npm", "Node.js 20 (node, npm)", "Node.js 20 or later", "java,python,go,rust"),
                List.of("python3", "Python 3.11 with venv", "python3-venv", "java,typescript,go,rust"),
                List.of("go", "Go 1.25", "go.dev/dl", "java,typescript,python,rust"),
                List.of("cargo", "Rust 1.88 (cargo)", "rustup", "java,typescript,python,go"));
        for (List<String> hidden : cases) {
            Run run = run(launcher(), pathWithout(Set.of(hidden.get(0))).toString(), "doctor");
            assertEquals(2, run.status(), hidden.get(0) + " hidden: " + run.stdout() + run.stderr());
            assertTrue(run.stdout().contains("MISSING  " + hidden.get(1)), hidden.get(0) + " hidden: " + run.stdout());
            assertTrue(run.stdout().contains("install: ") && run.stdout().contains(hidden.get(2)), run.stdout());
            // without java, Maven cannot say its version either: the verdict names at least the hidden one
            String verdict = run.stdout().lines().reduce((a, b) -> b).orElse("");
            assertTrue(verdict.startsWith("doctor: the main job cannot run; missing: ") && verdict.contains(hidden.get(1)), verdict);
            String runnable = hidden.get(3);
            if (runnable.isEmpty()) {
                assertFalse(verdict.contains("this machine can run"), "no column runs without " + hidden.get(0) + ": " + verdict);
            } else {
                assertTrue(verdict.endsWith("; this machine can run ./lab matrix --sdk " + runnable), verdict);
            }
        }
    }

    @Test
    void eachOptionalToolHiddenInTurnIsAWarningWithItsInstallCommandAndExitZero() throws Exception {
        List<List<String>> cases = List.of(
                List.of("docker", "warning  Docker engine", "apt-get install -y docker.io"),
                List.of("chromium,chromium-browser,google-chrome", "warning  Chromium               lab picture", "apt-get install -y chromium"));
        for (List<String> hidden : cases) {
            Run run = run(launcher(), pathWithout(Set.of(hidden.get(0).split(","))).toString(), "doctor");
            assertEquals(0, run.status(), hidden.get(0) + " hidden: " + run.stdout() + run.stderr());
            assertTrue(run.stdout().contains(hidden.get(1)) && run.stdout().contains(hidden.get(2)), hidden.get(0) + " hidden: " + run.stdout());
            assertTrue(run.stdout().lines().reduce((a, b) -> b).orElse("").startsWith("doctor: the main job can run (warnings: "), run.stdout());
        }
    }

    @Test
    void aToolTooOldIsNamedWithTheVersionFoundAndTheOneNeeded() throws Exception {
        Path bin = pathWithout(Set.of("node"));
        Files.writeString(bin.resolve("node"), "#!/bin/sh\necho v18.19.0\n");
        bin.resolve("node").toFile().setExecutable(true);
        Run old = run(launcher(), bin.toString(), "doctor");
        assertEquals(2, old.status(), old.stdout());
        assertTrue(old.stdout().contains("MISSING  Node.js 20 (node, npm) the typescript column and client (18.19 found, 20.0 or later needed)"),
                old.stdout());
    }

    @Test
    void argumentsAreRefusedInOneLine() throws Exception {
        Run extra = run(launcher(), System.getenv("PATH"), "doctor", "--fix");
        assertEquals(2, extra.status());
        assertEquals("lab doctor: takes no arguments (got: --fix)\n", extra.stderr());
        assertEquals("", extra.stdout());
    }

    @Test
    void aLauncherThatNeedsABuildStopsBeforeItWhenAToolIsMissing() throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir.resolve("stand-in"), false);
        tree.without("go");
        StandInLabTree.Run stopped = tree.launch();
        assertEquals(2, stopped.status(), stopped.stderr());
        assertEquals(0, tree.builds(), "no build was started");
        assertTrue(stopped.stderr().contains("MISSING  Go 1.25"), stopped.stderr());
        assertTrue(stopped.stderr().endsWith(GO_COLUMN_MISSING), stopped.stderr());
        assertEquals("", stopped.stdout(), "stdout stays the wire's");
    }

    private static final String GO_COLUMN_MISSING = "lab: cannot build the go column: Go 1.25 missing (./lab doctor says more);"
            + " this machine can run ./lab matrix --sdk java,typescript,python,rust\n";

    @Test
    void theMainJobAskedForEveryColumnStopsBeforeTheBuildNamingTheColumnsItCouldRun() throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir.resolve("stand-in"), false);
        tree.without("go");
        for (List<String> args : List.of(List.of("matrix"), List.of("matrix", "--sdk", "all"), List.of("matrix", "--sdk=java,go"),
                List.of("matrix", "--sdk", "java", "--in-container"))) {
            StandInLabTree.Run stopped = tree.launch(args.toArray(String[]::new));
            assertEquals(2, stopped.status(), args + ": " + stopped.stderr());
            assertTrue(stopped.stderr().endsWith(GO_COLUMN_MISSING), args + ": " + stopped.stderr());
            assertEquals("", stopped.stdout(), args.toString());
        }
        assertEquals(0, tree.builds(), "no build was started");
    }

    @Test
    void columnsNotAskedForAreLeftOutOfTheBuildUntilTheirToolchainIsThereAndAskedFor() throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir.resolve("stand-in"), false);
        tree.without("go");
        tree.without("python3");
        StandInLabTree.Run two = tree.launch("matrix", "--sdk", "java,typescript");
        assertEquals(0, two.status(), two.stderr());
        assertEquals(StandInLabTree.answer(), two.stdout(), "the build's output stays off stdout");
        assertEquals(List.of("-q -B -DskipTests -Dlab.without.python=true -Dlab.without.go=true -Dlab.without.clients=true install"),
                tree.buildArguments());
        assertTrue(two.stderr().contains("lab: building (mvn -DskipTests install -Dlab.without.python=true -Dlab.without.go=true"
                + " -Dlab.without.clients=true)"),
                two.stderr());

        StandInLabTree.Run java = tree.launch("matrix", "--sdk", "java");
        assertEquals(0, java.status(), java.stderr());
        assertEquals(1, tree.builds(), "the build holds every column asked for: no second build");

        // a command that may need any column, or a column left out, cannot use that build
        StandInLabTree.Run server = tree.launch("server", "go");
        assertEquals(2, server.status(), server.stderr());
        assertTrue(server.stderr().endsWith("lab: cannot build the python, go columns: Python 3.11 with venv; Go 1.25 missing"
                + " (./lab doctor says more); this machine can run ./lab matrix --sdk java,typescript,rust\n"), server.stderr());
        assertEquals(1, tree.builds());

        // Go installed: asking for it builds it, still without Python
        tree.restore("go");
        StandInLabTree.Run go = tree.launch("matrix", "--sdk", "java,go");
        assertEquals(0, go.status(), go.stderr());
        assertEquals("-q -B -DskipTests -Dlab.without.python=true -Dlab.without.clients=true install", tree.buildArguments().get(1));
        assertEquals(2, tree.launch("matrix").status(), "python still missing for every column");
        assertEquals(0, tree.launch("matrix", "--sdk", "go,typescript").status());
        assertEquals(2, tree.builds(), "go and typescript were both built by the second build");
    }
}
