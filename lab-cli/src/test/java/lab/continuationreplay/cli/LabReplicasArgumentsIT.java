package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab replicas} refuses what it cannot run before it builds an image or makes a network: an unknown cell, an
 * SDK with no replicas, a used output folder; each in one line, with nothing left behind.
 */
class LabReplicasArgumentsIT {
    @TempDir
    Path dir;

    private LabProcess.Result replicas(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("replicas"));
        command.addAll(List.of(args));
        return LabProcess.run(command, Map.of(), new byte[0]);
    }

    @Test
    void anUnknownCellIsRefusedByName() throws Exception {
        LabProcess.Result refused = replicas("--cells", "r1,r9", "--out", dir.resolve("a").toString());
        assertTrue(refused.exitCode() != 0, refused.stderr());
        assertTrue(refused.stderr().contains("no replica cell r9 (the cells are r1..r5, x1, x2)"), refused.stderr());
        assertFalse(refused.stderr().contains("building"), "no image was built: " + refused.stderr());
        assertFalse(Files.exists(dir.resolve("a")), "no output folder was made");
    }

    @Test
    void anSdkWithoutReplicasIsRefused() throws Exception {
        LabProcess.Result refused = replicas("--sdk", "unguarded", "--out", dir.resolve("b").toString());
        assertTrue(refused.exitCode() != 0, refused.stderr());
        assertTrue(refused.stderr().contains("the replicas are of the guarded servers (java, typescript, python, go, rust), not unguarded"),
                refused.stderr());
        assertFalse(Files.exists(dir.resolve("b")), "no output folder was made");
        LabProcess.Result unknown = replicas("--sdk", "cobol", "--out", dir.resolve("b").toString());
        assertTrue(unknown.exitCode() != 0, unknown.stderr());
        assertTrue(unknown.stderr().contains("cobol"), unknown.stderr());
    }

    @Test
    void aFolderHoldingEvidenceIsNeverWrittenInto() throws Exception {
        Path used = Files.createDirectories(dir.resolve("used"));
        Files.writeString(used.resolve("network.json"), "{}");
        LabProcess.Result refused = replicas("--out", used.toString());
        assertTrue(refused.exitCode() != 0, refused.stderr());
        assertTrue(refused.stderr().contains("is not empty; the lab never overwrites evidence"), refused.stderr());
        assertEquals("{}", Files.readString(used.resolve("network.json")));
    }
}
