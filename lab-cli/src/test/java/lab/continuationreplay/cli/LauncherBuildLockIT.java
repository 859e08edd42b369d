package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./lab}) on a {@link StandInLabTree}: launchers started together build once; a failed build is
 * built again by the next launcher; stdout carries nothing but what java prints (for {@code lab server} it is the
 * wire); Python bytecode is no source; the main job's build leaves the client drivers out.
 */
class LauncherBuildLockIT {
    @Test
    void fourLaunchersStartedTogetherBuildOnceAndAllRun(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, true);
        List<StandInLabTree.Run> runs = tree.launchTogether(4);
        for (StandInLabTree.Run run : runs) {
            assertEquals(0, run.status(), run.stderr());
            assertEquals(StandInLabTree.answer(), run.stdout(), "stdout carries only java's answer to the request the launcher got: " + run.stderr());
        }
        assertEquals(1, tree.builds(), "mvn runs");
        assertEquals(1, runs.stream().filter(r -> r.stderr().contains("lab: building")).count());
        assertTrue(runs.stream().anyMatch(r -> r.stderr().contains("lab: waiting for the build in progress")),
                "a launcher that came while the build ran says it waits");
        StandInLabTree.Run after = tree.launch();
        assertEquals(0, after.status(), after.stderr());
        assertEquals(1, tree.builds(), "the build is current afterwards");
    }

    @Test
    void withoutFlockAnAtomicFolderIsTheLock(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, false);
        List<StandInLabTree.Run> runs = tree.launchTogether(4);
        for (StandInLabTree.Run run : runs) {
            assertEquals(0, run.status(), run.stderr());
            assertEquals(StandInLabTree.answer(), run.stdout(), run.stderr());
        }
        assertEquals(1, tree.builds());
        assertFalse(Files.exists(dir.resolve("tree/.lab-build.lock")), "the lock folder is removed");
    }

    /** Without flock: a folder naming a launcher that ended is broken; one that names no holder yet is waited for. */
    @Test
    void withoutFlockAFolderLeftByAnEndedLauncherIsBrokenAndAFreshOneIsNot(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, false);
        Path lock = Files.createDirectories(tree.root.resolve(".lab-build.lock"));
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Files.writeString(lock.resolve("pid"), Long.toString(ended.pid()));
        StandInLabTree.Run broken = tree.launch();
        assertEquals(0, broken.status(), broken.stderr());
        assertEquals(1, tree.builds());
        assertFalse(Files.exists(lock));

        // A launcher between its mkdir and its pid file: the others wait, even past an earlier holder's end.
        StandInLabTree again = StandInLabTree.stale(dir.resolve("again"), false);
        Path fresh = Files.createDirectories(again.root.resolve(".lab-build.lock"));
        Process waiting = again.start("server", "java");
        assertFalse(waiting.waitFor(3, java.util.concurrent.TimeUnit.SECONDS), "it waits while the folder names no holder");
        Files.delete(fresh);
        StandInLabTree.Run after = StandInLabTree.finish(waiting);
        assertEquals(0, after.status(), after.stderr());
        assertTrue(after.stderr().contains("lab: waiting for the build in progress"), after.stderr());
        assertEquals(1, again.builds());
    }

    @Test
    void aFailedBuildIsNeverTakenAsCurrentAndTheNextLauncherBuildsAgain(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, true);
        Files.writeString(tree.failOnce, "");
        StandInLabTree.Run failed = tree.launch();
        assertEquals(1, failed.status());
        assertEquals("", failed.stdout(), "no java after a failed build, and nothing of mvn's on stdout");
        assertTrue(failed.stderr().contains("the build failed"), failed.stderr());
        // The fake build wrote a fresh jar before failing: the jar's age must not make it current.
        StandInLabTree.Run again = tree.launch();
        assertEquals(0, again.status(), again.stderr());
        assertEquals(2, tree.builds());
        assertEquals(StandInLabTree.answer(), again.stdout());
    }

    @Test
    void pythonBytecodeIsNoSourceWhoeverWroteIt(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, true);
        assertEquals(0, tree.launch().status());
        assertEquals(1, tree.builds());
        Path cache = Files.createDirectories(tree.root.resolve("py-fixture/src/pkg/__pycache__"));
        Files.writeString(cache.resolve("mod.cpython-311.pyc"), "bytecode");
        Files.writeString(tree.root.resolve("py-fixture/src/pkg/loose.pyc"), "bytecode");
        StandInLabTree.Run run = tree.launch();
        assertEquals(0, run.status(), run.stderr());
        assertEquals(1, tree.builds(), "bytecode under src/ does not make the build stale: " + run.stderr());
        Files.writeString(tree.root.resolve("py-fixture/src/pkg/mod.py"), "x = 2\n");
        assertEquals(0, tree.launch().status());
        assertEquals(2, tree.builds(), "a changed Python source does");
    }

    @Test
    void theMainJobsBuildLeavesTheClientDriversOutAndACommandThatDrivesClientsBuildsThem(@TempDir Path dir) throws Exception {
        StandInLabTree tree = StandInLabTree.stale(dir, true);
        StandInLabTree.Run matrix = tree.launch("matrix");
        assertEquals(0, matrix.status(), matrix.stderr());
        assertEquals(List.of("-q -B -DskipTests -Dlab.without.clients=true install"), tree.buildArguments());
        // without the drivers' binaries the main job's build is still current, also for its runs in containers' stead
        Files.delete(tree.root.resolve("go-client/target/bin/go-client"));
        Files.delete(tree.root.resolve("rust-client/target/release/rust-client"));
        assertEquals(0, tree.launch("matrix", "--sdk", "java,go,rust").status());
        assertEquals(1, tree.builds(), "the drivers are no part of the main job's build");

        // The images carry every driver, so the main job in containers needs them built; the binaries are put back
        // first (the fake build writes only the jar): the stamp alone says the drivers were left out.
        Files.writeString(tree.root.resolve("go-client/target/bin/go-client"), "");
        Files.writeString(tree.root.resolve("rust-client/target/release/rust-client"), "");
        StandInLabTree.Run inContainer = tree.launch("matrix", "--in-container");
        assertEquals(0, inContainer.status(), inContainer.stderr());
        assertEquals("-q -B -DskipTests install", tree.buildArguments().get(1));
        StandInLabTree.Run clients = tree.launch("clients");
        assertEquals(0, clients.status(), clients.stderr());
        assertEquals(2, tree.builds(), "that build holds the drivers lab clients starts");
        assertEquals(0, tree.launch("matrix").status());
        assertEquals(2, tree.builds(), "and everything the main job needs");
    }
}
