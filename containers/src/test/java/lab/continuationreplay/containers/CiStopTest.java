package lab.continuationreplay.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.LabHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .ci/run} stopped by a signal: its test command runs through {@code engine_run}, so a SIGTERM reaches the
 * command and the script ends with 143 (a stopped run once reported exit 0). No engine is started here: bash and
 * the script's own functions only. The scripts install their traps as {@code .ci/run} does.
 */
class CiStopTest {
    @TempDir
    Path dir;

    @Test
    void aStoppedRunEndsWith143AndStopsItsCommand() throws Exception {
        Path pid = dir.resolve("child.pid");
        String script = asCiRun("engine_run sh -c 'echo $$ > \"%s\"; exec sleep 300'".formatted(pid));
        Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(pid) || Files.readString(pid).isBlank()) {
            assertTrue(System.nanoTime() < deadline, "the command did not start");
            Thread.sleep(50);
        }
        long child = Long.parseLong(Files.readString(pid).strip());
        process.toHandle().destroy(); // SIGTERM to the script only, as a CI runner stops a job
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the script ended");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(143, process.exitValue(), output);
        assertTrue(output.contains("(exit 143)"), output);
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "the test command was stopped too");
    }

    @Test
    void theCommandsOwnStatusIsTheScripts() throws Exception {
        String script = asCiRun("engine_run sh -c 'exit 7'");
        Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        assertEquals(7, process.exitValue());
    }

    /** A stop while an earlier step runs (installing a package, starting the engine) said "exit 0" before. */
    @Test
    void aStopBeforeTheCommandStartsEndsWith143AndSaysSo() throws Exception {
        Path started = dir.resolve("step.started");
        Path ran = dir.resolve("command.ran");
        String script = asCiRun("earlier_step() { touch '%s'; sleep 1; }\nearlier_step\nengine_run touch '%s'".formatted(started, ran));
        Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(started)) {
            assertTrue(System.nanoTime() < deadline, "the earlier step did not start");
            Thread.sleep(20);
        }
        process.toHandle().destroy();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the script ended");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(143, process.exitValue(), output);
        assertTrue(output.contains("(exit 143)"), output);
        assertFalse(Files.exists(ran), "the test command never started");
    }

    /** {@code body} after the lines {@code .ci/run} starts with: strict mode, the engine functions, the traps. */
    private static String asCiRun(String body) {
        return """
                set -euo pipefail
                cd '%s'
                source .ci/engine.sh
                trap engine_exit_trap EXIT
                engine_catch_signals
                """.formatted(LabHome.resolve()) + body + "\n";
    }
}
