package lab.continuationreplay.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Ending an HTTP server's process: SIGTERM, its own exit when it answers, the whole tree killed when it does not. */
class ExecEndByTermTest {
    /** Starts {@code script} under sh and waits until it printed "ready" (its trap is set by then). */
    private static Process started(String script) throws Exception {
        Process process = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("ready", out.readLine());
        return process;
    }

    @Test
    void aProcessThatAnswersTermEndsWithItsOwnStatus() throws Exception {
        Process process = started("trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done");
        Exec.endByTerm(process, Duration.ofSeconds(30));
        assertFalse(process.isAlive());
        assertEquals(7, process.exitValue());
    }

    @Test
    void aProcessThatIgnoresTermIsKilledWithItsChildrenOnceTheGraceRunsOut() throws Exception {
        Process process = started("trap '' TERM; sleep 600 & echo ready; while :; do read line; done");
        List<ProcessHandle> children = process.descendants().toList();
        assertEquals(1, children.size(), children.toString());
        Exec.endByTerm(process, Duration.ofMillis(300));
        assertFalse(process.isAlive());
        assertEquals(128 + 9, process.exitValue(), "killed, not ended by the TERM it ignored");
        for (ProcessHandle child : children) {
            child.onExit().get(30, TimeUnit.SECONDS);
            assertFalse(child.isAlive());
        }
    }

    @Test
    void aProcessAlreadyGoneIsLeftAsItEnded() throws Exception {
        Process process = new ProcessBuilder("sh", "-c", "exit 3").start();
        process.waitFor();
        Exec.endByTerm(process, Duration.ofSeconds(30));
        assertEquals(3, process.exitValue());
    }
}
