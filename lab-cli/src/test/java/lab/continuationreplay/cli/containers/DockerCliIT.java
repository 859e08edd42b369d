package lab.continuationreplay.cli.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.containers.DockerCli;
import lab.continuationreplay.containers.RuntimeCell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's own path to the engine, {@code DockerCli} (what {@code lab matrix --in-container} uses; the other
 * container tests go through Testcontainers): a run whose output lands beside the evidence, a run that overstays its
 * time and is killed with its container, and an image that is not there, which must fail at once and never be pulled.
 */
@ExtendWith(DockerEngine.class)
class DockerCliIT {
    @TempDir
    Path dir;

    /** One cell's image is enough: these tests are about the docker command line, not the runtimes. */
    private static String image() {
        return TestImages.image(new RuntimeCell(17, 20));
    }

    @Test
    void theEngineAnswers() {
        assertNull(DockerCli.engineProblem());
    }

    @Test
    void aRunKeepsTheContainersStdoutAndStderrBesideTheEvidenceAsTheFoldersOwner() throws Exception {
        List<String> progress = new ArrayList<>();
        int exit = DockerCli.run(image(), "lab-dockercli-it-" + ProcessHandle.current().pid(), dir.resolve("cell"),
                List.of("--version"), progress::add, Duration.ofMinutes(2));
        assertEquals(0, exit, progress.toString());
        String stdout = Files.readString(dir.resolve("cell").resolve(DockerCli.STDOUT));
        assertTrue(stdout.contains("Continuation Replay Lab"), stdout);
        assertTrue(Files.exists(dir.resolve("cell").resolve(DockerCli.STDERR)));
        assertEquals(DockerCli.owner(dir), DockerCli.owner(dir.resolve("cell")), "the folder stays the caller's");
    }

    @Test
    void aRunThatOverstaysItsTimeIsKilledAndItsContainerIsGone() throws Exception {
        String name = "lab-dockercli-it-timeout-" + ProcessHandle.current().pid();
        List<String> progress = new ArrayList<>();
        // the whole matrix takes about two minutes; one second is far too little
        int exit = DockerCli.run(image(), name, dir.resolve("slow"), List.of("matrix", "--out", "/out/m"), progress::add,
                Duration.ofSeconds(1));
        assertEquals(124, exit, progress.toString());
        assertTrue(progress.stream().anyMatch(line -> line.contains("killing container " + name)), progress.toString());
        Process listed = new ProcessBuilder("docker", "ps", "-a", "--filter", "name=^" + name + "$", "--format", "{{.Names}}")
                .redirectErrorStream(true).start();
        String names = new String(listed.getInputStream().readAllBytes()).strip();
        assertTrue(listed.waitFor(30, TimeUnit.SECONDS));
        assertEquals("", names, "the killed container is removed (--rm)");
    }

    @Test
    void anImageThatIsNotHereFailsAtOnceAndIsNeverPulled() throws Exception {
        List<String> progress = new ArrayList<>();
        int exit = DockerCli.run("local/lab-runner:no-such-cell-" + ProcessHandle.current().pid(), "lab-dockercli-it-missing",
                dir.resolve("missing"), List.of("--version"), progress::add, Duration.ofMinutes(1));
        assertNotEquals(0, exit);
        String stderr = Files.readString(dir.resolve("missing").resolve(DockerCli.STDERR));
        assertTrue(stderr.contains("No such image") || stderr.contains("not found") || stderr.contains("pull"), stderr);
    }
}
