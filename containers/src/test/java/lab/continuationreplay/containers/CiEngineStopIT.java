package lab.continuationreplay.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.LabHome;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stop path of {@code .ci/run} on a machine where it started the engine: a script that sources {@code .ci/engine.sh}
 * and takes its EXIT trap as {@code .ci/run} does starts a dockerd of its own (its own socket, exec root and data root,
 * beside any engine already running), runs a container on the host's network (the engine then leaves the bind mount
 * {@code exec/netns/default} under its exec root), and ends with a status of its own. The script must end with that
 * status, the engine must be gone, and nothing of its state folder, mount or folder, may remain.
 */
@ExtendWith(DockerEngine.class)
class CiEngineStopIT {
    private static final Path DOCKERD = Path.of("/usr/sbin/dockerd");

    @Test
    void theScriptEndsWithItsOwnStatusAndLeavesNoMountAndNoFolder(@TempDir Path dir) throws Exception {
        requireEngineHost();
        Path state = Files.createTempDirectory(Path.of("/tmp"), "lab-dockerd-stop-it.");
        Path mountsSeen = dir.resolve("mounts-while-running");
        String script = prologue() + """
                trap engine_exit_trap EXIT
                %s
                engine_mounts_under '%s' > '%s'
                exit 7
                """.formatted(startAndRunAContainer(dir, state), state, mountsSeen);
        try {
            Outcome outcome = run(List.of("bash", "-c", script), dir);
            assertEquals(7, outcome.status(), "the script's own status, whatever the cleanup met: " + outcome.stderr());
            assertTrue(outcome.stderr().contains("finished in"), outcome.stderr());
            assertCleared(state, Files.readString(mountsSeen), outcome);
        } finally {
            release(state, dir);
        }
    }

    @Test
    void anEngineAKilledRunLeftIsStoppedAndItsFolderReleasedByTheNextRun(@TempDir Path dir) throws Exception {
        requireEngineHost();
        String prefix = "/tmp/lab-dockerd-stop-it-" + ProcessHandle.current().pid() + ".";
        Path state = Files.createTempDirectory(Path.of("/tmp"), Path.of(prefix).getFileName().toString());
        Path mountsSeen = dir.resolve("mounts-while-running");
        // The first run is killed (no EXIT trap runs): its engine, in its own session, goes on running.
        String killed = prologue() + """
                trap engine_exit_trap EXIT
                %s
                engine_mounts_under '%s' > '%s'
                kill -KILL $$
                """.formatted(startAndRunAContainer(dir, state), state, mountsSeen);
        try {
            Outcome first = run(List.of("bash", "-c", killed), dir);
            assertEquals(137, first.status(), first.stderr());
            long pid = dockerdPid(first);
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the killed run's engine runs on");
            Outcome next = run(List.of("bash", "-c", prologue() + "engine_clear_earlier '" + prefix + "'\n"), dir);
            assertEquals(0, next.status(), next.stderr());
            assertTrue(next.stderr().contains("still running (pid " + pid + ")"), next.stderr());
            assertCleared(state, Files.readString(mountsSeen), first);
        } finally {
            release(state, dir);
        }
    }

    private static void requireEngineHost() throws IOException {
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        if (!root || !Files.isExecutable(DOCKERD)) {
            String why = "the stop path needs root and " + DOCKERD + " (.ci/run installs docker.io)";
            if (DockerEngine.inCi()) {
                throw new AssertionError("CI=true: " + why);
            }
            Assumptions.abort(why);
        }
    }

    private static String prologue() {
        return """
                set -euo pipefail
                cd '%s'
                source .ci/engine.sh
                """.formatted(LabHome.resolve());
    }

    /**
     * Shell lines that start an engine with its state in {@code state} and a data root of its own, and run a
     * container on the host's network (the engine then bind-mounts {@code exec/netns/default}, as it did in the
     * container tests of the run that found this). The go fixture is a static binary: an image of that one file needs no base
     * image and no registry.
     */
    private static String startAndRunAContainer(Path dir, Path state) throws Exception {
        Path image = dir.resolve("image.tar");
        if (!Files.exists(image)) {
            assertEquals(0, run(List.of("tar", "-C", LabHome.resolve().resolve("go-fixture/target/bin").toString(), "-cf",
                    image.toString(), "go-fixture"), dir).status());
        }
        Path data = Files.createDirectories(dir.resolve("data-root"));
        return """
                engine_start '%1$s' '%2$s' '%1$s/docker.sock'
                d() { docker -H 'unix://%1$s/docker.sock' "$@"; }
                d import '%3$s' crlab-stop-it:probe >/dev/null
                d run --rm --network host crlab-stop-it:probe /go-fixture </dev/null >/dev/null 2>&1 || true
                """.formatted(state, data, image);
    }

    private static void assertCleared(Path state, String mountsWhileRunning, Outcome run) throws IOException {
        assertTrue(mountsWhileRunning.contains(state.resolve("exec/netns/default").toString()),
                "the engine left its namespace mount while it ran (else this test would not exercise the unmount): "
                        + mountsWhileRunning);
        assertEquals("", mountsUnder(state), "mounts left under " + state);
        assertFalse(Files.exists(state), state + " is removed");
        long pid = dockerdPid(run);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "dockerd " + pid + " is stopped");
    }

    private static long dockerdPid(Outcome run) {
        return Long.parseLong(run.stderr().replaceAll("(?s).*dockerd answers \\(pid (\\d+),.*", "$1"));
    }

    /** Whatever the assertions found, leave nothing of the test's engine on the machine. */
    private static void release(Path state, Path dir) throws Exception {
        Path pidFile = state.resolve("dockerd.pid");
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (String mount : mountsUnder(state).lines().toList()) {
            run(List.of("umount", "-l", mount), dir);
        }
        run(List.of("rm", "-rf", state.toString()), dir);
        for (String mount : mountsUnder(dir).lines().toList()) {
            run(List.of("umount", "-l", mount), dir);
        }
    }

    private static String mountsUnder(Path folder) throws IOException {
        StringBuilder found = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String point = line.split(" ")[4];
            if (point.equals(folder.toString()) || point.startsWith(folder + "/")) {
                found.append(point).append('\n');
            }
        }
        return found.toString();
    }

    private record Outcome(int status, String stderr) {}

    private static Outcome run(List<String> command, Path dir) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(stderr unreadable: " + e.getMessage() + ")";
            }
        });
        process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command).lines().findFirst().orElse("") + " did not end in 180 s");
        }
        return new Outcome(process.exitValue(), stderr.get(10, TimeUnit.SECONDS));
    }
}
