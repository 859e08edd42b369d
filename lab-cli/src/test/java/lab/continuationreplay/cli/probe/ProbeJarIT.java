package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import lab.continuationreplay.cli.LabProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * probe/target/lab-probe.jar as a user without the lab runs it: {@code java -jar lab-probe.jar probe ...} from a
 * folder of their own, with nothing on PATH but java, python3 (the test's server) and sh, and no lab home. The jar
 * holds none of the lab's servers, and its JDBC service file names SQLite, which the observer finds through it.
 */
class ProbeJarIT {
    @TempDir
    Path dir;

    @Test
    void theJarProbesAServerAndVerifiesItsRunWithOnlyAJdk() throws Exception {
        Path jar = LabProcess.home().resolve("probe/target/lab-probe.jar");
        assertTrue(Files.isRegularFile(jar), "mvn package builds " + jar);
        Path server = LabProcess.home().resolve("lab-cli/src/test/resources/probe/defect_server.py");
        Path database = dir.resolve("orders.sqlite3");
        Path work = Files.createDirectories(dir.resolve("work"));
        Result probe = java(work, jar, List.of("probe", "--command", "python3 '" + server + "' '" + database + "' none",
                "--tool", "create_order", "--args", "{\"order_id\":\"o-{{fresh}}\",\"item\":\"book\"}",
                "--effects-sqlite", database.toString(), "orders"));
        assertEquals(0, probe.status(), probe.output());
        assertTrue(probe.output().contains("p2a pass "), probe.output());
        // without --out the run lands in the working folder, not in any lab's target/
        List<Path> runs;
        try (var listed = Files.list(work)) {
            runs = listed.filter(p -> p.getFileName().toString().startsWith("probe-")).toList();
        }
        assertEquals(1, runs.size(), runs.toString());
        assertTrue(Files.isRegularFile(runs.get(0).resolve("report.html")));
        Result verify = java(work, jar, List.of("verify", runs.get(0).toString()));
        assertEquals(0, verify.status(), verify.output());
        assertTrue(verify.output().contains("\"ok\" : true"), verify.output());

        Result preset = java(work, jar, List.of("probe", "--config", Files.writeString(dir.resolve("c.json"), "{\"server\":\"java\"}").toString()));
        assertEquals(2, preset.status(), preset.output());
        assertTrue(preset.output().contains("only ./lab probe in a checkout of the lab has"), preset.output());
        Result notARun = java(work, jar, List.of("verify", work.toString()));
        assertEquals(2, notARun.status(), notARun.output());
        assertTrue(notARun.output().contains("holds no probe or proxy run"), notARun.output());
        Result proxyHelp = java(work, jar, List.of("proxy", "--help"));
        assertEquals(0, proxyHelp.status(), proxyHelp.output());
        assertTrue(proxyHelp.output().contains("--lose"), proxyHelp.output());
    }

    @Test
    void theJarHoldsTheProbeAndNoServer() throws IOException {
        try (JarFile jar = new JarFile(LabProcess.home().resolve("probe/target/lab-probe.jar").toFile())) {
            assertEquals("lab.continuationreplay.probe.cli.ProbeMain", jar.getManifest().getMainAttributes().getValue("Main-Class"));
            List<String> names = jar.stream().map(e -> e.getName()).toList();
            assertTrue(names.contains("lab/continuationreplay/probe/check/ProbeCheck.class"));
            assertFalse(names.stream().anyMatch(n -> n.startsWith("lab/continuationreplay/server/")
                    || n.startsWith("lab/continuationreplay/core/servers/") || n.startsWith("lab/continuationreplay/store/")
                    || n.startsWith("lab/continuationreplay/matrix/")), "no lab server, store or job in the probe's jar");
            String drivers = new String(jar.getInputStream(jar.getEntry("META-INF/services/java.sql.Driver")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(drivers.contains("org.sqlite.JDBC"), drivers);
        }
    }

    private record Result(int status, String output) {}

    /** The jar run by the JDK the tests run on, with PATH holding java, python3 and sh only. */
    private Result java(Path work, Path jar, List<String> args) throws Exception {
        Path bin = dir.resolve("bin");
        if (!Files.isDirectory(bin)) {
            Files.createDirectories(bin);
            Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
            Files.createSymbolicLink(bin.resolve("sh"), which("sh"));
            Files.createSymbolicLink(bin.resolve("python3"), pythonExecutable());
        }
        List<String> command = new ArrayList<>(List.of(bin.resolve("java").toString(), "-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", bin.toString());
        builder.environment().put("HOME", dir.resolve("home").toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        return new Result(process.exitValue(), output);
    }

    /** The interpreter itself: python3 on PATH may be a shim (pyenv's is a bash script), which needs more than sh. */
    private static Path pythonExecutable() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").redirectErrorStream(true).start();
        String path = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.waitFor(), path);
        return Path.of(path).toRealPath();
    }

    private static Path which(String tool) {
        for (String folder : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(folder, tool);
            if (Files.isExecutable(candidate)) {
                try {
                    // a virtual environment's python3 is a relative link, which a link to it would break
                    return candidate.toRealPath();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException(tool + " is not on PATH");
    }
}
