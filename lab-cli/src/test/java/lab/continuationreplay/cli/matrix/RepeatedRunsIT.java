package lab.continuationreplay.cli.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user does in one checkout: the main job, a build (which copies the dependency jars again, with new
 * modification times), the main job again. The second run must pass like the first, with only frames on every wire:
 * the class-data archives follow the class path, and a JVM's own logging never reaches stdout.
 */
class RepeatedRunsIT {
    @TempDir
    Path dir;

    @Test
    void theMainJobPassesAgainAfterABuildCopiedTheDependencyJarsAgain() throws Exception {
        Path first = dir.resolve("first");
        assertPasses(LabProcess.run(List.of("matrix", "--cases", "01,09", "--out", first.toString()), Map.of(), new byte[0],
                Duration.ofMinutes(5)));
        assertOnlyFramesAndNoRejectedArchive(first);

        Instant later = Instant.now().plusSeconds(5);
        for (String lib : List.of("java-server/target/lib", "bridge/target/lib")) {
            try (var jars = Files.list(LabProcess.home().resolve(lib))) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                    Path copy = Files.copy(jar, jar.resolveSibling(jar.getFileName() + ".copy"));
                    Files.setLastModifiedTime(copy, FileTime.from(later));
                    Files.move(copy, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        }

        Path second = dir.resolve("second");
        assertPasses(LabProcess.run(List.of("matrix", "--cases", "01,09", "--out", second.toString()), Map.of(), new byte[0],
                Duration.ofMinutes(5)));
        assertOnlyFramesAndNoRejectedArchive(second);
    }

    private static void assertPasses(LabProcess.Result run) {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("java       requested 2, executed 2, passed 2; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("typescript requested 2, executed 2, passed 2; checker (history only): no problem"), run.stdout());
    }

    private static void assertOnlyFramesAndNoRejectedArchive(Path out) throws Exception {
        int received = 0;
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".transcript.log")) {
                    for (String line : Files.readAllLines(file)) {
                        if (line.startsWith("<")) { // "< " or "<b ": the latter is never a frame
                            received++;
                            assertTrue(line.startsWith("< "), file + ": not plain text: " + line);
                            assertEquals("2.0", ExactJson.parse(line.substring(2)).path("jsonrpc").textValue(), file + ": " + line);
                        }
                    }
                } else if (name.endsWith(".stderr.log")) {
                    assertFalse(Files.readString(file).contains("Unable to use shared archive"), file + " used a stale archive");
                }
            }
        }
        assertTrue(received > 20, "the runs' transcripts hold the replies (" + received + ")");
    }
}
