package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python processes the lab starts (the fixture, its fingerprint CLI, the client driver) write no bytecode beside
 * their sources: a run of them in a built stand-in tree leaves every file under {@code src/} as it was, and the
 * launcher's stale check still finds the build current. With bytecode allowed in the environment, as on a machine
 * that does not set {@code PYTHONDONTWRITEBYTECODE}.
 */
class PythonRunsLeaveSourcesAloneIT {

    @Test
    void theFixtureAndTheDriverWriteNothingUnderSrcAndTheBuildStaysCurrent(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, true);
        tree.withRealPython(LabProcess.home());
        assertEquals(0, tree.launch().status());
        assertEquals(1, tree.builds());
        Map<String, String> before = sources(tree.root);
        Path python = tree.root.resolve("py-fixture/.venv/bin/python");
        // Each stops on its missing configuration or script after importing its modules.
        python(tree, List.of(python.toString(), tree.root.resolve("py-fixture/src/server.py").toString()));
        python(tree, List.of(python.toString(), tree.root.resolve("py-fixture/src/server.py").toString(), "--http", "0",
                "--conformance"));
        python(tree, List.of(python.toString(), tree.root.resolve("py-fixture/src/fingerprint-cli.py").toString()));
        python(tree, List.of(python.toString(), tree.root.resolve("py-client/src/driver.py").toString(),
                dir.resolve("no-script.json").toString(), dir.resolve("records.jsonl").toString()));
        assertEquals(before, sources(tree.root), "files under src/ after the Python runs");
        StandInLabTree.Run run = tree.launch();
        assertEquals(0, run.status(), run.stderr());
        assertEquals(1, tree.builds(), "the stale check still says current: " + run.stderr());
    }

    private static void python(StandInLabTree tree, List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(tree.root.toFile()).redirectErrorStream(true);
        builder.environment().remove("PYTHONDONTWRITEBYTECODE");
        builder.environment().remove("PYTHONPYCACHEPREFIX");
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        String said = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
        assertTrue(process.exitValue() != 0 || said.isEmpty() || !said.contains("Traceback"), said);
    }

    /** Every file under the tree's src/ folders with its size and time. */
    private static Map<String, String> sources(Path root) throws Exception {
        Map<String, String> files = new TreeMap<>();
        for (String folder : List.of("py-fixture/src", "py-client/src")) {
            try (var walk = Files.walk(root.resolve(folder))) {
                for (Path file : (Iterable<Path>) walk::iterator) {
                    files.put(root.relativize(file).toString(),
                            Files.isDirectory(file) ? "dir" : Files.size(file) + " " + Files.getLastModifiedTime(file));
                }
            }
        }
        return files;
    }
}
