package lab.continuationreplay.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Test
    void aCommandRunsToCompletionWithItsOutput() throws Exception {
        Exec.Result result = Exec.run(List.of("sh", "-c", "echo out; echo err >&2"), LIMIT);
        assertEquals(new Exec.Result(0, "out\nerr\n", false), result);
        assertTrue(result.succeeded());
    }

    @Test
    void aNonZeroExitStatusIsReported() throws Exception {
        Exec.Result result = Exec.run(List.of("sh", "-c", "echo failing; exit 3"), LIMIT);
        assertEquals(3, result.exitStatus());
        assertEquals("failing\n", result.output());
        assertFalse(result.timedOut());
        assertFalse(result.succeeded());
    }

    @Test
    void aTimeoutKillsTheProcessAndItsDescendants() throws Exception {
        // The shell prints its children's pids, then waits for them; both would outlive a kill of the shell alone
        // (and hold the output pipe open).
        long started = System.nanoTime();
        Exec.Result result = Exec.run(List.of("sh", "-c", "sleep 60 & echo $!; sleep 60 & echo $!; wait"), Duration.ofSeconds(2));
        assertTrue(result.timedOut(), result.toString());
        assertFalse(result.succeeded());
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(20), "run returned well before the children would end");
        List<Long> children = result.output().lines().map(Long::parseLong).toList();
        assertEquals(2, children.size(), result.output());
        for (long pid : children) {
            assertGone(pid);
        }
    }

    @Test
    void awaitOrKillEndsAStartedTree() throws Exception {
        Process process = Exec.command("sh", "-c", "sleep 60 & sleep 60; wait").start();
        List<ProcessHandle> tree = descendantsOnceStarted(process, 2);
        assertFalse(Exec.awaitOrKill(process, Duration.ofMillis(200)));
        assertFalse(process.isAlive());
        for (ProcessHandle child : tree) {
            assertGone(child.pid());
        }
    }

    @Test
    void severalMegabytesOfOutputDoNotBlock() throws Exception {
        int size = 8 << 20;
        Exec.Result result = Exec.run(List.of("sh", "-c", "head -c " + size + " /dev/zero | tr '\\0' x; echo done >&2"), LIMIT);
        assertFalse(result.timedOut());
        assertEquals(0, result.exitStatus());
        assertEquals(size + "done\n".length(), result.output().length());
        assertTrue(result.output().endsWith("xdone\n"));
    }

    @Test
    void anUnreadStreamIsDiscardedSoTheChildNeverBlocks() throws Exception {
        // stderr is not asked for: several megabytes of it must not fill a pipe nobody reads
        Process process = Exec.command("sh", "-c", "head -c 8388608 /dev/zero >&2; echo finished").withStdout(Exec.Io.PIPE).start();
        process.getOutputStream().close();
        assertEquals("finished\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(Exec.awaitOrKill(process, LIMIT));
        assertEquals(0, process.exitValue());
    }

    @Test
    void aMissingExecutableIsAnIOExceptionNamingTheCommand() {
        IOException e = assertThrows(IOException.class, () -> Exec.run(List.of("no-such-program-in-the-lab", "--flag"), LIMIT));
        assertTrue(e.getMessage().contains("no-such-program-in-the-lab --flag"), e.getMessage());
    }

    @Test
    void aStdioChildEndsAtEndOfInput() throws Exception {
        Process process = Exec.command("cat").withStdout(Exec.Io.PIPE).start();
        process.getOutputStream().write("line\n".getBytes(StandardCharsets.UTF_8));
        Exec.endAfterInput(process, LIMIT);
        assertFalse(process.isAlive());
        assertEquals(0, process.exitValue(), "cat ended by itself, not killed");
        assertEquals("line\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void environmentFolderAndFilesAreWhatTheSpecSays(@TempDir Path folder) throws Exception {
        Path out = folder.resolve("out.txt");
        Path err = folder.resolve("err.log");
        Files.writeString(out, "stale\n");
        Files.writeString(err, "earlier\n");
        Process process = Exec.command("/bin/sh", "-c", "echo \"$ONLY|${HOME:-none}\"; pwd; echo problem >&2")
                .onlyEnvironment(Map.of("ONLY", "this")).withDirectory(folder)
                .withStdout(Exec.Io.file(out)).withStderr(Exec.Io.appendTo(err)).start();
        assertTrue(Exec.awaitOrKill(process, LIMIT));
        assertEquals("this|none\n" + folder.toRealPath() + "\n", Files.readString(out));
        assertEquals("earlier\nproblem\n", Files.readString(err));
    }

    @Test
    void addedVariablesKeepTheParentEnvironment() throws Exception {
        Exec.Result result = Exec.command("sh", "-c", "echo \"$ADDED|$PATH\"").addingEnvironment(Map.of("ADDED", "yes"))
                .run(LIMIT);
        assertEquals("yes|" + System.getenv("PATH") + "\n", result.output());
    }

    @Test
    void aPipedStderrIsRefusedByRunBecauseNothingWouldReadIt() {
        assertThrows(IllegalArgumentException.class, () -> Exec.command("true").withStderr(Exec.Io.PIPE).run(LIMIT));
    }

    /** The first {@code count} descendants, waiting for the shell to have started them (bounded, by condition). */
    private static List<ProcessHandle> descendantsOnceStarted(Process process, int count) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        List<ProcessHandle> tree = process.descendants().toList();
        while (tree.size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            tree = process.descendants().toList();
        }
        assertEquals(count, tree.size(), "the shell started its children");
        return tree;
    }

    /** The process no longer exists, or has ended (a zombie not yet reaped by whoever adopted it). */
    private static void assertGone(long pid) throws Exception {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            handle.get().onExit().get(10, TimeUnit.SECONDS);
            assertFalse(handle.get().isAlive(), "process " + pid + " is still alive");
        }
    }
}
